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
from conftest import APP_FILES, baseline_entries, mockpolicy, mockpolicy_in_process, pylint, write_tree

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
    commands = (["check"], ["baseline", "--force"], ["prune"], ["branches"], ["review", "--base", "HEAD"])
    for command in commands:
        code, out, err = _run(*command, cwd=app_project)
        assert "Traceback" not in err
        if name in REFUSED:
            assert code == 2, (command, out, err)
            assert err.startswith("mockpolicy: error: ") and err.count("\n") == 1, err
            assert "pyproject.toml" in err
        elif command[0] in ("branches", "review"):  # no coverage data, no git repository here: one sentence
            assert code == 2 and err.startswith("mockpolicy: error: ") and err.count("\n") == 1, (command, err)
        else:
            assert code in (0, 1), (command, out, err)
    assert not (app_project.parent / "outside.json").exists()
    assert not Path("/tmp/mockpolicy-outside.json").exists()


def test_pylint_reports_every_hostile_configuration_as_one_message(tmp_path: Path) -> None:
    """One pylint run over one project per hostile configuration: each refused
    one is one message on its file, the others are analysed, pylint goes on."""
    for name, text in HOSTILE_CONFIGS.items():
        write_tree(tmp_path / name, {"tests/test_jobs.py": BAD_MOCK, "tests/__init__.py": ""})
        (tmp_path / name / "pyproject.toml").write_text(text)
    result = pylint("--disable=all", "--enable=mockpolicy", "--output-format=json2", *sorted(HOSTILE_CONFIGS), cwd=tmp_path)
    assert "Traceback" not in result.stderr and result.returncode != 32, result.stderr  # 32: pylint's usage error
    by_project: dict[str, list[dict[str, object]]] = {}
    for message in json.loads(result.stdout)["messages"]:
        by_project.setdefault(str(message["path"]).split("/")[0], []).append(message)
    for name in HOSTILE_CONFIGS:
        symbols = [m["symbol"] for m in by_project.get(name, [])]
        if name in REFUSED:  # one message on each module of the project
            assert sorted(str(m["path"]) for m in by_project[name]) == [f"{name}/tests/__init__.py", f"{name}/tests/test_jobs.py"]
            assert set(symbols) == {"mock-analysis-error"} and "pyproject.toml" in str(by_project[name][0]["message"])
        else:
            assert "mock-analysis-error" not in symbols, (name, by_project.get(name))


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


def test_pylint_survives_every_hostile_baseline(tmp_path: Path) -> None:
    for name, text in HOSTILE_BASELINES.items():
        write_tree(tmp_path / name, {**APP_FILES, "tests/__init__.py": "", "tests/test_jobs.py": BAD_MOCK})
        (tmp_path / name / "baselines").mkdir()
        (tmp_path / name / "baselines" / "mockpolicy.json").write_text(text, encoding="utf-8")
    result = pylint("--disable=all", "--enable=mockpolicy", "--output-format=json2", *sorted(HOSTILE_BASELINES), cwd=tmp_path)
    assert "Traceback" not in result.stderr
    for name in HOSTILE_BASELINES:
        found = sorted((str(m["path"]).split("/")[-1], m["symbol"]) for m in json.loads(result.stdout)["messages"]
                       if str(m["path"]).startswith(name + "/tests/"))
        assert found == [("__init__.py", "mock-analysis-error"), ("test_jobs.py", "first-party-mock"),
                         ("test_jobs.py", "mock-analysis-error")], name
        assert (tmp_path / name / "baselines" / "mockpolicy.json").read_text(encoding="utf-8") == HOSTILE_BASELINES[name]


def test_pylint_survives_a_file_over_the_size_cap(app_project: Path) -> None:
    # pylint reads the files it is given itself (a FIFO would hang pylint, not us), so
    # the shape left for the plugin to refuse is size: one long literal, cheap for pylint.
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    (app_project / "tests" / "test_big.py").write_text("from unittest import mock\nx = '" + "a" * 1_200_000 + "'\n")
    with (app_project / "pyproject.toml").open("a") as handle:
        handle.write("[tool.mockpolicy]\nmax-file-size = 1\n")
    result = pylint("--disable=all", "--enable=mockpolicy", "--output-format=json2", "tests/test_jobs.py", "tests/test_big.py",
                    cwd=app_project)
    assert "Traceback" not in result.stderr
    found = sorted((m["path"], m["symbol"]) for m in json.loads(result.stdout)["messages"])
    assert found == [("tests/test_big.py", "mock-analysis-error"), ("tests/test_jobs.py", "first-party-mock")]


def test_workers_end_with_their_parent(app_project: Path) -> None:
    import signal
    import subprocess
    import time

    from conftest import executable

    write_tree(app_project, {f"tests/test_{n}.py": BAD_MOCK for n in range(400)})
    parent = subprocess.Popen([executable("mockpolicy"), "check", "-j", "2", "-q"], cwd=app_project,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: set[int] = set()
    deadline = time.monotonic() + 60
    while not workers and time.monotonic() < deadline and parent.poll() is None:
        time.sleep(0.05)
        children = Path(f"/proc/{parent.pid}/task/{parent.pid}/children")
        if children.exists():
            workers = {int(pid) for pid in children.read_text().split()}
    if not workers:
        parent.wait(timeout=120)
        pytest.skip("the run ended before its workers could be seen")
    parent.send_signal(signal.SIGKILL)
    parent.wait(timeout=10)
    deadline = time.monotonic() + 30  # a busy machine may take a while to schedule them
    while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.1)
    survivors = {pid: _command(pid) for pid in workers if _alive(pid)}
    assert not survivors, survivors


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return "?"


def _alive(pid: int) -> bool:
    """Whether ``pid`` is running (a zombie waiting for its reaper is not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


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
