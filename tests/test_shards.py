"""``check --shard K/N`` and ``merge``: the shards of a run, merged, give
byte for byte the report, the exit status and the stale entries one run gives."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import mockpolicy_in_process, write_tree

MOCKING = """
    from unittest import mock


    @mock.patch("app.jobs.Runner.claim")
    def test_claim{n}(claim):
        pass


    def test_sleep{n}():
        with mock.patch("time.sleep"):
            pass
    """


@pytest.fixture
def suite(app_project: Path) -> Path:
    for n in range(7):
        write_tree(app_project / "tests", {f"test_{n}.py": MOCKING.format(n=n) + "\n" * n})
    write_tree(app_project / "tests", {"helpers/__init__.py": "", "helpers/test_gone.py": MOCKING.format(n="g")})
    assert mockpolicy_in_process("baseline", cwd=app_project).returncode == 0
    write_tree(app_project / "tests", {
        "helpers/test_gone.py": "def test_nothing():\n    pass\n",  # its entries go stale
        "test_new.py": "from unittest import mock\n\n\ndef test_new():\n    mock.patch('app.jobs.run').start()\n",
        # its findings are dropped, and the summary says so
        "test_skipped.py": MOCKING.format(n="s").replace("\n    from", "\n    # pylint: skip-file\n    from", 1),
    })
    return app_project


def sharded(project: Path, count: int, *check_args: str) -> list[str]:
    results = []
    for index in range(1, count + 1):
        result = project / f"shard-{index}-of-{count}.json"
        done = mockpolicy_in_process("check", "--shard", f"{index}/{count}", "-o", str(result), *check_args, cwd=project)
        assert (done.returncode, done.stderr) == (0, "")
        results.append(str(result))
    return results


def same(one: subprocess.CompletedProcess[str], other: subprocess.CompletedProcess[str]) -> None:
    assert (one.returncode, one.stdout, one.stderr) == (other.returncode, other.stdout, other.stderr)


@pytest.mark.parametrize("options", [
    [], ["--format", "json"], ["--format", "github"], ["--format", "sarif"], ["--statistics"],
    ["--no-baseline"], ["--allow-stale"], ["--exit-zero", "--format", "gitlab"],
])
def test_merged_shards_report_what_one_run_reports(suite: Path, options: list[str]) -> None:
    single = mockpolicy_in_process("check", *options, cwd=suite)
    assert single.returncode == (0 if "--exit-zero" in options else 1)
    results = sharded(suite, 3)
    same(mockpolicy_in_process("merge", *reversed(results), *options, cwd=suite), single)
    if not options:
        assert "stale: " in single.stderr and "first-party-mock" in single.stdout
        assert single.stdout.rstrip().endswith(
            "Not reported: the findings of 1 file with '# pylint: skip-file' (tests/test_skipped.py)."
        )
        assert "test_skipped.py:" not in single.stdout


def test_selection_is_applied_by_the_shards_and_judged_by_merge(suite: Path) -> None:
    single = mockpolicy_in_process("check", "--select", "unspecced-mock", cwd=suite)
    same(mockpolicy_in_process("merge", *sharded(suite, 2, "--select", "unspecced-mock"), cwd=suite), single)


def test_shards_are_disjoint_complete_contiguous_and_balanced_by_size(suite: Path) -> None:
    results = sharded(suite, 3)
    files = [json.loads(Path(r).read_text(encoding="utf-8"))["files"] for r in results]
    every = sorted(name for names in files for name in names)
    assert len(every) == len(set(every)) == 11
    assert [name for names in files for name in names] == every  # runs of neighbours, in path order
    sizes = [sum((suite / name).stat().st_size for name in names) for names in files]
    largest = max((suite / name).stat().st_size for name in every)
    assert all(abs(3 * size - sum(sizes)) <= 3 * largest for size in sizes)  # each within a file of a third
    assert sharded(suite, 3) == results and [json.loads(Path(r).read_text(encoding="utf-8"))["files"] for r in results] == files
    one = sharded(suite, 1)
    same(mockpolicy_in_process("merge", *one, cwd=suite), mockpolicy_in_process("check", cwd=suite))


def test_merge_refuses_what_is_not_one_whole_run(suite: Path) -> None:
    results = sharded(suite, 3)
    other = sharded(suite, 2)
    damaged = suite / "damaged.json"
    damaged.write_text("{", encoding="utf-8")
    for given, expected in (
        (results[:2], "cannot merge: shard 3/3 is missing."),
        ([*results, results[0]], "a shard is given twice"),
        ([results[0], other[1]], "not a shard of the same run"),
        ([*results[:2], str(damaged)], "not a shard result of `mockpolicy check --shard` (not JSON)"),
        ([*results[:2], str(suite / "nothing.json")], "cannot be read"),
    ):
        refused = mockpolicy_in_process("merge", *given, cwd=suite)
        assert refused.returncode == 2
        assert expected in refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("option", [["--format", "json"], ["--statistics"], ["--base", "HEAD"], ["--no-baseline"]])
def test_a_shard_leaves_judging_to_merge(suite: Path, option: list[str]) -> None:
    refused = mockpolicy_in_process("check", "--shard", "1/2", *option, cwd=suite)
    assert refused.returncode == 2
    assert refused.stderr.startswith("mockpolicy: error: --shard leaves judging to `mockpolicy merge`")


@pytest.mark.parametrize("shard", ["0/2", "3/2", "2", "a/b", "1/0"])
def test_a_bad_shard_is_a_usage_error(suite: Path, shard: str) -> None:
    refused = mockpolicy_in_process("check", "--shard", shard, cwd=suite)
    assert refused.returncode == 2
    assert "expected K/N with 1 <= K <= N" in refused.stderr
