"""`mockpolicy branches` on coverage data made by real pytest-cov runs in
subprocesses: every finding, --fix, xdist and combined shards, bad data. A
test's first run of mockpolicy on a project may call ``mockpolicy.cli.main``
in this process; the runs after it use the installed command."""

from __future__ import annotations

import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tokenize
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import git, mockpolicy, mockpolicy_in_process, run, write_tree

from mockpolicy import coverage_parser

PROJECT = {
    "pyproject.toml": """
        [project]
        name = "app"
        version = "0"
        [tool.pytest.ini_options]
        pythonpath = ["src"]
        """,
    "src/app/__init__.py": "",
    "src/app/gates.py": """
        def read_evidence(name):
            if name.startswith("r"):
                return "RETRY"
            return "APPROVED"


        def run_gates(name):
            status = read_evidence(name)
            if status == "APPROVED":
                return True
            try:
                return helper(name)
            except KeyError:
                return False


        def helper(name):
            raise KeyError(name)


        def never_called(flag):
            if flag:
                return 1
            return 2
        """,
    "tests/test_gates.py": """
        from unittest.mock import patch

        from app import gates


        # mock-partial: the critic always approves here
        #   untested: app.gates.run_gates: if status == "APPROVED"
        #   untested: app.gates.run_gates: except KeyError; covered by tests/test_gates.py::test_retry
        #   untested: app.gates.never_called: if flag
        #   untested: app.gates.run_gates: if status == "GONE"
        #   reason: covered by tests/test_gates.py::test_missing
        @patch("app.gates.read_evidence", return_value="APPROVED", autospec=True)
        def test_approved(read):
            assert gates.run_gates("x")

        class TestUndocumented:  # not a sibling of test_retry, which takes the else arm for real
            @patch("app.gates.read_evidence", return_value="APPROVED", autospec=True)
            def test_undocumented(self, read):
                assert gates.run_gates("y")


        def test_retry():
            assert not gates.run_gates("r")
        """,
}


def _pytest_cov(root: Path, *extra: str, env: dict[str, str] | None = None) -> None:
    result = run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--cov=app", *extra, "tests"],
        cwd=root, env=env,
    )
    assert result.returncode == 0, result.stdout + result.stderr


Runner = Callable[..., "subprocess.CompletedProcess[str]"]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write_tree(tmp_path, PROJECT)


def _findings(root: Path, *args: str, runner: Runner = mockpolicy) -> list[tuple[int, str]]:
    result = runner("branches", "--format", "json", *args, cwd=root)
    assert result.returncode in (0, 1), result.stderr
    return sorted((f["line"], f["symbol"]) for f in json.loads(result.stdout))


EXPECTED = [
    (7, "stale-untested-branch-doc"),  # test_approved runs the if-arm it says it leaves untested
    (9, "uncovered-documented-branch"),  # no test calls never_called
    (10, "unknown-branch-reference"),  # no such condition
    (11, "unverified-coverage-claim"),  # test_missing is not in the data
    (11, "unverified-coverage-claim"),
    (12, "undocumented-untested-branch"),  # the else arm of the status test is never taken
]


def test_every_finding_from_a_real_run(project: Path) -> None:
    _pytest_cov(project, "--cov-branch", "--cov-context=test")
    assert _findings(project, runner=mockpolicy_in_process) == EXPECTED
    text = mockpolicy("branches", cwd=project)
    assert text.returncode == 1
    assert "untested: app.gates.run_gates: else status == \"APPROVED\"" in text.stdout
    assert "tests/test_gates.py::test_approved executes it" in text.stdout


def test_a_claim_that_names_a_test_that_does_not_execute_the_branch(project: Path) -> None:
    test_file = project / "tests/test_gates.py"
    test_file.write_text(test_file.read_text().replace("test_missing", "TestUndocumented::test_undocumented"))
    _pytest_cov(project, "--cov-branch", "--cov-context=test")
    result = mockpolicy_in_process("branches", cwd=project)
    assert "claims tests/test_gates.py::TestUndocumented::test_undocumented executes" in result.stdout


@pytest.mark.slow  # four pytest-cov runs, one of them with two xdist workers
def test_xdist_and_combined_shards_give_the_same_findings(project: Path) -> None:
    _pytest_cov(project, "--cov-branch", "--cov-context=test", "-n", "2")
    assert _findings(project) == EXPECTED
    (project / ".coverage").unlink()
    for shard, selection in (("shard1", "test_approved or test_undocumented"), ("shard2", "test_retry")):
        (project / f".coveragerc-{shard}").write_text(f"[run]\ncontext = {shard}\nbranch = true\n")
        _pytest_cov(
            project, "--cov-context=test", f"--cov-config=.coveragerc-{shard}", "-k", selection,
            env={"COVERAGE_FILE": f".coverage.{shard}"},
        )
    combined = run([sys.executable, "-m", "coverage", "combine", ".coverage.shard1", ".coverage.shard2"], cwd=project)
    assert combined.returncode == 0, combined.stderr
    contexts = [row[0] for row in sqlite3.connect(project / ".coverage").execute("SELECT context FROM context")]
    assert any(c.startswith("shard1|tests/") for c in contexts)
    assert _findings(project) == EXPECTED


