"""Hostile inputs a pull request can carry: configuration shapes, file kinds and
paths. Every one ends in a one-sentence error (exit 2) or a
``mock-analysis-error`` finding, never a traceback, and nothing is read or
written outside the project."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest
from conftest import baseline_entries, mockpolicy, mockpolicy_in_process, pylint, write_tree

BAD_MOCK = """
    from unittest import mock


    def test_claim():
        with mock.patch("app.jobs.Runner.claim", autospec=True):
            pass
    """

PROJECT = '[project]\nname = "app"\nversion = "0"\n'

# pyproject.toml texts; each is either ignored where it does not matter or refused in one sentence.
HOSTILE_CONFIGS = {
    "tool-is-a-string": 'tool = "x"\n' + PROJECT,
    "setuptools-is-a-string": PROJECT + '[tool]\nsetuptools = "x"\n',
    "project-is-a-string": 'project = "x"\n',
    "packages-find-is-a-list": PROJECT + "[tool.setuptools.packages]\nfind = [1]\n",
    "find-where-is-a-string": PROJECT + '[tool.setuptools.packages.find]\nwhere = "src"\n',
    "package-dir-is-a-list": PROJECT + '[tool.setuptools]\npackage-dir = ["src"]\n',
    "hatch-packages-not-strings": PROJECT + "[tool.hatch.build.targets.wheel]\npackages = [1, {a = 1}]\n",
    "hatch-is-a-list": PROJECT + "[tool]\nhatch = [1]\n",
    "poetry-packages-is-a-table": PROJECT + "[tool.poetry.packages]\na = 1\n",
    "entry-points-not-strings": PROJECT + "[project.entry-points.pytest11]\nplugin = 1\n",
    "testpaths-not-strings": PROJECT + "[tool.pytest.ini_options]\ntestpaths = [1, 2]\n",
    "huge-integer": PROJECT + "[tool.mockpolicy]\nfirst-party = [" + "9" * 5000 + "]\n",
    "nested-500-deep": PROJECT + "x = " + "[" * 500 + "]" * 500 + "\n",
    "nul-in-tests": PROJECT + '[tool.mockpolicy]\ntests = ["te\\u0000sts"]\n',
    "baseline-outside": PROJECT + '[tool.mockpolicy]\nbaseline = "../outside.json"\n',
    "baseline-absolute": PROJECT + '[tool.mockpolicy]\nbaseline = "/tmp/mockpolicy-outside.json"\n',
    "tests-absolute": PROJECT + '[tool.mockpolicy]\ntests = ["/etc"]\n',
    "tests-missing": PROJECT + '[tool.mockpolicy]\ntests = ["no_such_folder"]\n',
    "mockpolicy-is-a-string": PROJECT + '[tool]\nmockpolicy = "x"\n',
    "not-toml": "[project\n",
}
REFUSED = {
    "huge-integer", "nested-500-deep", "nul-in-tests", "baseline-outside", "baseline-absolute", "tests-absolute", "tests-missing",
    "mockpolicy-is-a-string", "not-toml",
}


def _run(*args: str, cwd: Path) -> tuple[int, str, str]:
    result = mockpolicy_in_process(*args, cwd=cwd)
    return result.returncode, result.stdout, result.stderr


@pytest.mark.parametrize("name", sorted(HOSTILE_CONFIGS))
def test_a_hostile_configuration_is_one_sentence_or_ignored(app_project: Path, name: str) -> None:
    (app_project / "pyproject.toml").write_text(HOSTILE_CONFIGS[name])
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    for command in (["check"], ["baseline"]):
        code, out, err = _run(*command, cwd=app_project)
        if name in REFUSED:
            assert code == 2, (command, out, err)
            assert err.startswith("mockpolicy: error: ") and err.count("\n") == 1, err
            assert "pyproject.toml" in err
        else:
            assert code in (0, 1), (command, out, err)
    assert not (app_project.parent / "outside.json").exists()
    assert not Path("/tmp/mockpolicy-outside.json").exists()


def test_pylint_reports_a_hostile_configuration_as_one_message(app_project: Path) -> None:
    (app_project / "pyproject.toml").write_text(HOSTILE_CONFIGS["baseline-outside"])
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    result = pylint("--disable=all", "--enable=mockpolicy", "--output-format=json2", "tests", cwd=app_project)
    assert "Traceback" not in result.stderr
    [message] = json.loads(result.stdout)["messages"]
    assert message["symbol"] == "mock-analysis-error"
    assert "baseline must be a path inside the project" in str(message["message"])


def test_file_kinds_that_are_not_source_do_not_hang_or_crash(app_project: Path) -> None:
    tests = app_project / "tests"
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    os.mkfifo(tests / "test_fifo.py")
    (tests / "test_zero.py").symlink_to("/dev/zero")
    (tests / "test_loop_a.py").symlink_to("test_loop_b.py")
    (tests / "test_loop_b.py").symlink_to("test_loop_a.py")
    for jobs in ("1", "2", "99999999999999999999999"):
        result = mockpolicy("check", "--format", "json", "-j", jobs, cwd=app_project)
        assert "Traceback" not in result.stderr, result.stderr
        found = {(f["path"], f["symbol"]) for f in json.loads(result.stdout)}
        assert found == {
            ("tests/test_jobs.py", "first-party-mock"),
            ("tests/test_fifo.py", "mock-analysis-error"),
            ("tests/test_zero.py", "mock-analysis-error"),
            ("tests/test_loop_a.py", "mock-analysis-error"),
            ("tests/test_loop_b.py", "mock-analysis-error"),
        }


ENTRY = '{"rule": "first-party-mock", "path": "tests/test_jobs.py", "scope": "test_claim", "fingerprint": "f", "count": 1, "excerpt": "x"}'
HOSTILE_BASELINES = {
    "huge-integer": '{"format": 1, "entries": [' + ENTRY.replace('"count": 1', '"count": ' + "9" * 5000) + "]}",
    "nested-deep": '{"format": 1, "entries": [' + "[" * 100_000 + "]" * 100_000 + "]}",
    "lone-surrogate": '{"format": 1, "entries": [' + ENTRY.replace('"x"', '"\\ud800"') + "]}",
    "format-true": '{"format": true, "entries": []}',
    "not-json": "{",
    "v2-huge-count": '{"format": 2, "files": {"tests/test_jobs.py": {"": [["f", {"first-party-mock": 1e999}, "x"]]}}}',
    "v2-nested-deep": '{"format": 2, "files": {"tests/test_jobs.py": ' + "[" * 100_000 + "]" * 100_000 + "}}",
    "v2-lone-surrogate": '{"format": 2, "files": {"tests/test_\\udc80.py": {}}}',
    "v2-rule-not-text": '{"format": 2, "files": {"tests/test_jobs.py": {"": [["f", [1], "x"]]}}}',
}


@pytest.mark.parametrize("name", sorted(HOSTILE_BASELINES))
def test_a_hostile_baseline_is_one_sentence_and_never_overwritten(app_project: Path, name: str) -> None:
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    path = app_project / "baselines" / "mockpolicy.json"
    path.parent.mkdir()
    path.write_text(HOSTILE_BASELINES[name], encoding="utf-8")
    for command in (["check"], ["prune"], ["baseline", "--force"]):
        code, out, err = _run(*command, cwd=app_project)
        assert code == 2, (command, out, err)
        assert err.startswith("mockpolicy: error: ") and err.count("\n") == 1 and "mockpolicy.json" in err, err
    assert path.read_text(encoding="utf-8") == HOSTILE_BASELINES[name]


def test_pylint_survives_a_hostile_baseline(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    (app_project / "baselines").mkdir()
    (app_project / "baselines" / "mockpolicy.json").write_text(HOSTILE_BASELINES["nested-deep"])
    result = pylint("--disable=all", "--enable=mockpolicy", "--output-format=json2", "tests", cwd=app_project)
    assert "Traceback" not in result.stderr
    found = sorted(m["symbol"] for m in json.loads(result.stdout)["messages"])
    assert found == ["first-party-mock", "mock-analysis-error"]


def test_a_baseline_path_that_cannot_exist_is_one_sentence(app_project: Path) -> None:
    (app_project / "pyproject.toml").write_text(PROJECT + f'[tool.mockpolicy]\nbaseline = "{"b" * 300}.json"\n')
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    for command in (["check"], ["baseline"]):
        code, out, err = _run(*command, cwd=app_project)
        assert code == 2 and err.startswith("mockpolicy: error: ") and err.count("\n") == 1, (command, err)


def test_baseline_force_on_some_paths_keeps_the_other_entries(app_project: Path) -> None:
    write_tree(app_project, {
        "tests/test_a.py": BAD_MOCK,
        "tests/test_b.py": BAD_MOCK.replace("Runner.claim", "run").replace("test_claim", "test_run"),
    })
    assert mockpolicy_in_process("baseline", cwd=app_project).returncode == 0
    recorded = baseline_entries(app_project / "baselines" / "mockpolicy.json")
    assert sorted(e[0] for e in recorded) == ["tests/test_a.py", "tests/test_b.py"]
    (app_project / "tests" / "test_a.py").write_text("def test_nothing():\n    pass\n")
    assert mockpolicy_in_process("baseline", "--force", "tests/test_a.py", cwd=app_project).returncode == 0
    kept = baseline_entries(app_project / "baselines" / "mockpolicy.json")
    assert [e[0] for e in kept] == ["tests/test_b.py"]
    assert mockpolicy_in_process("check", cwd=app_project).returncode == 0


INJECTED = """
    from unittest import mock


    def test_claim():
        with mock.patch("app.jobs.Runner.claim\\n::error file=README.md,line=1::pwned\\r\\x1b[2J", autospec=True):
            pass
    """


@pytest.mark.parametrize("fmt", ["text", "github", "markdown", "json", "sarif", "gitlab", "rdjson"])
def test_control_characters_from_the_pull_request_never_start_an_output_line(app_project: Path, fmt: str) -> None:
    write_tree(app_project, {"tests/test_jobs.py": INJECTED})
    code, out, err = _run("check", "--format", fmt, cwd=app_project)
    assert code == 1, err
    assert "pwned" in out
    for line in (out + err).splitlines():
        assert not line.lstrip().startswith("::error file=README.md"), line
        assert "\x1b" not in line


def test_a_baseline_excerpt_cannot_inject_a_workflow_command(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": "def test_nothing():\n    pass\n"})
    entry = json.loads(ENTRY)
    entry["excerpt"] = "x\n::stop-commands::token\n"
    entry["scope"] = "test\r\n::error::scope"
    (app_project / "baselines").mkdir()
    (app_project / "baselines" / "mockpolicy.json").write_text(json.dumps({"format": 1, "entries": [entry]}))
    code, out, err = _run("check", cwd=app_project)
    assert code == 1 and "stale" in err
    code, out, err = _run("prune", cwd=app_project)
    assert code == 0 and "removed" in out
    for line in (out + err).splitlines():
        assert not line.startswith("::"), line


def test_baseline_file_is_readable_by_others_and_keeps_its_mode(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    umask = os.umask(0o022)
    try:
        assert mockpolicy_in_process("baseline", cwd=app_project).returncode == 0
    finally:
        os.umask(umask)
    path = app_project / "baselines" / "mockpolicy.json"
    assert path.stat().st_mode & 0o777 == 0o644
    path.chmod(0o664)
    assert mockpolicy_in_process("baseline", "--force", cwd=app_project).returncode == 0
    assert path.stat().st_mode & 0o777 == 0o664


def test_writers_are_serialised_and_killed_writers_leave_nothing_behind(app_project: Path) -> None:
    import subprocess
    import time

    from conftest import executable

    from mockpolicy import baseline

    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    path = app_project / "baselines" / "mockpolicy.json"
    path.parent.mkdir()
    leftover = path.parent / ".mockpolicy.json.k1ll3d.tmp"
    leftover.write_text("half a baseline")
    with baseline.locked(path):
        assert not leftover.exists()  # no writer holds the lock but us: temporary files are stale
        leftover.write_text("half a baseline")
        writer = subprocess.Popen([executable("mockpolicy"), "baseline"], cwd=app_project,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(1.5)
        assert writer.poll() is None and not path.exists()  # it waits for the lock
    out, err = writer.communicate(timeout=120)
    assert writer.returncode == 0, err
    assert "recorded 1 finding" in out and not leftover.exists()
    second = mockpolicy("baseline", cwd=app_project)  # a second writer does not silently replace it
    assert second.returncode == 2 and "already exists" in second.stderr


def test_a_file_name_that_is_not_utf8_is_shown_escaped_everywhere(app_project: Path) -> None:
    name = os.fsdecode(b"test_\xff.py")
    (app_project / "tests" / name).write_text(textwrap.dedent(BAD_MOCK))
    for fmt in ("text", "json", "sarif", "gitlab", "rdjson", "github", "markdown"):
        code, out, err = _run("check", "--format", fmt, cwd=app_project)
        assert code == 1 and "Traceback" not in err, (fmt, err)
        assert "xff.py" in out, (fmt, out[:300])  # escaped as \\xff (percent-encoded in SARIF URIs)
    assert _run("baseline", cwd=app_project)[0] == 0
    assert _run("check", cwd=app_project)[0] == 0


def test_a_baseline_folder_that_cannot_be_written_is_one_sentence(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    (app_project / "baselines").write_text("a file where the folder should be")
    code, out, err = _run("baseline", cwd=app_project)
    assert code == 2 and err.startswith("mockpolicy: error: ") and err.count("\n") == 1, err


def test_a_setup_py_too_deep_to_parse_declares_nothing(app_project: Path) -> None:
    (app_project / "setup.py").write_text("from setuptools import setup\nsetup(name=" + " + ".join(["'a'"] * 3000) + ")\n")
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    code, out, err = _run("check", cwd=app_project)
    assert code == 1 and "first-party-mock" in out, err


def test_the_size_cap_is_configurable_and_a_huge_file_costs_little_memory(app_project: Path) -> None:
    import resource
    import subprocess

    from conftest import executable

    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    huge = app_project / "tests" / "test_huge.py"
    block = 'def test_{n}():\n    with mock.patch("app.jobs.time.sleep", autospec=True):\n        pass\n\n'
    with huge.open("w") as handle:
        handle.write("from unittest import mock\n\n")
        for n in range(20 * 1024 * 1024 // len(block) + 1):
            handle.write(block.format(n=n))
    assert huge.stat().st_size > 20 * 1024 * 1024
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    result = subprocess.run([executable("mockpolicy"), "check", "--format", "json"], cwd=app_project,
                            capture_output=True, text=True, check=False)
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    found = {(f["path"], f["symbol"]) for f in json.loads(result.stdout)}
    assert found == {("tests/test_jobs.py", "first-party-mock"), ("tests/test_huge.py", "mock-analysis-error")}
    assert "larger than 10 MiB" in result.stdout
    assert peak_kib < 1024 * 1024 or peak_kib == before  # under 1 GiB (or an earlier child set the maximum)
    (app_project / "pyproject.toml").write_text(PROJECT + "[tool.mockpolicy]\nmax-file-size = 1\n")
    huge.write_text("from unittest import mock\n" + "x = 1\n" * 200_000)
    code, out, _ = _run("check", cwd=app_project)
    assert code == 1 and "test_huge.py" in out and "larger than 1 MiB" in out
    for bad in ("true", "0", '"10"', "2000"):
        (app_project / "pyproject.toml").write_text(PROJECT + f"[tool.mockpolicy]\nmax-file-size = {bad}\n")
        code, _, err = _run("check", cwd=app_project)
        assert code == 2 and "max-file-size must be a whole number" in err, bad
