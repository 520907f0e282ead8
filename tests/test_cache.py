"""The persistent findings cache: a warm run reports exactly what a run
without the cache reports, whatever changed in between (one test per kind of
dependency), and only the files whose dependencies changed are analysed
again. Every run here is a real run on a real project on disk."""

from __future__ import annotations

import hashlib
import hmac
import json
import shutil
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import APP_FILES, CALLERS_FILES, mockpolicy, write_tree

from mockpolicy.deps import digest

LIBRARY = {
    "fakelib/__init__.py": """
        def decide(flag):
            if flag:
                return 1
            return 2
        """,
}

PROJECT = {
    **APP_FILES,  # app.jobs.Runner.claim
    "src/app/other.py": """
        def thing():
            return 1
        """,
    "src/app/testing/__init__.py": "",  # test support the package ships: code under test while it holds no test
    "src/app/testing/runner.py": """
        def start():
            return 1
        """,
    "src/app/_speed.c": """
        #include <Python.h>
        static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_speed", NULL, -1, NULL};
        PyMODINIT_FUNC PyInit__speed(void) {
            PyObject *mod = PyModule_Create(&module);
            PyModule_AddIntConstant(mod, "level", 1);
            return mod;
        }
        """,
    "tests/test_speed.py": """
        from unittest import mock


        def test_level():
            with mock.patch("app._speed.level", 0):
                pass
        """,
    "tests/__init__.py": "",
    "tests/conftest.py": """
        import pytest
        from app.jobs import Runner

        pytest_plugins = ["tests.fixtures"]


        @pytest.fixture
        def runner():
            return Runner()
        """,
    "tests/fixtures.py": """
        import pytest
        from app.jobs import Runner


        @pytest.fixture
        def planted():
            return Runner()
        """,
    "tests/test_jobs.py": """
        from unittest import mock


        def test_fixture(runner, monkeypatch):
            monkeypatch.setattr(runner, "claim", lambda: "x")


        def test_plugin_fixture(planted, monkeypatch):
            monkeypatch.setattr(planted, "claim", lambda: "x")


        def test_library():
            # mock-partial: the library decides once
            #   untested: fakelib.decide: if other; not yet
            with mock.patch("fakelib.decide", return_value=1, autospec=True):
                pass


        def test_new_module():
            with mock.patch("app.fresh.made", autospec=True):
                pass
        """,
    "tests/test_other.py": """
        from unittest import mock


        @mock.patch("app.other.thing", autospec=True)
        def test_thing(thing):
            pass


        @mock.patch("app.testing.runner.start", autospec=True)
        def test_start(start):
            pass
        """,
    "tests/support.py": """
        from unittest import mock


        def swap_in(target):
            return target
        """,
    # no mocking word: analysed only once swap_in becomes a helper
    "tests/test_plain.py": """
        from tests.support import swap_in


        @swap_in("app.other.thing")
        def test_swapped(thing):
            pass
        """,
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write_tree(tmp_path / "lib", LIBRARY)
    return write_tree(tmp_path / "project", PROJECT)


def _env(project: Path) -> dict[str, str]:
    return {"PYTHONPATH": str(project.parent / "lib")}


def check(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``mockpolicy check`` with the test library installed (on its path)."""
    return mockpolicy("check", "--no-baseline", *args, cwd=project, env=_env(project))


def assert_as_without_cache(project: Path) -> str:
    """Run with the cache and without it: the same report, byte for byte."""
    cached, fresh = check(project), check(project, "--no-cache")
    assert (cached.returncode, cached.stdout) == (fresh.returncode, fresh.stdout)
    return cached.stdout


def entries(project: Path) -> dict[str, tuple[int, int]]:
    """Each cache entry's file, by the test file it holds: (inode, mtime_ns)."""
    found = {}
    for path in (project / ".mockpolicy_cache" / "findings").glob("*.json"):
        body = json.loads(path.read_bytes().partition(b"\n")[2])
        status = path.stat()
        found[body["path"]] = (status.st_ino, status.st_mtime_ns)
    return found


def _edit(relative: str, old: str, new: str) -> Callable[[Path], None]:
    def edit(project: Path) -> None:
        path = project / relative
        if not path.exists() and relative.startswith("src/"):
            path.write_text(new, encoding="utf-8")
            return
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new), encoding="utf-8")

    return edit