def test_fix_rewrites_only_the_blocks_and_is_idempotent(project: Path) -> None:
    pyproject = project / "pyproject.toml"  # long enough for each new entry to stay on one line
    pyproject.write_text(pyproject.read_text() + "\n[tool.ruff]\nline-length = 120\n")
    _pytest_cov(project, "--cov-branch", "--cov-context=test")
    test_file = project / "tests/test_gates.py"
    before = test_file.read_text()
    preview = mockpolicy_in_process("branches", "--fix", "--add-blocks", "--diff", cwd=project)
    assert test_file.read_text() == before and "rewrote" not in preview.stderr  # --diff writes nothing
    diff = preview.stdout[: preview.stdout.index("\ntests/test_gates.py:7:") + 1]  # the findings follow
    assert diff.startswith("--- a/tests/test_gates.py\n+++ b/tests/test_gates.py\n@@ ")
    assert '-#   untested: app.gates.run_gates: if status == "APPROVED"\n' in diff
    added = [line for line in diff.splitlines() if line.startswith("+")]
    assert [line.strip("+ ") for line in added].count(
        '#   untested: app.gates.run_gates: else status == "APPROVED"; <say why this stays untested>') == 2
    assert mockpolicy_in_process("branches", "--diff", cwd=project).returncode == 2  # needs --fix
    plain = mockpolicy_in_process("branches", "--fix", cwd=project)  # maintains the existing block only
    maintained = test_file.read_text()
    assert "rewrote" in plain.stderr and maintained.count("# mock-partial:") == before.count("# mock-partial:")
    first = mockpolicy_in_process("branches", "--fix", "--add-blocks", cwd=project)
    after = test_file.read_text()
    assert "rewrote" in first.stderr
    assert mockpolicy_in_process("branches", "--add-blocks", cwd=project).returncode == 2  # needs --fix
    code = lambda text: [line for line in text.splitlines() if not line.lstrip().startswith("#")]  # noqa: E731
    assert code(after) == code(before)
    assert '#   untested: app.gates.run_gates: if status == "APPROVED"' not in after  # stale: dropped
    assert "#   untested: app.gates.run_gates: except KeyError; covered by tests/test_gates.py::test_retry" in after
    new_entry = '#   untested: app.gates.run_gates: else status == "APPROVED"; <say why this stays untested>'
    assert after.count(new_entry) == 2  # added to the block, and in a new block above the undocumented mock
    assert "# mock-partial: app.gates.read_evidence returns \"APPROVED\"" in after
    second = mockpolicy("branches", "--fix", "--add-blocks", cwd=project)
    assert test_file.read_text() == after and "rewrote" not in second.stderr
    check = mockpolicy("check", "--format", "json", cwd=project)
    placeholders = [f for f in json.loads(check.stdout) if "gives no reason" in f["message"]]
    assert len(placeholders) == 2  # the placeholder keeps malformed-mock-partial reporting


def test_refuses_data_it_cannot_use(project: Path) -> None:
    missing = mockpolicy_in_process("branches", cwd=project)
    assert missing.returncode == 2 and ".coverage does not exist" in missing.stderr
    (project / ".coverage").write_bytes(b"this is not sqlite at all" * 100)
    corrupt = mockpolicy("branches", cwd=project)
    assert corrupt.returncode == 2 and "is not a coverage.py data file" in corrupt.stderr
    assert "Traceback" not in corrupt.stderr
    (project / ".coverage").unlink()
    _pytest_cov(project, "--cov-context=test")
    lines_only = mockpolicy("branches", cwd=project)
    assert lines_only.returncode == 2 and "--cov-branch" in lines_only.stderr
    (project / ".coverage").unlink()
    _pytest_cov(project, "--cov-branch")
    no_contexts = mockpolicy("branches", cwd=project)
    assert no_contexts.returncode == 2 and "--cov-context=test" in no_contexts.stderr
    other = mockpolicy("branches", "--data", "elsewhere.db", cwd=project)
    assert other.returncode == 2 and "elsewhere.db does not exist" in other.stderr


def test_private_parser_agrees_with_the_public_json_report(project: Path) -> None:
    _pytest_cov(project, "--cov-branch", "--cov-context=test")
    report = run([sys.executable, "-m", "coverage", "json", "-o", "cov.json"], cwd=project)
    assert report.returncode == 0, report.stderr
    files = json.loads((project / "cov.json").read_text())["files"]
    source_file = next(name for name in files if name.endswith("gates.py"))
    data = files[source_file]
    public = {tuple(arc) for arc in [*data["executed_branches"], *data["missing_branches"]]}
    parsed = coverage_parser.parse((project / source_file).read_text(), source_file)
    assert parsed is not None
    branch_lines = {start for start, _ in public}
    ours = {arc for arc in parsed.arcs if arc[0] in branch_lines}
    assert ours == public and len(public) >= 6


def test_coverage_findings_go_through_the_baseline(project: Path) -> None:
    _pytest_cov(project, "--cov-branch", "--cov-context=test")
    recorded = mockpolicy_in_process("baseline", "--data", ".coverage", cwd=project)
    assert recorded.returncode == 0, recorded.stderr
    entries = json.loads((project / "baselines/mockpolicy.json").read_text())
    assert "stale-untested-branch-doc" in json.dumps(entries)
    assert mockpolicy("branches", cwd=project).returncode == 0
    assert mockpolicy("check", cwd=project).returncode == 0  # coverage entries are not check's to call stale
    pruned = mockpolicy("prune", cwd=project)
    assert pruned.returncode == 0 and "stale-untested-branch-doc" not in pruned.stdout
    assert mockpolicy("branches", cwd=project).returncode == 0
    assert len(json.loads(mockpolicy("branches", "--no-baseline", "--format", "json", cwd=project).stdout)) == 6
    # A fixed block leaves a stale coverage entry behind, which branches reports.
    mockpolicy("branches", "--fix", cwd=project)
    after = mockpolicy("branches", cwd=project)
    assert after.returncode == 1 and "stale: stale-untested-branch-doc" in after.stderr
    assert mockpolicy("branches", "--allow-stale", cwd=project).returncode == 0


