"""The baseline survives what teams do to whole suites: a formatter run, files
renamed in git, tests renamed or moved, the file of the previous release, and
two branches that each fix and prune something. Real git repositories in
temporary folders, real formatters (ruff format; black when installed)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from conftest import baseline_entries, executable, git, mockpolicy_in_process, run, write_tree

BASELINE = "baselines/mockpolicy.json"
SUITE = "tests/test_jobs.py"
# Written the way people write before a formatter: single quotes, spaces around
# keyword equals, a call split by hand, a parenthesised target.
LEGACY = """
    import os
    from unittest import mock


    class TestJobs:
        def test_claim(self):
            with mock.patch('app.jobs.Runner.claim', autospec = True):
                pass

        def test_twice(self):
            with mock.patch('app.jobs.run',
                            autospec=True):
                pass
            with mock.patch(('app.jobs.run'), autospec=True):
                pass

        @mock.patch('app.jobs.run', new=mock.Mock(return_value=None, name='a run that returns at once'))
        def test_sleep(self):
            pass


    def test_mode():
        os.environ['APP_MODE'] = 'test'
    """
# The same suite as black or ruff format would leave it: double quotes, magic
# trailing commas, calls exploded one argument a line, split calls joined.
FORMATTED = """
    import os
    from unittest import mock


    class TestJobs:
        def test_claim(self):
            with mock.patch("app.jobs.Runner.claim", autospec=True):
                pass

        def test_twice(self):
            with mock.patch("app.jobs.run", autospec=True):
                pass
            with mock.patch(
                "app.jobs.run",
                autospec=True,
            ):
                pass

        @mock.patch(
            "app.jobs.run",
            new=mock.Mock(
                return_value=None,
                name="a run that returns at once",
            ),
        )
        def test_sleep(self):
            pass


    def test_mode():
        os.environ["APP_MODE"] = "test"
    """
ENTRIES = [
    (SUITE, "TestJobs.test_claim", "first-party-mock", 1),
    (SUITE, "TestJobs.test_sleep", "first-party-mock", 1),
    (SUITE, "TestJobs.test_twice", "first-party-mock", 2),
    (SUITE, "test_mode", "unrestored-environ-mutation", 1),
]


# The suite's one spec-less double (test_sleep's new=Mock(...)) is beside the
# point here: these tests follow the first-party and environ entries.
PYPROJECT = """
    [project]
    name = "app"
    version = "0"

    [tool.mockpolicy]
    require-spec = "off"
    """


def mockpolicy(*args: str, cwd: Path) -> tuple[int, str, str]:
    result = mockpolicy_in_process(*args, cwd=cwd)
    return result.returncode, result.stdout, result.stderr


def clean(*args: str, cwd: Path) -> None:
    """``mockpolicy ARGS -q`` exits 0 and says nothing: nothing new, nothing stale, nothing grew."""
    assert mockpolicy(*args, "-q", cwd=cwd) == (0, "", ""), args


@pytest.fixture
def repo(app_project: Path) -> Path:
    """The legacy suite, baselined and committed on main."""
    write_tree(app_project, {SUITE: LEGACY, "pyproject.toml": PYPROJECT})
    code, out, _ = mockpolicy("baseline", cwd=app_project)
    assert code == 0 and "recorded 5 finding(s) in 4 entries" in out
    assert baseline_entries(app_project / BASELINE) == ENTRIES
    git(app_project, "init", "-q", "-b", "main")
    git(app_project, "add", "-A")
    git(app_project, "commit", "-qm", "adopt mockpolicy")
    return app_project


def commit(repo: Path, message: str = "change") -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)


def test_a_formatter_run_leaves_the_baseline_matched(repo: Path) -> None:
    write_tree(repo, {SUITE: FORMATTED})
    clean("check", "--base", "main", cwd=repo)
    commit(repo)
    clean("review", "--base", "main", "--filter", "nofilter", cwd=repo)
    assert mockpolicy("prune", cwd=repo)[1] == f"{BASELINE}: nothing to prune.\n"


@pytest.mark.parametrize(
    "commands",
    [
        [["ruff", "format", "--line-length", "40", "tests"],
         ["ruff", "format", "--line-length", "120", "--config", "format.skip-magic-trailing-comma = true",
          "--config", "format.quote-style = 'single'", "tests"]],
        [["black", "-q", "--line-length", "40", "tests"], ["black", "-q", "--line-length", "120", "-C", "-S", "tests"]],
    ],
    ids=["ruff-format", "black"],
)
def test_real_formatters_leave_the_baseline_matched(repo: Path, commands: list[list[str]]) -> None:
    tool = commands[0][0]
    if not (Path(sys.executable).parent / tool).exists() and shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed")
    for command in commands:  # explode every call, then join them back with other quotes
        before = (repo / SUITE).read_text()
        result = run([executable(tool), *command[1:]], cwd=repo)
        assert result.returncode == 0, result.stderr
        assert (repo / SUITE).read_text() != before
        clean("check", "--base", "main", cwd=repo)


def test_a_renamed_test_file_keeps_its_entries(repo: Path) -> None:
    (repo / "tests" / "unit").mkdir()
    git(repo, "mv", SUITE, "tests/unit/test_jobs.py")
    clean("check", "--base", "main", cwd=repo)
    clean("review", "--base", "main", cwd=repo)
    code, out, _ = mockpolicy("prune", cwd=repo)
    assert (code, out) == (0, f"{BASELINE}: renamed: {SUITE} -> tests/unit/test_jobs.py\n")
    assert baseline_entries(repo / BASELINE) == [("tests/unit/test_jobs.py", *entry[1:]) for entry in ENTRIES]
    clean("check", "--base", "main", cwd=repo)
    commit(repo, "move the suite")
    clean("check", "--base", "main", cwd=repo)
    clean("review", "--base", "main", "--filter", "nofilter", cwd=repo)


def test_a_renamed_file_recorded_again_is_not_growth(repo: Path) -> None:
    git(repo, "mv", SUITE, "tests/test_work.py")
    write_tree(repo, {"tests/test_work.py": FORMATTED})
    assert mockpolicy("baseline", "--force", cwd=repo)[0] == 0
    clean("check", "--base", "main", cwd=repo)
    commit(repo)
    clean("review", "--base", "main", cwd=repo)


MOVED = """
    import os
    from unittest import mock


    class TestJobs:
        def test_claims_the_runner(self):
            with mock.patch("app.jobs.Runner.claim", autospec=True):
                pass


    class TestRunning:
        def test_twice(self):
            with mock.patch("app.jobs.run", autospec=True):
                pass
            with mock.patch("app.jobs.run", autospec=True):
                pass


    class TestSleeping:
        @mock.patch("app.jobs.run", new=mock.Mock(return_value=None, name="a run that returns at once"))
        def test_sleep(self):
            pass


    def test_mode_is_set():
        os.environ["APP_MODE"] = "test"
    """


def test_renamed_and_moved_tests_keep_their_allowance(repo: Path) -> None:
    write_tree(repo, {SUITE: MOVED})
    clean("check", "--base", "main", cwd=repo)
    code, out, _ = mockpolicy("prune", cwd=repo)
    assert code == 0
    assert f"{BASELINE}: moved: first-party-mock in {SUITE} (TestJobs.test_claim) -> {SUITE} (TestJobs.test_claims_the_runner)" in out
    assert f"{BASELINE}: moved: first-party-mock in {SUITE} (TestJobs.test_twice) -> {SUITE} (TestRunning.test_twice)" in out
    assert "removed" not in out and "lowered" not in out
    assert baseline_entries(repo / BASELINE) == [
        (SUITE, "TestJobs.test_claims_the_runner", "first-party-mock", 1),
        (SUITE, "TestRunning.test_twice", "first-party-mock", 2),
        (SUITE, "TestSleeping.test_sleep", "first-party-mock", 1),
        (SUITE, "test_mode_is_set", "unrestored-environ-mutation", 1),
    ]
    clean("check", "--base", "main", cwd=repo)
    commit(repo)
    clean("review", "--base", "main", "--filter", "nofilter", cwd=repo)


def test_a_test_moved_to_another_file_keeps_its_allowance_and_recording_again_is_not_growth(repo: Path) -> None:
    claim = '\n\ndef test_claim():\n    with mock.patch("app.jobs.Runner.claim", autospec=True):\n        pass\n'
    source = (repo / SUITE).read_text()
    start = source.index("    def test_claim(self):")
    end = source.index("    def test_twice(self):")
    write_tree(repo, {SUITE: source[:start] + source[end:], "tests/test_claims.py": "from unittest import mock" + claim})
    clean("check", "--base", "main", cwd=repo)
    assert mockpolicy("baseline", "--force", cwd=repo)[0] == 0
    clean("check", "--base", "main", cwd=repo)
    commit(repo)
    clean("review", "--base", "main", "--filter", "nofilter", cwd=repo)


def test_a_new_copy_next_to_the_old_one_is_new(repo: Path) -> None:
    copy = "        with mock.patch('app.jobs.Runner.claim', autospec=True):\n            pass\n"
    source = (repo / SUITE).read_text()
    twice = source.index("    def test_twice(self):\n") + len("    def test_twice(self):\n")
    source = source[:twice] + copy + source[twice:]
    write_tree(repo, {SUITE: source})
    code, out, err = mockpolicy("check", cwd=repo)
    assert code == 1 and out.count("first-party-mock") == 1 and err == ""
    assert "tests/test_jobs.py:11:" in out  # the copy in test_twice; test_claim keeps its own
    write_tree(repo, {SUITE: source.replace("def test_claim(self):", "def test_renamed(self):")})
    code, out, err = mockpolicy("check", cwd=repo)
    assert code == 1 and out.count("first-party-mock") == 1 and err == ""  # the renamed one moved; the copy is new
    assert mockpolicy("baseline", "--force", cwd=repo)[0] == 0
    code, _, err = mockpolicy("check", "--base", "main", cwd=repo)
    assert code == 1 and "grew against main: first-party-mock in tests/test_jobs.py (TestJobs.test_twice) allowed 1 time(s), was 0" in err


# What mockpolicy 0.1 wrote for LEGACY: the parenthesised target made a fifth entry.
FORMAT_1 = """{
  "entries": [
    {
      "count": 1,
      "excerpt": "mock.patch('app.jobs.Runner.claim', autospec = True)",
      "fingerprint": "3a4942652b00c2df",
      "path": "tests/test_jobs.py",
      "rule": "first-party-mock",
      "scope": "TestJobs.test_claim"
    },
    {
      "count": 1,
      "excerpt": "mock.patch('app.jobs.run', new=mock.Mock(return_value=None, name='a run that returns at once'))",
      "fingerprint": "64a5f26ee8bd0ac5",
      "path": "tests/test_jobs.py",
      "rule": "first-party-mock",
      "scope": "TestJobs.test_sleep"
    },
    {
      "count": 1,
      "excerpt": "mock.patch('app.jobs.run', autospec=True)",
      "fingerprint": "391787030aa9b3bb",
      "path": "tests/test_jobs.py",
      "rule": "first-party-mock",
      "scope": "TestJobs.test_twice"
    },
    {
      "count": 1,
      "excerpt": "mock.patch(('app.jobs.run'), autospec=True)",
      "fingerprint": "c26f2d725c64afb7",
      "path": "tests/test_jobs.py",
      "rule": "first-party-mock",
      "scope": "TestJobs.test_twice"
    },
    {
      "count": 1,
      "excerpt": "os.environ['APP_MODE'] = 'test'",
      "fingerprint": "99e6c45e5dc1c7b7",
      "path": "tests/test_jobs.py",
      "rule": "unrestored-environ-mutation",
      "scope": "test_mode"
    }
  ],
  "format": 1
}
"""


@pytest.fixture
def old_repo(app_project: Path) -> Path:
    """A suite baselined by mockpolicy 0.1 (format 1), committed on main."""
    write_tree(app_project, {SUITE: LEGACY, BASELINE: FORMAT_1, "pyproject.toml": PYPROJECT})
    git(app_project, "init", "-q", "-b", "main")
    commit(app_project, "adopt mockpolicy 0.1")
    return app_project


@pytest.mark.parametrize("rewrite", [["prune"], ["baseline", "--force"]])
def test_a_format_1_file_is_matched_then_rewritten_in_format_2(old_repo: Path, rewrite: list[str]) -> None:
    clean("check", "--base", "main", cwd=old_repo)
    clean("review", "--base", "main", "--filter", "nofilter", cwd=old_repo)
    pylint = run([executable("pylint"), "--load-plugins", "mockpolicy", "--disable=all", "--enable=mockpolicy",
                  "--persistent=n", "tests"], cwd=old_repo)
    assert pylint.returncode == 0, pylint.stdout
    code, out, _ = mockpolicy(*rewrite, cwd=old_repo)
    assert code == 0
    if rewrite == ["prune"]:
        assert out.splitlines() == [
            f"{BASELINE}: gave 5 entries the fingerprints of format 2.",
            f"{BASELINE}: rewritten in format 2 (was 1).",
        ]
    data = json.loads((old_repo / BASELINE).read_text())
    assert data["format"] == 2 and "tokens:" not in json.dumps(data)
    assert baseline_entries(old_repo / BASELINE) == ENTRIES  # the two entries of test_twice are one now
    clean("check", "--base", "main", cwd=old_repo)  # migrating is not growth
    commit(old_repo, "format 2")
    clean("review", "--base", "main", "--filter", "nofilter", cwd=old_repo)
    write_tree(old_repo, {SUITE: FORMATTED})
    clean("check", "--base", "main", cwd=old_repo)  # and from now on formatters are harmless


def test_format_1_entries_of_files_not_analysed_keep_their_fingerprints(old_repo: Path) -> None:
    write_tree(old_repo, {"tests/test_other.py": "def test_nothing():\n    pass\n"})
    code, out, _ = mockpolicy("prune", "tests/test_other.py", cwd=old_repo)
    assert code == 0 and f"{BASELINE}: rewritten in format 2 (was 1)." in out
    assert "5 entries keep their format 1 fingerprint" in out
    text = (old_repo / BASELINE).read_text()
    assert '["tokens:391787030aa9b3bb", {"first-party-mock": 1}, "mock.patch(\'app.jobs.run\', autospec=True)"]' in text
    clean("check", "--base", "main", cwd=old_repo)
    assert mockpolicy("prune", cwd=old_repo)[1].startswith(f"{BASELINE}: gave 5 entries the fingerprints of format 2.")
    assert "tokens:" not in (old_repo / BASELINE).read_text()


SEVERAL = "from unittest import mock\n" + "".join(
    f"\n\ndef test_{name}():\n    with mock.patch('app.jobs.run', autospec=True, return_value={number}):\n        pass\n"
    for number, name in enumerate("abcdef")
)


def fix_and_prune(repo: Path, branch: str, test: str) -> None:
    git(repo, "checkout", "-qb", branch, "main")
    source = (repo / SUITE).read_text()
    start = source.index(f"def test_{test}():\n") + len(f"def test_{test}():\n")
    end = source.index("        pass\n", start) + len("        pass\n")
    write_tree(repo, {SUITE: source[:start] + "    pass\n" + source[end:]})
    code, out, _ = mockpolicy("prune", cwd=repo)
    assert code == 0 and out.startswith(f"{BASELINE}: removed: first-party-mock in {SUITE} (test_{test})")
    commit(repo, f"fix test_{test}")


@pytest.fixture
def several(app_project: Path) -> Path:
    write_tree(app_project, {SUITE: SEVERAL})
    assert mockpolicy("baseline", cwd=app_project)[0] == 0
    git(app_project, "init", "-q", "-b", "main")
    commit(app_project, "adopt mockpolicy")
    return app_project


def test_branches_pruning_different_findings_merge_without_conflict(several: Path) -> None:
    fix_and_prune(several, "one", "b")
    fix_and_prune(several, "two", "e")
    git(several, "merge", "-q", "--no-edit", "one")
    assert sorted({entry[1] for entry in baseline_entries(several / BASELINE)}) == ["test_a", "test_c", "test_d", "test_f"]
    clean("check", "--base", "main", cwd=several)


def test_the_merge_driver_merges_neighbouring_entries(several: Path) -> None:
    write_tree(several, {".gitattributes": f"{BASELINE} merge=mockpolicy\n"})
    commit(several, "merge the baseline with mockpolicy")
    git(several, "config", "merge.mockpolicy.driver", f"{executable('mockpolicy')} merge-baseline %O %A %B")
    fix_and_prune(several, "one", "b")
    fix_and_prune(several, "two", "c")  # the entry next to test_b's: git's own line merge would conflict here
    git(several, "merge", "-q", "--no-edit", "one")
    assert sorted({entry[1] for entry in baseline_entries(several / BASELINE)}) == ["test_a", "test_d", "test_e", "test_f"]
    clean("check", "--base", "main", cwd=several)


def test_the_merge_driver_applies_both_sides_per_entry() -> None:
    from mockpolicy.baseline import Baseline, merged
    from mockpolicy.identity import Identity

    a, b, c, d, e = (Identity("first-party-mock", "t.py", scope, "f") for scope in "abcde")
    base = Baseline({a: 3, b: 2, c: 1, d: 2}, {})
    ours = Baseline({a: 2, b: 2, d: 3, e: 1}, {})  # fixed one of a, all of c; d and e grew
    theirs = Baseline({a: 1, b: 1, c: 1, d: 1}, {})  # fixed two of a, one of b and d
    assert merged(base, ours, theirs).counts == {a: 1, b: 1, d: 2, e: 1}


def test_a_33000_finding_baseline_stays_under_4_mb() -> None:
    """Shaped like nova's tests (31,146 findings: 410 files, 6,441 scopes, most
    mocks breaking two rules), every excerpt as long as one can be."""
    import hashlib

    from mockpolicy.baseline import Baseline, render
    from mockpolicy.identity import Identity

    counts: dict[Identity, int] = {}
    for number in range(33_000 // 2):
        path = f"nova/tests/unit/compute/test_compute_manager_{number // 48:04d}.py"
        scope = f"TestComputeManagerUnitWithAName.test_the_long_descriptive_name_{number // 3 % 16:02d}"
        fingerprint = hashlib.sha256(str(number).encode()).hexdigest()[:12]
        for rule in ("first-party-mock", "unspecced-mock"):
            counts[Identity(rule, path, scope, fingerprint)] = 1
    text = render(Baseline(counts, dict.fromkeys(counts, "mock.patch.object(" + "x" * 200 + ")")))
    assert len(text.encode("utf-8")) < 4_000_000