EDITS = {
    "the test file": _edit("tests/test_jobs.py", '"claim", lambda', '"unclaimed", lambda'),
    "a conftest": _edit("tests/conftest.py", "return Runner()", "return object()"),
    "a fixture module": _edit("tests/fixtures.py", "return Runner()", "return object()"),
    "a first-party module": _edit("src/app/jobs.py", "def claim(self)", "def claimed(self)"),
    "a module appearing": _edit("src/app/fresh.py", "", "def made():\n    return 1\n"),
    "an installed library's version": lambda project: (project.parent / "lib" / "fakelib" / "__init__.py").write_text(
        "def decide(flag):\n    if other:\n        return 1\n    return 2\n", encoding="utf-8"),
    "a helper of the tests": _edit("tests/support.py", "return target", "return mock.patch(target, autospec=True)"),
    "a test module in a shipped test package": _edit("src/app/testing/test_runner.py", "", "def test_start():\n    pass\n"),
    "an extension module's C source": _edit("src/app/_speed.c", '"level", 1', '"version", 1'),
    "the configuration": _edit("pyproject.toml", 'version = "0"', 'version = "0"\n\n[tool.mockpolicy]\nfirst-party = ["tests"]'),
}


@pytest.mark.parametrize("what", EDITS)
def test_an_edit_to_each_kind_of_dependency_is_seen(project: Path, what: str) -> None:
    before = assert_as_without_cache(project)
    assert check(project).stdout == before  # warm: served from the cache
    EDITS[what](project)
    after = assert_as_without_cache(project)
    assert after != before


def test_a_warm_run_analyses_again_exactly_the_files_whose_dependencies_changed(project: Path) -> None:
    assert_as_without_cache(project)
    first = entries(project)
    assert set(first) == {"tests/__init__.py", "tests/conftest.py", "tests/fixtures.py",
                          "tests/test_jobs.py", "tests/test_other.py", "tests/support.py", "tests/test_plain.py",
                          "tests/test_speed.py"}
    check(project)
    assert entries(project) == first  # nothing changed: nothing written
    _edit("src/app/other.py", "return 1", "return 2")(project)
    assert_as_without_cache(project)
    after = entries(project)
    # test_other patches app.other; test_jobs's missing 'app.fresh' could be
    # filled by setattr in any module of the app package, so it read them all
    assert {path for path in first if after[path] != first[path]} == {"tests/test_other.py", "tests/test_jobs.py"}