SCOPES = {
    "tests/test_scopes.py": """
        import unittest
        from unittest.mock import patch

        import pytest

        from app import gates


        # mock-partial: every test of the class
        #   untested: app.gates.run_gates: else status == "APPROVED"; the retry tests cover it
        @patch("app.gates.read_evidence", return_value="APPROVED", autospec=True)
        class TestDecorated:
            def test_one(self, read):
                assert gates.run_gates("a")

            def test_two(self, read):
                assert gates.run_gates("b")


        class TestSetUp(unittest.TestCase):
            def setUp(self):
                # mock-partial: made in set-up
                #   untested: app.gates.run_gates: if status == "APPROVED"; made stale on purpose
                patcher = patch("app.gates.read_evidence", return_value="APPROVED", autospec=True)
                patcher.start()
                self.addCleanup(patcher.stop)

            def test_three(self):
                assert gates.run_gates("c")


        @pytest.fixture
        def approving():
            # mock-partial: made by a fixture
            #   untested: app.gates.run_gates: if status == "APPROVED"; made stale on purpose
            with patch("app.gates.read_evidence", return_value="APPROVED", autospec=True) as read:
                yield read


        def test_four(approving):
            assert gates.run_gates("d")


        @pytest.mark.parametrize("name", ["e", "f"])
        # mock-partial: parametrised
        #   untested: app.gates.run_gates: if status == "APPROVED"; made stale on purpose
        @patch("app.gates.read_evidence", return_value="APPROVED", autospec=True)
        def test_five(read, name):
            assert gates.run_gates(name)
        """,
}


def test_blocks_apply_to_class_set_up_fixture_and_parametrised_tests(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {**{k: v for k, v in PROJECT.items() if not k.startswith("tests/")}, **SCOPES})
    _pytest_cov(root, "--cov-branch", "--cov-context=test")
    result = mockpolicy_in_process("branches", cwd=root)
    lines = result.stdout.splitlines()
    stale = [line for line in lines if "stale-untested-branch-doc" in line]
    assert len(stale) == 3, result.stdout + result.stderr
    assert any("TestSetUp::test_three executes it" in line for line in stale)
    assert any("test_four executes it" in line for line in stale)
    assert any("test_five[e]" in line for line in stale)
    assert not any("TestDecorated" in line for line in lines)  # its block is right for both tests


def test_review_reports_coverage_findings_on_the_lines_a_change_adds(project: Path) -> None:
    test_file = project / "tests/test_gates.py"
    text = test_file.read_text()
    block_start = text.index("# mock-partial:")
    block_end = text.index("@patch", block_start)
    test_file.write_text(text[:block_start] + text[block_end:])  # the block arrives in the change
    (project / ".gitignore").write_text(".coverage\n")
    git(project, "init", "-q", "-b", "main")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "before")
    test_file.write_text(text)
    _pytest_cov(project, "--cov-branch", "--cov-context=test")
    result = mockpolicy_in_process("review", "--base", "main", "--data", ".coverage", "--format", "json", cwd=project)
    found = sorted((f["line"], f["symbol"]) for f in json.loads(result.stdout))
    assert result.returncode == 1, result.stderr
    coverage_found = [item for item in found if item in EXPECTED]
    assert coverage_found == [item for item in EXPECTED if item[0] != 12], found  # the mock's own line is old


EDGES = {
    "src/app/files.py": """
        import os


        def describe(path):
            if os.path.exists(path):
                return "present"
            return "absent" if path else "empty"
        """,
    "tests/test_files.py": """
        import os
        from unittest.mock import patch

        from app import files


        # mock-partial: the file is always there
        #   untested: app.files.describe: else os.path.exists(path); absence has its own test
        #   untested: app.files.describe: if path; a conditional expression has no arcs
        #   untested: src/app/files.py:5->7; the same arm, named by its arc
        #   untested: src/app/files.py:5->99; no such arc
        @patch("os.path.exists", return_value=True, autospec=True)
        def test_present(exists):
            assert files.describe("x") == "present"


        def test_absent(tmp_path):
            assert files.describe(str(tmp_path / "nothing")) == "absent"


        # mock-partial: a test that never ran
        #   untested: app.files.describe; not run in this data
        @patch("os.path.exists", return_value=False, autospec=True)
        def test_never_run(exists):
            assert files.describe("y") == "absent"
        """,
}


def test_library_targets_arcs_conditional_expressions_and_tests_not_run(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {**{k: v for k, v in PROJECT.items() if not k.startswith("tests/")}, **EDGES})
    _pytest_cov(root, "--cov-branch", "--cov-context=test", "-k", "not never_run")
    result = mockpolicy_in_process("branches", "--format", "json", cwd=root)
    found = sorted((f["line"], f["symbol"]) for f in json.loads(result.stdout))
    # Only the arc that does not exist is wrong: the else arm and its arc are
    # really untested by test_present, and the conditional expression is not judged.
    assert found == [(11, "unknown-branch-reference")], result.stdout
    assert "test_never_run" in result.stderr and "was not checked against them" in result.stderr
    text = (root / "tests/test_files.py").read_text()
    flipped_text = text.replace('return_value=True, autospec=True)\ndef test_present', 'return_value=False, autospec=True)\ndef test_present')
    (root / "tests/test_files.py").write_text(flipped_text.replace('== "present"', '== "absent"'))
    _pytest_cov(root, "--cov-branch", "--cov-context=test", "-k", "not never_run")
    flipped = sorted((f["line"], f["symbol"]) for f in json.loads(mockpolicy("branches", "--format", "json", cwd=root).stdout))
    assert (8, "stale-untested-branch-doc") in flipped and (10, "stale-untested-branch-doc") in flipped
    assert (12, "undocumented-untested-branch") in flipped  # the if-arm of os.path.exists(path) is never taken now


