"""The ratcheting baseline, in real git repositories in temporary folders. A
test's first run may call ``mockpolicy.cli.main`` in this process; the runs
after it on the same repository use the installed command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import baseline_entries, git, mockpolicy, mockpolicy_in_process, pylint, write_tree

BASELINE = "baselines/mockpolicy.json"
LEGACY = """
    from unittest import mock


    class TestJobs:
        def test_claim(self):
            with mock.patch("app.jobs.Runner.claim", autospec=True):
                pass

        def test_twice(self):
            with mock.patch("app.jobs.run", autospec=True):
                pass
            with mock.patch("app.jobs.run", autospec=True):
                pass
    """


@pytest.fixture
def repo(app_project: Path) -> Path:
    write_tree(app_project, {"tests/test_jobs.py": LEGACY})
    git(app_project, "init", "-q", "-b", "main")
    git(app_project, "add", "-A")
    git(app_project, "commit", "-qm", "legacy suite")
    return app_project


def record(repo: Path) -> dict[str, object]:
    """Record the baseline: the first run on ``repo``, so in this process."""
    result = mockpolicy_in_process("baseline", cwd=repo)
    assert result.returncode == 0, result.stderr
    assert "recorded 3 finding(s) in 2 entries" in result.stdout
    return dict(json.loads((repo / BASELINE).read_text()))


def test_adopt_then_check_is_clean(repo: Path) -> None:
    data = record(repo)
    assert data["format"] == 2
    assert baseline_entries(repo / BASELINE) == [
        ("tests/test_jobs.py", "TestJobs.test_claim", "first-party-mock", 1),
        ("tests/test_jobs.py", "TestJobs.test_twice", "first-party-mock", 2),
    ]
    lines = (repo / BASELINE).read_text().splitlines()
    assert lines[:5] == ["{", '  "format": 2,', '  "files": {', '    "tests/test_jobs.py": {', '      "TestJobs.test_claim": [']
    assert lines[5].startswith('        ["') and lines[5].endswith(
        '", {"first-party-mock": 1}, "mock.patch(\\"app.jobs.Runner.claim\\", autospec=True)"]'
    )
    assert "line" not in (repo / BASELINE).read_text()
    result = mockpolicy("check", "-q", cwd=repo)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    assert mockpolicy("check", "--no-baseline", cwd=repo).stdout.count("first-party-mock") == 3


def test_recording_is_byte_identical_and_refuses_to_overwrite(repo: Path) -> None:
    record(repo)
    first = (repo / BASELINE).read_bytes()
    refused = mockpolicy("baseline", cwd=repo)
    assert refused.returncode == 2
    assert refused.stderr.strip() == (
        f"mockpolicy: error: {BASELINE} already exists; use --force to replace it, or `mockpolicy prune` to shrink it."
    )
    assert mockpolicy("baseline", "--force", "-j", "2", cwd=repo).returncode == 0
    assert (repo / BASELINE).read_bytes() == first


def test_moving_and_reformatting_code_keeps_entries_matched(repo: Path) -> None:
    record(repo)
    moved = LEGACY.replace(
        "class TestJobs:", "HELPER = 1\n\n\n    # a comment that shifts every line\n    class TestJobs:"
    ).replace(
        'with mock.patch("app.jobs.Runner.claim", autospec=True):',
        'with mock.patch(\n                "app.jobs.Runner.claim",  # reformatted\n                autospec = True\n            ):',
    )
    write_tree(repo, {"tests/test_jobs.py": moved})
    result = mockpolicy("check", "-q", cwd=repo)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_a_new_violation_fails_and_a_changed_mock_is_new(repo: Path) -> None:
    record(repo)
    changed = LEGACY.replace('"app.jobs.Runner.claim"', '"app.jobs.Runner"')
    write_tree(repo, {"tests/test_jobs.py": changed + """

    def test_new():
        with mock.patch("app.jobs.run", autospec=True):
            pass
    """})
    result = mockpolicy("check", "-q", cwd=repo)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert [line.split(": ")[1].split()[0] for line in lines] == ["first-party-mock", "first-party-mock"]
    assert "'app.jobs.Runner'" in lines[0] and "'app.jobs.run'" in lines[1]
    assert "stale: first-party-mock in tests/test_jobs.py (TestJobs.test_claim)" in result.stderr
    assert "run `mockpolicy prune`" in result.stderr


def test_a_third_identical_mock_is_not_covered_by_a_count_of_two(repo: Path) -> None:
    record(repo)
    write_tree(repo, {"tests/test_jobs.py": LEGACY + """
            with mock.patch("app.jobs.run", autospec=True):
                pass
    """})
    result = mockpolicy("check", cwd=repo)
    assert result.returncode == 1
    assert result.stdout.startswith("tests/test_jobs.py:15:")


def test_fixing_one_makes_it_stale_and_prune_shrinks(repo: Path) -> None:
    record(repo)
    fixed = LEGACY.replace(
        '            with mock.patch("app.jobs.run", autospec=True):\n                pass\n'
        '            with mock.patch("app.jobs.run", autospec=True):',
        '            with mock.patch("app.jobs.run", autospec=True):',
    )
    assert fixed != LEGACY
    write_tree(repo, {"tests/test_jobs.py": fixed})
    stale = mockpolicy("check", cwd=repo)
    assert (stale.returncode, stale.stdout) == (1, "No findings in 1 file checked (2 baselined, 1 stale).\n")
    assert "allowed 2 time(s) but found 1" in stale.stderr
    assert mockpolicy("check", "--allow-stale", cwd=repo).returncode == 0
    pruned = mockpolicy("prune", cwd=repo)
    assert pruned.returncode == 0
    assert "lowered 2 -> 1: first-party-mock in tests/test_jobs.py (TestJobs.test_twice)" in pruned.stdout
    assert mockpolicy("check", cwd=repo).returncode == 0
    again = mockpolicy("prune", cwd=repo)
    assert (again.returncode, again.stdout.strip()) == (0, f"{BASELINE}: nothing to prune.")


def test_prune_never_adds(repo: Path) -> None:
    record(repo)
    before = (repo / BASELINE).read_bytes()
    write_tree(repo, {"tests/test_more.py": LEGACY})
    assert mockpolicy("prune", cwd=repo).returncode == 0
    assert (repo / BASELINE).read_bytes() == before


def test_deleted_test_file_makes_its_entries_stale(repo: Path) -> None:
    record(repo)
    (repo / "tests" / "test_jobs.py").unlink()
    assert mockpolicy("check", cwd=repo).returncode == 1
    pruned = mockpolicy("prune", cwd=repo)
    assert pruned.stdout.count("removed:") == 2
    assert json.loads((repo / BASELINE).read_text()) == {"format": 2, "files": {}}


def test_checking_one_file_does_not_call_the_others_stale(repo: Path) -> None:
    write_tree(repo, {"tests/test_other.py": "def test_nothing():\n    assert True\n"})
    record(repo)
    result = mockpolicy("check", "tests/test_other.py", cwd=repo)
    assert (result.returncode, result.stderr) == (0, "")


def test_ratchet_against_the_main_branch(repo: Path) -> None:
    record(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt mockpolicy")
    git(repo, "checkout", "-qb", "feature")
    write_tree(repo, {"tests/test_jobs.py": LEGACY + """

    def test_new():
        with mock.patch("app.jobs.Runner.claim", autospec=True):
            pass
    """})
    assert mockpolicy("baseline", "--force", cwd=repo).returncode == 0
    assert mockpolicy("check", cwd=repo).returncode == 0
    ratchet = mockpolicy("check", "--base", "main", cwd=repo)
    assert ratchet.returncode == 1
    assert f"{BASELINE}: grew against main: first-party-mock in tests/test_jobs.py (test_new) allowed 1 time(s), was 0" in ratchet.stderr
    git(repo, "checkout", "-q", "--", BASELINE)
    write_tree(repo, {"tests/test_jobs.py": LEGACY})
    assert mockpolicy("check", "--base", "main", cwd=repo).returncode == 0
    missing = mockpolicy("check", "--base", "no-such-branch", cwd=repo)
    assert missing.returncode == 2
    assert "'no-such-branch' is not a commit" in missing.stderr


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("{", "not valid JSON"),
        ('{"format": 99, "entries": []}', "unsupported baseline format 99 (this mockpolicy reads 1 and 2)"),
        ('{"format": 1, "entries": [{"rule": "first-party-mock"}]}', "entry 1 has no valid 'path'"),
        ('[]', "not a mockpolicy baseline"),
        ('{"format": 2, "entries": []}', "format 2 expects a 'files' object"),
        ('{"format": 2, "files": {"t.py": {"": [["a1", {"first-party-mock": 0}, "x"]]}}}', "entry 1 ('t.py', '') has a count below 1"),
        ('{"format": 2, "files": {"t.py": {"": [["a1", {}, "x"]]}}}', "has no rules with counts"),
        ('{"format": 2, "files": {"t.py": {"": [["a1", {"r": 1}]]}}}', "is not [fingerprint, {rule: count}, excerpt]"),
        ('{"format": 2, "files": {"t.py": {"": [["a1", {"r": 1}, "x"], ["a1", {"r": 2}, "y"]]}}}', "entry 2 repeats"),
        ('{"format": 2, "files": {"t.py": {}, "t.py": {}}}', "the key 't.py' appears twice"),
    ],
)
def test_a_broken_baseline_is_an_error_and_is_never_overwritten(repo: Path, text: str, problem: str) -> None:
    (repo / "baselines").mkdir()
    (repo / BASELINE).write_text(text)
    for command in (["check"], ["prune"], ["baseline", "--force"]):
        result = mockpolicy(*command, cwd=repo)
        assert result.returncode == 2, command
        assert result.stderr.startswith(f"mockpolicy: error: {repo / BASELINE}: ")
        assert problem in result.stderr
        assert (repo / BASELINE).read_text() == text


def test_prune_without_a_baseline_says_how_to_make_one(repo: Path) -> None:
    result = mockpolicy_in_process("prune", cwd=repo)
    assert result.returncode == 2
    assert "create it with `mockpolicy baseline`" in result.stderr


def test_configured_baseline_path(repo: Path) -> None:
    with (repo / "pyproject.toml").open("a") as handle:
        handle.write("\n[tool.mockpolicy]\nbaseline = 'ci/allowed.json'\n")
    assert mockpolicy_in_process("baseline", cwd=repo).returncode == 0
    assert (repo / "ci" / "allowed.json").is_file() and not (repo / BASELINE).exists()
    assert mockpolicy("check", cwd=repo).returncode == 0


def test_output_is_identical_across_runs_and_jobs(repo: Path) -> None:
    write_tree(repo, {f"tests/test_copy_{n}.py": LEGACY for n in range(8)})
    outputs = {mockpolicy("check", "--format", "json", "-j", jobs, cwd=repo).stdout for jobs in ("1", "2", "1", "2")}
    assert len(outputs) == 1
    baselines = set()
    for jobs in ("1", "2"):
        assert mockpolicy("baseline", "--force", "-j", jobs, cwd=repo).returncode == 0
        baselines.add((repo / BASELINE).read_bytes())
    assert len(baselines) == 1


def test_pylint_applies_the_baseline_under_two_jobs(repo: Path) -> None:
    record(repo)
    write_tree(repo, {"tests/test_new.py": """
        from unittest import mock


        def test_new():
            with mock.patch("app.jobs.run", autospec=True):
                pass
        """})
    for jobs in ("1", "2"):
        result = pylint("--disable=all", "--enable=mockpolicy", "--output-format=json2", "-j", jobs, "tests", cwd=repo)
        messages = json.loads(result.stdout)["messages"]
        assert [(m["path"], m["line"], m["symbol"]) for m in messages] == [("tests/test_new.py", 5, "first-party-mock")]


def test_pylint_reports_a_broken_baseline_and_filters_nothing(repo: Path) -> None:
    (repo / "baselines").mkdir()
    (repo / BASELINE).write_text("{oops")
    result = pylint("--disable=all", "--enable=mockpolicy", "--output-format=json2", "tests", cwd=repo)
    symbols = sorted(m["symbol"] for m in json.loads(result.stdout)["messages"])
    assert symbols == ["first-party-mock"] * 3 + ["mock-analysis-error"]