def test_the_cache_folder_is_git_ignored_and_no_cache_writes_none(project: Path) -> None:
    check(project, "--no-cache")
    assert not (project / ".mockpolicy_cache").exists()
    check(project)
    assert (project / ".mockpolicy_cache" / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"


def test_cache_dir_moves_the_cache_and_must_stay_inside_the_project(project: Path) -> None:
    pyproject = project / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(text + '\n[tool.mockpolicy]\ncache-dir = "build/mp-cache"\n', encoding="utf-8")
    assert_as_without_cache(project)
    assert entries(project) == {}
    assert list((project / "build" / "mp-cache" / "findings").glob("*.json"))
    pyproject.write_text(text + '\n[tool.mockpolicy]\ncache-dir = "../elsewhere"\n', encoding="utf-8")
    refused = check(project)
    assert refused.returncode == 2
    assert "cache-dir must be a path inside the project" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1


def test_a_cache_folder_leading_outside_the_project_is_refused(project: Path, tmp_path: Path) -> None:
    (tmp_path / "outside").mkdir()
    (project / ".mockpolicy_cache").symlink_to(tmp_path / "outside")
    refused = check(project)
    assert refused.returncode == 2
    assert refused.stderr.startswith("mockpolicy: error: the cache folder")
    assert len(refused.stderr.strip().splitlines()) == 1
    assert list((tmp_path / "outside").iterdir()) == []
    assert check(project, "--no-cache").returncode == 1


@pytest.mark.parametrize("damage", ["truncated", "garbage", "empty", "forged"])
def test_a_damaged_or_planted_entry_is_ignored_and_rewritten(project: Path, damage: str) -> None:
    before = assert_as_without_cache(project)
    path = next(p for p in (project / ".mockpolicy_cache" / "findings").glob("*.json")
                if b'"tests/test_jobs.py"' in p.read_bytes())
    data = path.read_bytes()
    signature, _, body = data.partition(b"\n")
    if damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        path.write_bytes(b"\x00\xff" * 100)
    elif damage == "empty":
        path.write_bytes(b"")
    else:  # a pull request commits an entry saying the file has no findings
        entry = json.loads(body)
        entry["findings"] = []
        path.write_bytes(b"0" * len(signature) + b"\n" + json.dumps(entry, sort_keys=True).encode())
    assert check(project).stdout == before
    assert path.read_bytes() == data  # rewritten whole


def test_concurrent_runs_never_corrupt_the_cache(project: Path) -> None:
    expected = check(project, "--no-cache")
    for index in range(20):  # more files, so that the runs overlap
        (project / "tests" / f"test_more_{index}.py").write_text(
            (project / "tests" / "test_other.py").read_text(encoding="utf-8"), encoding="utf-8")
    expected = check(project, "--no-cache")
    results: list[subprocess.CompletedProcess[str]] = []

    def run() -> None:
        results.append(check(project, "-j", "2"))

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [(r.returncode, r.stdout) for r in results] == [(expected.returncode, expected.stdout)] * 4
    assert check(project).stdout == expected.stdout
    assert len(entries(project)) == 28
    assert not [p for p in (project / ".mockpolicy_cache").rglob(".tmp-*")]


def test_the_cache_keeps_findings_before_selection_and_suppressions(project: Path) -> None:
    everything = assert_as_without_cache(project)
    selected = check(project, "--select", "first-party-mock")
    assert selected.stdout == check(project, "--no-cache", "--select", "first-party-mock").stdout != everything
    assert check(project).stdout == everything


def test_the_cache_files_are_json_never_pickle(project: Path) -> None:
    check(project)
    for path in (project / ".mockpolicy_cache").rglob("*"):
        if path.is_file() and path.suffix == ".json":
            text = path.read_bytes()
            json.loads(text.partition(b"\n")[2] if path.parent.name in ("findings", "summaries") else text)  # signed


def test_what_an_earlier_file_resolved_counts_for_a_later_one(project: Path) -> None:
    """The run remembers resolved targets, fixture values and conftests across
    files; a later file that reuses them depends on what they read."""
    for name in ("test_reuse_a.py", "test_reuse_b.py"):
        write_tree(project / "tests", {name: """
            from unittest import mock


            def test_both():
                with mock.patch("app.jobs.gone", autospec=True):
                    pass
            """})
    before = assert_as_without_cache(project)
    assert before.count("app.jobs.gone") == 2
    first = entries(project)
    _edit("src/app/jobs.py", "class Runner", "def gone():\n    pass\n\n\nclass Runner")(project)
    assert assert_as_without_cache(project) != before
    after = entries(project)
    assert {path for path in first if after[path] != first[path]} >= {"tests/test_reuse_a.py", "tests/test_reuse_b.py"}


PORCH_CALLING = "from app import jobs\n\n\ndef step(name):\n    while jobs.is_open(name):\n        return True\n    return False\n"


@pytest.mark.parametrize("edit", ["a module starting to call it", "a calling module appearing"])
def test_partial_mock_findings_follow_the_callers_they_name(tmp_path: Path, edit: str) -> None:
    """undocumented-partial-mock reads every caller of the mocked function in the
    code under test, also in modules the test file never imports (here one
    reached through app.service): a module that starts calling it, or a new
    module calling it, is seen."""
    files = dict(CALLERS_FILES)
    if edit == "a module starting to call it":
        files["src/app/porch.py"] = "def step(name):\n    return bool(name)\n"
    project = write_tree(tmp_path, files)
    before = assert_as_without_cache(project)
    assert check(project).stdout == before
    assert "app.gates.door: else jobs.is_open(name)" in before
    assert "app.porch.step" not in before
    (project / "src/app/porch.py").write_text(PORCH_CALLING, encoding="utf-8")
    after = assert_as_without_cache(project)
    assert "app.porch.step: else jobs.is_open(name)" in after


MIXIN_TEST = """
    from unittest import mock

    from app.mixins import Audit


    def test_client():
        with mock.patch.object(Audit, "client", create=True, new=None):
            pass
    """

MIXIN = """
    class Audit:
        def audit(self):
            return self.client.send("audit")
    """

MIXIN_HOST = """
    from app.mixins import Audit


    class Service(Audit):
        client = None
    """


def test_a_class_combining_a_mixin_is_a_dependency(project: Path) -> None:
    # create=True on a mixin is judged by the classes combining it: a host
    # appearing in another module changes the test file's findings.
    write_tree(project, {"tests/test_mixin.py": MIXIN_TEST, "src/app/mixins.py": MIXIN})
    before = assert_as_without_cache(project)
    assert "tests/test_mixin.py:7:9: mock-target-not-found" in before
    write_tree(project, {"src/app/hosts.py": MIXIN_HOST})
    after = assert_as_without_cache(project)
    assert "tests/test_mixin.py" not in after


# -- module summaries (skeletons, callers, called words) ------------------------

KEY = bytes(range(32))  # this test's signing key, kept where its runs look for it


def _signed_env(project: Path) -> dict[str, str]:
    home = project.parent / "xdg"
    (home / "mockpolicy").mkdir(parents=True, exist_ok=True)
    (home / "mockpolicy" / "cache-key").write_text(KEY.hex(), encoding="ascii")
    return {**_env(project), "XDG_CACHE_HOME": str(home)}


def _summaries(project: Path) -> dict[str, tuple[Path, dict[str, object]]]:
    """Each summary record's file and body, by ``kind:key``."""
    found = {}
    for path in (project / ".mockpolicy_cache" / "summaries").glob("*.json"):
        body = json.loads(path.read_bytes().partition(b"\n")[2])
        found[f"{body['kind']}:{body['key']}"] = (path, body)
    return found


def _sign(body: dict[str, object]) -> bytes:
    data = json.dumps(body, separators=(",", ":")).encode()
    return hmac.new(KEY, data, hashlib.sha256).hexdigest().encode() + b"\n" + data


def _warm_summaries_only(project: Path, env: dict[str, str], *paths: str) -> subprocess.CompletedProcess[str]:
    """A run that finds every module summary but no findings entry."""
    shutil.rmtree(project / ".mockpolicy_cache" / "findings")
    return mockpolicy("check", "--no-baseline", *paths, cwd=project, env=env)


def test_module_summaries_are_kept_and_give_the_findings_a_full_parse_gives(project: Path) -> None:
    env = _signed_env(project)
    mockpolicy("check", "--no-baseline", cwd=project, env=env)  # seven files: modules are parsed whole
    assert not [name for name in _summaries(project) if name.startswith("skeleton:")]
    fresh = mockpolicy("check", "--no-baseline", "--no-cache", "tests/test_jobs.py", cwd=project, env=env)
    assert _warm_summaries_only(project, env, "tests/test_jobs.py").stdout == fresh.stdout  # one file: skeletons
    kept = _summaries(project)
    assert {name.partition(":")[0] for name in kept} == {"skeleton", "helper words", "helper word parts"}  # no callers
    assert any(body["record"]["spans"] for name, (_, body) in kept.items() if name.startswith("skeleton:"))  # type: ignore[index]
    stamps = {name: path.stat().st_mtime_ns for name, (path, _) in kept.items()}
    warm = _warm_summaries_only(project, env, "tests/test_jobs.py")
    assert (warm.returncode, warm.stdout) == (fresh.returncode, fresh.stdout)
    assert {name: path.stat().st_mtime_ns for name, (path, _) in _summaries(project).items()} == stamps


def test_a_signed_summary_is_what_the_run_reads(project: Path) -> None:
    """The records are used, not only written: a record this user's key signs
    is trusted (here one saying no source file calls anything drops the
    partial-mock finding that names a caller); removing it brings the finding back."""
    project = write_tree(project.parent / "callers", CALLERS_FILES)
    env = _signed_env(project)
    before = mockpolicy("check", "--no-baseline", "tests/test_gates.py", cwd=project, env=env).stdout
    assert "app.gates.door: else jobs.is_open(name)" in before
    assert {name.partition(":")[0] for name in _summaries(project)} == {"skeleton", "calls", "called words", "callers"}
    (callers_path, callers_body), = [  # of app.jobs.is_open; others are of the callers, reaching the test
        (path, body) for name, (path, body) in _summaries(project).items()
        if name.startswith("callers:") and "app.gates.door" in json.dumps(body)
    ]
    callers_path.unlink()  # the words are read only when the callers are looked for again
    (path, body), = [found for name, found in _summaries(project).items() if name.startswith("called words:")]
    path.write_bytes(_sign({**body, "record": [[] for _ in body["record"]]}))  # type: ignore[attr-defined]
    assert "app.gates.door" not in _warm_summaries_only(project, env, "tests/test_gates.py").stdout
    path.unlink()
    callers_path.unlink()
    assert _warm_summaries_only(project, env, "tests/test_gates.py").stdout == before
    # the callers found are kept with what they were found from, and served while it holds
    assert json.loads(callers_path.read_bytes().partition(b"\n")[2]) == callers_body
    record = callers_body["record"]
    assert record["record"] == [["app.gates", "app.gates.door", "", [[5, 7, 5, 25]]]]  # type: ignore[index]
    assert "w::" in record["facts"] and "m:p:app.gates" in record["facts"]  # type: ignore[index]
    callers_path.write_bytes(_sign({**callers_body, "record": {**record, "record": []}}))  # type: ignore[dict-item]
    assert "app.gates.door" not in _warm_summaries_only(project, env, "tests/test_gates.py").stdout


@pytest.mark.parametrize("damage", ["truncated", "garbage", "forged", "misfitting", "stale format"])
def test_a_damaged_or_foreign_summary_is_ignored_and_rewritten(project: Path, damage: str) -> None:
    env = _signed_env(project)
    fresh = mockpolicy("check", "--no-baseline", "--no-cache", "tests/test_jobs.py", cwd=project, env=env)
    mockpolicy("check", "--no-baseline", "tests/test_jobs.py", cwd=project, env=env)
    (path, body), = [found for name, found in _summaries(project).items() if name.startswith("skeleton:") and "app.jobs" in name]
    data = path.read_bytes()
    if damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        path.write_bytes(b"\x00\xff" * 100)
    elif damage == "forged":  # committed by a pull request: not signed with this user's key
        path.write_bytes(b"0" * 64 + b"\n" + data.partition(b"\n")[2])
    elif damage == "misfitting":  # signed, but its bodies lie outside the module
        path.write_bytes(_sign({**body, "record": {"spans": [[900, 999, "    "]], "functions": [[1, 2]]}}))
    else:  # written by another version of mockpolicy
        path.write_bytes(_sign({**body, "namespace": "0" * 32}))
    warm = _warm_summaries_only(project, env, "tests/test_jobs.py")
    assert (warm.returncode, warm.stdout) == (fresh.returncode, fresh.stdout)
    assert path.read_bytes() == data  # written again, whole


def test_the_helper_words_kept_are_what_the_run_reads(project: Path) -> None:
    """The names of the tests' possible mock helpers are kept by the digests
    of the test files they were read from: a record this user's key signs is
    trusted (here one naming no helper leaves a file that only calls a helper
    unanalysed); removed, it is found again; an edited test file is another key."""
    EDITS["a helper of the tests"](project)
    env = _signed_env(project)
    before = mockpolicy("check", "--no-baseline", cwd=project, env=env).stdout
    assert "tests/test_plain.py:4:1: first-party-mock" in before
    (path, body), = [found for name, found in _summaries(project).items() if name.startswith("helper words:")]
    assert "swap_in" in body["record"]  # type: ignore[operator]
    path.write_bytes(_sign({**body, "record": []}))
    shutil.rmtree(project / ".mockpolicy_cache" / "findings")
    assert "tests/test_plain.py" not in mockpolicy("check", "--no-baseline", cwd=project, env=env).stdout
    path.unlink()
    shutil.rmtree(project / ".mockpolicy_cache" / "findings")
    assert mockpolicy("check", "--no-baseline", cwd=project, env=env).stdout == before
    write_tree(project, {"tests/support.py": "def swap_in(target):\n    return target\n"})  # no longer a helper
    assert "tests/test_plain.py" not in mockpolicy("check", "--no-baseline", cwd=project, env=env).stdout


def test_after_an_edit_the_helper_words_of_the_other_test_files_are_not_read_again(project: Path) -> None:
    """Each test file's part of the helper words is kept by its digest: after
    another file's edit, the part kept is what the run reads (here a signed
    part of tests/support.py naming no helper leaves the file calling its
    helper unanalysed), and a part not well formed is read again."""
    EDITS["a helper of the tests"](project)
    env = _signed_env(project)
    before = mockpolicy("check", "--no-baseline", cwd=project, env=env).stdout
    assert "tests/test_plain.py:4:1: first-party-mock" in before
    (path, body), = [found for name, found in _summaries(project).items() if name.startswith("helper word parts:")]
    parts: dict[str, list[object]] = body["record"]  # type: ignore[assignment]
    support = digest((project / "tests" / "support.py").read_bytes())
    assert parts[support][0] == ["swap_in"]

    def edit_another_test_file(line: str) -> None:  # the files' digests give the words another key
        with (project / "tests" / "test_jobs.py").open("a") as handle:
            handle.write(line)
        shutil.rmtree(project / ".mockpolicy_cache" / "findings")

    path.write_bytes(_sign({**body, "record": {**parts, support: [[], []]}}))
    edit_another_test_file("# one\n")
    assert "tests/test_plain.py" not in mockpolicy("check", "--no-baseline", cwd=project, env=env).stdout
    path.write_bytes(_sign({**body, "record": {**parts, support: [["swap_in"], "not a list"]}}))
    edit_another_test_file("# two\n")
    assert mockpolicy("check", "--no-baseline", cwd=project, env=env).stdout == before
    assert json.loads(path.read_bytes().partition(b"\n")[2])["record"][support][0] == ["swap_in"]  # read again, kept