SHARED_LINE = {
    "src/app/more.py": """
        def other():
            return 1


        def choose(name):
            if name == "one": return "one"
            try:
                return int(name)
            except ValueError: return "value"
            except KeyError:
                return "key"
        """,
    "tests/test_shared.py": """
        from unittest.mock import patch

        from app import gates, more


        def test_two():
            # mock-partial: both mocks of this line
            #   untested: app.gates.run_gates: else status == "APPROVED"; the retry test
            #   untested: app.more.choose: if name == "one"; one-line arms are not judged
            #   untested: app.more.choose: except ValueError; one-line handlers are not judged
            with patch("app.gates.read_evidence", return_value="RETRY", autospec=True), patch("app.more.other", return_value=1, autospec=True):
                assert gates.run_gates("x") is False
                assert more.choose("2") == 2


        def test_undocumented_pair():
            with patch("app.gates.read_evidence", return_value="APPROVED", autospec=True), patch("app.more.other", return_value=2, autospec=True):
                assert gates.run_gates("x")


        def test_inside_a_string():
            with patch("app.more.other", return_value=0), gates.run_gates('''
        ''') and patch("app.gates.read_evidence", return_value="APPROVED"):
                pass
        """,
}


def test_fix_with_shared_lines_crlf_bom_and_strings_keeps_code(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {**{k: v for k, v in PROJECT.items() if not k.startswith("tests/")}, **SHARED_LINE})
    test_file = root / "tests/test_shared.py"
    test_file.write_bytes(b"\xef\xbb\xbf" + test_file.read_bytes().replace(b"\n", b"\r\n"))
    test_file.chmod(0o640)
    _pytest_cov(root, "--cov-branch", "--cov-context=test")
    report = json.loads(mockpolicy_in_process("branches", "--format", "json", cwd=root).stdout)
    stale = [f for f in report if f["symbol"] == "stale-untested-branch-doc"]
    assert [f["line"] for f in stale] == [8]  # the status arm runs; the one-line arms are not judged
    assert len(report) == len({(f["line"], f["symbol"], f["message"]) for f in report})  # no duplicates
    before = test_file.read_bytes()
    fixed = mockpolicy("branches", "--fix", "--add-blocks", cwd=root)
    assert "tests/test_shared.py:17: several mocks share this line, so no block was added" in fixed.stderr
    after = test_file.read_bytes()
    assert after.startswith(b"\xef\xbb\xbf") and b"\n" not in after.replace(b"\r\n", b"")
    assert oct(test_file.stat().st_mode & 0o777) == "0o640"
    code = lambda data: [line for line in data.decode("utf-8-sig").split("\r\n") if not line.lstrip().startswith("#")]  # noqa: E731
    assert code(after) == code(before)
    text = after.decode("utf-8-sig")
    assert "# mock-partial: app.gates.read_evidence" not in text  # a block above the pair would be ambiguous
    assert mockpolicy("branches", "--fix", "--add-blocks", cwd=root).stderr.count("rewrote") == 0
    assert test_file.read_bytes() == after


LATIN_1_TEST = '''# -*- coding: latin-1 -*-
# caf\xe9
from unittest.mock import patch

from app import gates


@patch("app.gates.read_evidence", return_value=RESULT, autospec=True)
def test_NAME(read):
    assert gates.run_gates("y") is OUTCOME
'''


def test_fix_writes_a_file_in_its_declared_encoding_or_not_at_all(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {k: v for k, v in PROJECT.items() if not k.startswith("tests/")})
    latin = root / "tests/test_latin.py"
    latin.parent.mkdir()
    latin.write_bytes(LATIN_1_TEST.replace("RESULT", '"APPROVED"').replace("NAME", "latin").replace("OUTCOME", "True").encode("latin-1"))
    check_mark = root / "tests/test_check_mark.py"  # its new block's summary holds a character latin-1 lacks
    check_mark.write_bytes(
        LATIN_1_TEST.replace("RESULT", '"APPROVED\\u2713"').replace("NAME", "check_mark").replace("OUTCOME", "False").encode("latin-1")
    )
    _pytest_cov(root, "--cov-branch", "--cov-context=test")
    before = latin.read_bytes(), check_mark.read_bytes()
    refused = mockpolicy("branches", "--fix", "--add-blocks", cwd=root)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr, refused.stderr
    assert refused.stderr.startswith("mockpolicy: error: cannot rewrite the '# mock-partial:' blocks of tests/test_check_mark.py")
    assert (latin.read_bytes(), check_mark.read_bytes()) == before  # nothing is written
    check_mark.unlink()
    fixed = mockpolicy("branches", "--fix", "--add-blocks", cwd=root)
    assert "rewrote the '# mock-partial:' blocks of tests/test_latin.py" in fixed.stderr, fixed.stderr
    text = latin.read_bytes().decode("latin-1")
    assert text.startswith("# -*- coding: latin-1 -*-\n# caf\xe9\n")
    assert '# mock-partial: app.gates.read_evidence returns "APPROVED"\n' in text
    code = lambda data: [line for line in data.splitlines() if not line.lstrip().startswith("#")]  # noqa: E731
    assert code(text) == code(before[0].decode("latin-1"))


