"""``mockpolicy review`` on real git repositories in temporary folders: the
installed command where a repository is reviewed more than once, else
``mockpolicy.cli.main`` in this process."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from conftest import git, mockpolicy, mockpolicy_in_process, write_tree

LEGACY = """
    from unittest import mock


    def test_legacy():
        with mock.patch("app.jobs.run", autospec=True):
            pass
    """
ADDED = """

    def test_added():
        with mock.patch("app.jobs.Runner.claim", autospec=True):
            pass
    """


@pytest.fixture
def repo(app_project: Path) -> Path:
    """A repository whose main branch has one legacy finding, baselined, and a
    feature branch checked out."""
    write_tree(app_project, {"tests/test_jobs.py": LEGACY})
    assert mockpolicy("baseline", cwd=app_project).returncode == 0
    git(app_project, "init", "-q", "-b", "main")
    git(app_project, "add", "-A")
    git(app_project, "commit", "-qm", "legacy")
    git(app_project, "checkout", "-qb", "feature")
    return app_project


def append(repo: Path, relative: str, text: str, message: str = "change") -> None:
    with (repo / relative).open("a", encoding="utf-8") as handle:
        handle.write(textwrap.dedent(text))
    git(repo, "commit", "-qam", message)


def symbols_and_lines(stdout: str) -> list[tuple[str, int]]:
    return [(f["symbol"], f["line"]) for f in json.loads(stdout)]


def test_only_new_findings_on_added_lines(repo: Path) -> None:
    git(repo, "rm", "-q", "baselines/mockpolicy.json")
    git(repo, "commit", "-qm", "drop the baseline")  # the legacy finding is now new, but on an old line
    append(repo, "tests/test_jobs.py", ADDED)
    result = mockpolicy("review", "--base", "main", "--format", "json", cwd=repo)
    assert result.returncode == 1, result.stderr
    assert symbols_and_lines(result.stdout) == [("first-party-mock", 10)]
    everything = mockpolicy("review", "--base", "main", "--format", "json", "--filter", "nofilter", cwd=repo)
    assert symbols_and_lines(everything.stdout) == [("first-party-mock", 5), ("first-party-mock", 10)]


def test_filters_follow_reviewdogs_names(repo: Path) -> None:
    mock_line = "    with mock.patch('app.jobs.run', autospec=True):\n        pass\n"
    padding = "".join(f"\n\ndef test_{n}():\n    pass\n" for n in range(6))
    write_tree(repo, {
        "tests/test_jobs.py": "from unittest import mock\n\n\ndef test_near():\n" + mock_line + padding
                              + "\n\ndef test_far():\n" + mock_line,
        "tests/test_untouched.py": "from unittest import mock\n\n\ndef test_untouched():\n" + mock_line,
    })
    git(repo, "rm", "-q", "baselines/mockpolicy.json")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "findings nobody baselined")
    git(repo, "branch", "-f", "main", "HEAD")
    source = (repo / "tests/test_jobs.py").read_text().replace("        pass\n", "        pass\n    assert True\n", 1)
    write_tree(repo, {"tests/test_jobs.py": source, "tests/test_other.py": "from unittest import mock\n\n\ndef test_other():\n" + mock_line})
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "change")

    def found(mode: str) -> list[tuple[str, int]]:
        result = mockpolicy("review", "--base", "main", "--format", "json", "--filter", mode, cwd=repo)
        return [(f["path"], f["line"]) for f in json.loads(result.stdout)]

    far = len(source.splitlines()) - 1
    assert found("added") == [("tests/test_other.py", 5)]
    assert found("diff_context") == [("tests/test_jobs.py", 5), ("tests/test_other.py", 5)]
    assert found("file") == [("tests/test_jobs.py", 5), ("tests/test_jobs.py", far), ("tests/test_other.py", 5)]
    assert found("nofilter") == [*found("file"), ("tests/test_untouched.py", 5)]


def test_a_baselined_finding_is_not_reported(repo: Path) -> None:
    append(repo, "tests/test_jobs.py", ADDED)
    assert mockpolicy("baseline", "--force", cwd=repo).returncode == 0  # grandfather the new one too
    result = mockpolicy_in_process("review", "--base", "main", "--format", "json", cwd=repo)
    assert result.returncode == 1
    [grew] = json.loads(result.stdout)
    assert grew["symbol"] == "baseline-grew" and grew["message_id"] == "W7321"
    assert grew["path"] == "baselines/mockpolicy.json"
    baseline_lines = (repo / "baselines/mockpolicy.json").read_text().splitlines()
    assert baseline_lines[grew["line"] - 1].endswith('{"first-party-mock": 1}, "mock.patch(\\"app.jobs.Runner.claim\\", autospec=True)"]')
    assert "first-party-mock in tests/test_jobs.py (test_added) 0 -> 1" in grew["message"]
    assert 'mock.patch("app.jobs.Runner.claim", autospec=True)' in grew["message"]


def test_a_clean_change_exits_zero(repo: Path) -> None:
    append(repo, "tests/test_jobs.py", "\n\ndef test_plain():\n    assert 1\n")
    result = mockpolicy_in_process("review", "--base", "main", cwd=repo)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_project_in_a_subfolder_of_the_repository(tmp_path: Path, repo: Path) -> None:
    outer = tmp_path / "outer"
    outer.mkdir()
    git(outer, "init", "-q", "-b", "main")
    write_tree(outer / "svc", {"pyproject.toml": "[project]\nname = 'app'\nversion = '0'\n", "src/app/__init__.py": "",
                               "src/app/jobs.py": "def run():\n    return 1\n", "tests/test_jobs.py": "X = 1\n"})
    git(outer, "add", "-A")
    git(outer, "commit", "-qm", "init")
    append(outer, "svc/tests/test_jobs.py",
           "\nfrom unittest import mock\n\ndef test_x():\n    with mock.patch('app.jobs.run', autospec=True):\n        pass\n")
    result = mockpolicy_in_process("review", "--base", "HEAD~1", "--format", "json", cwd=outer / "svc")
    assert symbols_and_lines(result.stdout) == [("first-party-mock", 6)]
    assert json.loads(result.stdout)[0]["path"] == "tests/test_jobs.py"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--base", "no-such-ref"], "mockpolicy: error: 'no-such-ref' is not a commit in "),
        (["--base", "main", "--data", "coverage.json"], "mockpolicy: error: coverage.json does not exist; create it with"),
        (["--base", "main", "--post", "github"], "mockpolicy: error: --post and --pr go together"),
        (["--base", "main", "--pr", "3"], "mockpolicy: error: --post and --pr go together"),
        (["--base", "main", "--post", "github", "--pr", "abc"], "expected a pull request number, got 'abc'"),
        (["--base", "main", "--post", "github", "--pr", "0"], "expected a pull request number, got '0'"),
        (["--base", "main", "--filter", "lines"], "invalid choice: 'lines'"),
        ([], "the following arguments are required: --base"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_two(repo: Path, args: list[str], message: str) -> None:
    result = mockpolicy_in_process("review", *args, cwd=repo)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_not_a_git_repository(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": LEGACY})
    result = mockpolicy_in_process("review", "--base", "main", cwd=app_project)
    assert result.returncode == 2
    assert result.stderr.strip() == f"mockpolicy: error: {app_project} is not inside a git repository."


@pytest.mark.parametrize("mode", ["added", "diff_context", "file", "nofilter"])
@pytest.mark.parametrize(
    ("edit", "grew"),
    [
        (("app.jobs.run", "app.jobs.Runner.claim"), "first-party-mock in tests/test_jobs.py (test_legacy) 0 -> 1"),
        (("        pass\n", "        pass\n    with mock.patch(\"app.jobs.run\", autospec=True):\n        pass\n"),
         "first-party-mock in tests/test_jobs.py (test_legacy) 1 -> 2"),
    ],
    ids=["entry-replaced", "count-raised"],
)
def test_a_baseline_grown_in_place_is_reported_under_every_filter(
    repo: Path, mode: str, edit: tuple[str, str], grew: str
) -> None:
    source = (repo / "tests/test_jobs.py").read_text()
    (repo / "tests/test_jobs.py").write_text(source.replace(*edit))
    assert mockpolicy_in_process("baseline", "--force", cwd=repo).returncode == 0
    git(repo, "commit", "-qam", "grow the baseline in place")
    result = mockpolicy_in_process("review", "--base", "main", "--format", "json", "--filter", mode, cwd=repo)
    assert result.returncode == 1, result.stderr
    [finding] = json.loads(result.stdout)
    assert finding["symbol"] == "baseline-grew" and grew in finding["message"]


def test_a_format_1_entry_replaced_in_place_is_reported(app_project: Path) -> None:
    """Only the fingerprint line changes: the entry's ``count`` line, where the
    finding sits, is not an added line, and the finding is reported anyway."""
    from mockpolicy.identity import token_fingerprint

    write_tree(app_project, {"tests/test_jobs.py": LEGACY})
    entry = {"count": 1, "excerpt": "x", "fingerprint": token_fingerprint('mock.patch("app.jobs.run", autospec=True)'),
             "path": "tests/test_jobs.py", "rule": "first-party-mock", "scope": "test_legacy"}
    old = json.dumps({"entries": [entry], "format": 1}, indent=2, sort_keys=True) + "\n"  # as mockpolicy 0.1 wrote it
    write_tree(app_project, {"baselines/mockpolicy.json": old})
    git(app_project, "init", "-q", "-b", "main")
    git(app_project, "add", "-A")
    git(app_project, "commit", "-qm", "legacy")
    assert mockpolicy_in_process("check", cwd=app_project).returncode == 0
    git(app_project, "checkout", "-qb", "feature")
    (app_project / "baselines/mockpolicy.json").write_text(old.replace(entry["fingerprint"], "0123456789abcdef"))
    git(app_project, "commit", "-qam", "an entry replaced in place")
    result = mockpolicy_in_process("review", "--base", "main", "--format", "json", cwd=app_project)
    [finding] = json.loads(result.stdout)
    assert finding["symbol"] == "baseline-grew" and "(test_legacy) 0 -> 1" in finding["message"]
    assert finding["line"] == old.splitlines().index('      "count": 1,') + 1


def test_baseline_grew_points_at_its_line_past_unicode_line_separators(repo: Path) -> None:
    """Characters ``str.splitlines`` breaks at but JSON allows raw in a string
    (U+2028, U+2029, U+0085) do not move the line of ``baseline-grew``."""
    append(repo, "tests/test_jobs.py", ADDED.replace("test_added", "test_zzz"))
    assert mockpolicy("baseline", "--force", cwd=repo).returncode == 0
    path = repo / "baselines/mockpolicy.json"
    text = path.read_text(encoding="utf-8").replace('autospec=True)"', 'autospec=True)\u2028\u2029\x85"', 1)
    path.write_text(text, encoding="utf-8")  # the pull request's own baseline: still JSON
    git(repo, "commit", "-qam", "an excerpt with separators")
    result = mockpolicy_in_process("review", "--base", "main", "--format", "json", cwd=repo)
    [grew] = json.loads(result.stdout)
    lines = text.split("\n")
    assert lines[grew["line"] - 2] == '      "test_zzz": ['
    assert lines[grew["line"] - 1].endswith('{"first-party-mock": 1}, "mock.patch(\\"app.jobs.Runner.claim\\", autospec=True)"]')
    assert "\u2028" in text.split("\n")[grew["line"] - 4]  # in test_legacy's line, above


def test_a_change_to_a_file_that_is_not_utf8_is_reviewed(repo: Path) -> None:
    """git's diff holds a file's bytes as they are: a Latin-1 file (with its
    coding cookie) is reviewed, not a UnicodeDecodeError."""
    (repo / "tests/test_latin.py").write_bytes(
        b"# -*- coding: latin-1 -*-\nfrom unittest import mock\n\n\ndef test_caf():\n"
        b"    with mock.patch('app.jobs.run', autospec=True):  # caf\xe9\n        pass\n"
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "latin-1")
    result = mockpolicy_in_process("review", "--base", "main", "--format", "json", cwd=repo)
    assert result.returncode == 1, result.stderr
    assert [(f["path"], f["line"]) for f in json.loads(result.stdout)] == [("tests/test_latin.py", 6)]