def test_bad_arc_tables_are_refused_in_one_sentence(tmp_path: Path) -> None:
    for name, arc_table, row in (
        ("columns.db", "CREATE TABLE arc (id INTEGER)", "INSERT INTO arc VALUES (1)"),
        ("values.db", "CREATE TABLE arc (file_id, context_id, fromno, tono)", "INSERT INTO arc VALUES (1, 1, 'x', 2)"),
    ):
        database = sqlite3.connect(tmp_path / name)
        database.executescript(
            "CREATE TABLE meta (key, value); INSERT INTO meta VALUES ('has_arcs', '1');"
            "CREATE TABLE file (id, path); INSERT INTO file VALUES (1, 'src/app/gates.py');"
            "CREATE TABLE context (id, context); INSERT INTO context VALUES (1, 'tests/test_gates.py::test_approved|run');"
            f"{arc_table}; {row};"
        )
        database.commit()
        database.close()
    write_tree(tmp_path, PROJECT)
    for name in ("columns.db", "values.db"):
        result = mockpolicy("branches", "--data", name, cwd=tmp_path)
        assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
        assert result.stderr.startswith(f"mockpolicy: error: {name} ")
    folder = mockpolicy("branches", "--data", "src", cwd=tmp_path)
    assert folder.returncode == 2 and "is a folder" in folder.stderr


def test_data_from_a_moved_checkout_and_relative_files(tmp_path: Path) -> None:
    first = write_tree(tmp_path / "first", PROJECT)
    _pytest_cov(first, "--cov-branch", "--cov-context=test")
    expected = _findings(first, runner=mockpolicy_in_process)
    moved = tmp_path / "moved"
    shutil.copytree(first, moved)
    shutil.rmtree(first)
    assert _findings(moved) == expected
    relative = write_tree(tmp_path / "relative", {**PROJECT, ".coveragerc": "[run]\nrelative_files = true\n"})
    _pytest_cov(relative, "--cov-branch", "--cov-context=test")
    from_tests = mockpolicy_in_process("branches", "--format", "json", "--data", "../.coverage", cwd=relative / "tests")
    assert sorted((f["line"], f["symbol"]) for f in json.loads(from_tests.stdout)) == expected


def test_fix_never_writes_through_a_link(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "project", PROJECT)
    _pytest_cov(root, "--cov-branch", "--cov-context=test")
    outside = tmp_path / "outside.txt"
    outside.write_text("precious\n")
    outside.chmod(0o600)
    test_file = root / "tests/test_gates.py"
    test_file.chmod(0o640)
    planted = root / "tests/test_gates.py.mockpolicy-tmp"  # the name the old --fix wrote to, committed as a link
    planted.symlink_to(outside)
    listing = sorted(path.name for path in test_file.parent.iterdir())
    fixed = mockpolicy_in_process("branches", "--fix", "--add-blocks", cwd=root)
    assert fixed.returncode in (0, 1) and "rewrote" in fixed.stderr, fixed.stderr
    assert outside.read_text() == "precious\n" and oct(outside.stat().st_mode & 0o777) == "0o600"
    assert not test_file.is_symlink() and oct(test_file.stat().st_mode & 0o777) == "0o640"
    assert "# mock-partial: app.gates.read_evidence" in test_file.read_text()
    assert planted.is_symlink() and sorted(path.name for path in test_file.parent.iterdir()) == listing  # no temporary file left
    # A test file that is itself a link is refused: what it points to may lie anywhere.
    shared = write_tree(tmp_path / "shared", {"test_gates.py": PROJECT["tests/test_gates.py"]}) / "test_gates.py"
    test_file.unlink()
    test_file.symlink_to(shared)
    before = shared.read_bytes()
    refused = mockpolicy("branches", "--fix", "--add-blocks", cwd=root)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr, refused.stderr
    assert refused.stderr.startswith(
        "mockpolicy: error: cannot rewrite the '# mock-partial:' blocks of tests/test_gates.py: it is a symbolic link"
    ), refused.stderr
    assert refused.stderr.count("\n") == 1
    assert shared.read_bytes() == before and test_file.is_symlink()


# Text that looks like blocks inside a str, bytes and an f-string literal, each
# ending on the line of a partial mock; and statements starting where no comment
# line may go: on a string's last line and after a backslash continuation.
STRINGS_AND_CONTINUATIONS = r"""from unittest.mock import patch

from app import gates


def test_str_block():
    with patch("app.gates.helper", return_value='''
# mock-partial: inside a str
#   untested: app.gates.run_gates: if status == "APPROVED"
'''), patch("app.gates.read_evidence", return_value="APPROVED", autospec=True):
        assert gates.run_gates("x")
        assert gates.helper("x").count("untested") == 1


def test_bytes_block():
    with patch("app.gates.helper", return_value=b'''
# mock-partial: inside bytes
#   untested: app.gates.run_gates: if status == "APPROVED"
'''), patch("app.gates.read_evidence", return_value="APPROVED", autospec=True):
        assert gates.run_gates("x")
        assert gates.helper("x").count(b"untested") == 1


def test_f_string_block():
    with patch("app.gates.helper", return_value=f'''
# mock-partial: inside an f-string {1}
#   untested: app.gates.run_gates: if status == "APPROVED"
'''), patch("app.gates.read_evidence", return_value="APPROVED", autospec=True):
        assert gates.run_gates("x")
        assert gates.helper("x").count("untested") == 1


def test_after_a_str():
    text = '''
'''; patcher = patch("app.gates.read_evidence", return_value="APPROVED", autospec=True); patcher.start()
    try:
        assert text == "\n" and gates.run_gates("x")
    finally:
        patcher.stop()


def test_after_bytes():
    data = b'''
'''; patcher = patch("app.gates.read_evidence", return_value="APPROVED", autospec=True); patcher.start()
    try:
        assert data == b"\n" and gates.run_gates("x")
    finally:
        patcher.stop()


def test_after_an_f_string():
    text = f'''{0}
'''; patcher = patch("app.gates.read_evidence", return_value="APPROVED", autospec=True); patcher.start()
    try:
        assert text == "0\n" and gates.run_gates("x")
    finally:
        patcher.stop()


def test_after_a_backslash():
    total = 1 + \
        2; patcher = patch("app.gates.read_evidence", return_value="APPROVED", autospec=True); patcher.start()
    try:
        assert total == 3 and gates.run_gates("x")
    finally:
        patcher.stop()


@patch("app.gates.read_evidence", return_value="APPROVED", autospec=True)
def test_plain(read):
    assert gates.run_gates("x")
"""


def _code_tokens(data: bytes) -> list[tuple[int, str]]:
    """The file's tokens, comments and blank or comment-only lines left out."""
    return [
        (token.type, token.string) for token in tokenize.tokenize(io.BytesIO(data).readline)
        if token.type not in (tokenize.COMMENT, tokenize.NL)
    ]


def test_fix_changes_comment_lines_only_never_strings_or_continuations(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {k: v for k, v in PROJECT.items() if not k.startswith("tests/")})
    test_file = root / "tests/test_strings.py"
    test_file.parent.mkdir()
    test_file.write_text(STRINGS_AND_CONTINUATIONS)
    _pytest_cov(root, "--cov-branch", "--cov-context=test")
    in_literals = {number for number, line in enumerate(STRINGS_AND_CONTINUATIONS.splitlines(), 1) if "#   untested" in line}
    report = json.loads(mockpolicy_in_process("branches", "--format", "json", cwd=root).stdout)
    assert not [f for f in report if f["line"] in in_literals or f["line"] - 1 in in_literals], report
    before = test_file.read_bytes()
    fixed = mockpolicy("branches", "--fix", "--add-blocks", cwd=root)
    assert fixed.returncode in (0, 1) and "rewrote the '# mock-partial:' blocks of tests/test_strings.py" in fixed.stderr, fixed.stderr
    after = test_file.read_bytes()
    assert _code_tokens(after) == _code_tokens(before)
    compile(after, str(test_file), "exec")
    text = after.decode()
    assert text.count("# mock-partial: app.gates.read_evidence") == 1  # above test_plain's decorator only
    assert text.index("# mock-partial: app.gates.read_evidence") < text.index('@patch("app.gates.read_evidence"')
    rerun = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_strings.py"], cwd=root)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr


def test_data_older_than_the_source_is_refused(project: Path) -> None:
    _pytest_cov(project, "--cov-branch", "--cov-context=test")
    source = project / "src/app/gates.py"
    test_file = project / "tests/test_gates.py"
    original = source.read_text()
    before = test_file.read_bytes()
    recorded = (project / ".coverage").stat().st_mtime_ns
    # Lines inserted above the branches; the file's time set back before the
    # run, so only the recorded lines tell that they moved.
    moved = original.replace("    status = read_evidence(name)\n", "    status = read_evidence(name)\n    print(status)\n    print(name)\n")
    source.write_text(moved)
    os.utime(source, ns=(recorded - 10**9, recorded - 10**9))
    for runner in (mockpolicy_in_process, mockpolicy):
        refused = runner("branches", "--fix", cwd=project)
        assert refused.returncode == 2 and "Traceback" not in refused.stderr, refused.stderr
        assert refused.stderr.startswith("mockpolicy: error: .coverage is stale: src/app/gates.py "), refused.stderr
        assert refused.stderr.count("\n") == 1
        assert test_file.read_bytes() == before
    # Every line kept where it was, the file changed after the run: its time tells.
    source.write_text(original.replace("return False", "return None"))
    refused = mockpolicy("branches", cwd=project)
    assert refused.returncode == 2 and refused.stderr.startswith("mockpolicy: error: .coverage is stale: src/app/gates.py ")
    # The data of a run of today's source is used again, also in a copy of the
    # checkout whose files are all newer than the data (as in a fresh clone).
    _pytest_cov(project, "--cov-branch", "--cov-context=test")
    assert mockpolicy("branches", cwd=project).returncode == 1
    copy = shutil.copytree(project, project.parent / "copy", copy_function=shutil.copy)
    os.utime(copy / ".coverage", ns=(recorded - 10**9, recorded - 10**9))
    assert _findings(copy) == EXPECTED


OTHER_PROJECT = {
    "pyproject.toml": PROJECT["pyproject.toml"].replace('name = "app"', 'name = "other"'),
    "src/other/__init__.py": "",
    "src/other/core.py": """
        def pick(flag):
            if flag:
                return 1
            return 2
        """,
    "tests/test_core.py": """
        from other import core


        def test_pick():
            assert core.pick(True) == 1
        """,
}


def test_data_that_cannot_judge_this_project_is_an_error(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "app", PROJECT)
    other = write_tree(tmp_path / "other", OTHER_PROJECT)
    result = run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--cov=other", "--cov-branch", "--cov-context=test", "tests"],
        cwd=other,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    test_file = root / "tests/test_gates.py"
    before = test_file.read_bytes()
    for args in (("branches",), ("branches", "--fix")):
        foreign = mockpolicy_in_process(*args, "--data", "../other/.coverage", cwd=root)
        assert foreign.returncode == 2, foreign.stdout + foreign.stderr
        assert foreign.stderr.startswith("mockpolicy: error: ../other/.coverage measures no file of this project"), foreign.stderr
        assert test_file.read_bytes() == before
    _pytest_cov(root, "--cov-branch", "--cov-context=test", "-k", "test_retry")  # none of the mocks' tests runs
    for args in (("branches",), ("branches", "--fix")):
        unrelated = mockpolicy(*args, cwd=root)
        assert unrelated.returncode == 2, unrelated.stdout + unrelated.stderr
        assert unrelated.stderr.startswith("mockpolicy: error: .coverage holds none of the tests"), unrelated.stderr
        assert test_file.read_bytes() == before


def test_coverage_pys_own_test_function_contexts_name_the_tests(project: Path) -> None:
    (project / ".coveragerc").write_text("[run]\ndynamic_context = test_function\n")
    _pytest_cov(project, "--cov-branch")
    assert _findings(project, runner=mockpolicy_in_process) == EXPECTED
    (project / ".coverage").unlink()
    (project / ".coveragerc").write_text("[run]\ncontext = nightly\n")
    _pytest_cov(project, "--cov-branch")
    static = mockpolicy_in_process("branches", cwd=project)
    assert static.returncode == 2
    assert "has 1 context(s) such as 'nightly', none naming a test of the files checked" in static.stderr
    assert 'dynamic_context = \\"test_function\\"' not in static.stderr and 'dynamic_context = "test_function"' in static.stderr


def test_a_run_with_no_blocks_says_how_many_partial_mocks_there_are_and_how_to_start(project: Path) -> None:
    test_file = project / "tests/test_gates.py"
    text = test_file.read_text()
    test_file.write_text(text[: text.index("# mock-partial:")] + text[text.index("@patch"):])
    _pytest_cov(project, "--cov-branch", "--cov-context=test")
    result = mockpolicy_in_process("branches", cwd=project)
    notes = [line for line in result.stderr.splitlines() if "no '# mock-partial:' blocks" in line]
    assert notes == [
        "mockpolicy: no '# mock-partial:' blocks to check; `mockpolicy check` reports 1 partial mock without one "
        "(undocumented-partial-mock): add a block above one (`mockpolicy explain undocumented-partial-mock`), "
        "or write them from this data with `mockpolicy branches --fix --add-blocks`."
    ]
    check = mockpolicy_in_process("check", "--select", "W7314", "--format", "json", "--no-baseline", cwd=project)
    assert len(json.loads(check.stdout)) == 1  # test_approved's is not: test_retry runs run_gates for real


SAME_NAME = {
    "pyproject.toml": PROJECT["pyproject.toml"],
    "src/app/__init__.py": "",
    "src/app/queues.py": """
        class Queue:
            def __init__(self):
                self.items = []

            def get(self):
                return self.items.pop() if self.items else None


        def work():
            queue = Queue()
            if queue.get() is None:
                return "idle"
            return "busy"


        def lookup(table):
            if table.get("key") is None:
                return "missing"
            return "found"
        """,
    "tests/test_queues.py": """
        from unittest.mock import patch

        from app import queues
        from app.queues import Queue


        # mock-partial: the queue always has an item here
        #   untested: app.queues.work: if queue.get() is None; an empty queue is another test's business
        @patch.object(Queue, "get", return_value="job", autospec=True)
        def test_busy(get):
            assert queues.work() == "busy"
            assert queues.lookup({"key": 1}) == "found"
        """,
}


def test_callers_are_found_by_the_object_their_call_resolves_to(tmp_path: Path) -> None:
    """``table.get(...)`` on a dict-like is no call of the mocked ``Queue.get``:
    its arms are not branches the block must list."""
    root = write_tree(tmp_path, SAME_NAME)
    _pytest_cov(root, "--cov-branch", "--cov-context=test")
    result = mockpolicy_in_process("branches", "--format", "json", cwd=root)
    assert result.returncode in (0, 1), result.stderr
    findings = json.loads(result.stdout)
    assert [f["message"] for f in findings if "lookup" in f["message"]] == []
    assert [(f["line"], f["symbol"]) for f in findings] == [(8, "uncovered-documented-branch")]  # no test empties it


REPEATED = {
    "pyproject.toml": PROJECT["pyproject.toml"],
    "src/app/__init__.py": "",
    "src/app/picks.py": """
        def read():
            return "A" if len(__name__) > 100 else "B"


        def pick():
            status = read()
            if status == "A":
                first = 1
            else:
                first = 2
            status = "B"
            if status == "A":
                second = 1
            else:
                second = 2
            if read() == "C":
                return 0
            return first + second
        """,
    "tests/test_picks.py": """
        from unittest.mock import patch

        from app import picks


        # mock-partial: read always says "A"
        #   untested: app.picks.pick: if read() == "C"; no C in this test
        @patch("app.picks.read", return_value="A", autospec=True)
        def test_pick(read):
            assert picks.pick() == 3
        """,
}


def test_fix_is_idempotent_on_repeated_condition_text_and_never_writes_both_arms(tmp_path: Path) -> None:
    """``status == "A"`` appears twice: the first occurrence takes only its if-arm,
    the second only its else-arm. An entry names both occurrences by text, so
    neither arm is missing, and ``--fix`` writes neither (before, it wrote both
    arms and dropped them as stale on the next run, for ever)."""
    root = write_tree(tmp_path, REPEATED)
    _pytest_cov(root, "--cov-branch", "--cov-context=test")
    test_file = root / "tests/test_picks.py"
    before = test_file.read_text()
    assert _findings(root, runner=mockpolicy_in_process) == [(7, "uncovered-documented-branch")]  # no test says C
    for _ in range(2):
        fixed = mockpolicy_in_process("branches", "--fix", cwd=root)
        assert fixed.returncode == 1, fixed.stdout + fixed.stderr  # the uncovered entry stays reported
        assert test_file.read_text() == before


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({}, 88),
        ({"pyproject.toml": "[tool.ruff]\nline-length = 100\n[tool.black]\nline-length = 70\n"}, 100),
        ({"pyproject.toml": "[tool.black]\nline-length = 70\n"}, 70),
        ({"ruff.toml": "line-length = 90\n", "pyproject.toml": "[tool.black]\nline-length = 70\n"}, 90),
        ({"setup.cfg": "[flake8]\nmax-line-length = 79\n"}, 79),
        ({".pylintrc": "[FORMAT]\nmax-line-length = 110\n"}, 110),
        ({"pyproject.toml": "[tool.pylint.format]\nmax-line-length = 99\n"}, 99),
        ({"pyproject.toml": "[tool.ruff]\nline-length = 'long'\n", "tox.ini": "[flake8]\nmax-line-length = x\n"}, 88),
        ({"pyproject.toml": "not toml ["}, 88),
    ],
)
def test_the_line_length_comes_from_the_projects_formatter_or_linter(
    tmp_path: Path, files: dict[str, str], expected: int
) -> None:
    from mockpolicy.branches.linelength import line_length

    for name, text in files.items():
        (tmp_path / name).write_text(text)
    assert line_length(tmp_path) == expected


def test_fix_wraps_the_lines_it_writes_to_the_configured_length(project: Path) -> None:
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "\n[tool.ruff]\nline-length = 60\n")
    _pytest_cov(project, "--cov-branch", "--cov-context=test")
    test_file = project / "tests/test_gates.py"
    before = test_file.read_text().splitlines()
    mockpolicy_in_process("branches", "--fix", "--add-blocks", cwd=project)
    after = test_file.read_text().splitlines()
    new = [line for line in after if line not in before]
    assert new and all(len(line) <= 60 for line in new if line.lstrip().startswith("#   "))
    assert '#     "APPROVED"; <say why this stays untested>' in after  # a continuation line
    check = mockpolicy_in_process("check", "--format", "json", "--select", "W7315", "--no-baseline", cwd=project)
    messages = [f["message"] for f in json.loads(check.stdout)]
    assert messages and all("gives no reason" in m or "not a function" in m or "has no" in m for m in messages)
    second = mockpolicy_in_process("branches", "--fix", "--add-blocks", cwd=project)
    assert "rewrote" not in second.stderr  # the wrapped entries are read back as the same entries


PRE_PATCH = {
    "pyproject.toml": PROJECT["pyproject.toml"] + "\n[tool.ruff]\nline-length = 120\n",
    "src/app/__init__.py": "",
    "src/app/lights.py": """
        def read():
            return "green" if len(__name__) < 100 else "red"


        def signal():
            if read() == "green":
                return "go"
            return "stop"


        class Crossing:
            def __init__(self):
                self.first = signal()


        def unused(flag):
            if flag:
                return 1
            return 2
        """,
    "tests/test_lights.py": """
        import unittest
        from unittest.mock import patch

        from app import lights


        class TestMadeInSetUp(unittest.TestCase):
            def setUp(self):
                self.crossing = lights.Crossing()

            # mock-partial: red
            #   untested: app.lights.unused; no test calls it
            @patch("app.lights.read", return_value="red", autospec=True)
            def test_setup_ran_it(self, read):
                assert self.crossing.first == "go"


        class TestStartedLateInSetUp(unittest.TestCase):
            def setUp(self):
                self.crossing = lights.Crossing()
                # mock-partial: red
                #   untested: app.lights.unused; no test calls it
                patcher = patch("app.lights.read", return_value="red", autospec=True)
                patcher.start()
                self.addCleanup(patcher.stop)

            def test_setup_ran_it_first(self):
                assert self.crossing.first == "go"


        class TestStartedFirstInSetUp(unittest.TestCase):
            def setUp(self):
                # mock-partial: green
                #   untested: app.lights.unused; no test calls it
                patcher = patch("app.lights.read", return_value="green", autospec=True)
                patcher.start()
                self.addCleanup(patcher.stop)
                self.crossing = lights.Crossing()

            def test_patched_set_up(self):
                assert self.crossing.first == "go"


        def test_before_the_with_block():
            crossing = lights.Crossing()
            # mock-partial: red
            #   untested: app.lights.unused; no test calls it
            with patch("app.lights.read", return_value="red", autospec=True):
                assert crossing.first == "go"


        def test_before_start():
            crossing = lights.Crossing()
            # mock-partial: red
            #   untested: app.lights.unused; no test calls it
            patcher = patch("app.lights.read", return_value="red", autospec=True)
            patcher.start()
            try:
                assert crossing.first == "go"
            finally:
                patcher.stop()


        def test_under_the_patch():
            # mock-partial: green
            #   untested: app.lights.unused; no test calls it
            with patch("app.lights.read", return_value="green", autospec=True):
                assert lights.signal() == "go"
        """,
}


def test_a_condition_evaluated_before_the_patch_starts_does_not_depend_on_the_mock(tmp_path: Path) -> None:
    """Each ``red`` mock's test evaluates ``read() == "green"`` only with the real
    ``read`` (in ``setUp``, before ``start()``, before the ``with`` block), so the
    else-arm it never takes says nothing about the mock: no W7319, and ``--fix``
    writes no entry. The ``green`` mocks evaluate it under the patch: their
    untaken else-arm is inferred and written."""
    root = write_tree(tmp_path, PRE_PATCH)
    _pytest_cov(root, "--cov-branch", "--cov-context=test")
    result = mockpolicy_in_process("branches", "--format", "json", cwd=root)
    assert result.returncode == 1, result.stderr
    inferred = sorted(f["line"] for f in json.loads(result.stdout) if f["symbol"] == "undocumented-untested-branch")
    assert inferred == [35, 67]  # the patched set-up and the test under the patch
    assert result.stderr.count("not inferred as untested") == 4
    assert "tests/test_lights.py:13: 1 arm of conditions depending on the mock is never taken" in result.stderr
    assert "untested: setUp runs project code without the patch" in result.stderr
    assert "tests/test_lights.py:48: 1 arm" in result.stderr and "the test outside the patch runs" in result.stderr
    mockpolicy_in_process("branches", "--fix", cwd=root)
    text = (root / "tests/test_lights.py").read_text()
    assert text.count('#   untested: app.lights.signal: else read() == "green"; <say why this stays untested>') == 2
