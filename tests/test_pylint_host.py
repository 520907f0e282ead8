"""The plugin as a guest in pylint's process: it analyses the bytes pylint
analyses (editors' unsaved buffers), keeps nothing between runs but module
summaries keyed by the bytes of the modules it read (and the callers of
mocked functions, with the facts of what their search read), leaves the
host's garbage collector alone and registers once per linter."""

from __future__ import annotations

import json
import os
import sys
import textwrap
import venv
from pathlib import Path

import pytest
from conftest import CALLERS_FILES, REPO, executable, mockpolicy, pylint, run, write_tree

BAD_MOCK = textwrap.dedent("""\
    from unittest import mock


    def test_claim():
        with mock.patch("app.jobs.Runner.claim", autospec=True):
            pass
    """)
ENABLE = ["--disable=all", "--enable=mockpolicy", "--output-format=json2"]


def lint_buffer(project: Path, relative: str, buffer: str, *extra: str) -> list[dict[str, object]]:
    """pylint's messages for ``buffer`` given on stdin as the contents of ``relative``."""
    result = run(
        [executable("pylint"), "--load-plugins", "mockpolicy", "--persistent=n", *ENABLE, *extra,
         "--from-stdin", relative],
        cwd=project, stdin=buffer,
    )
    assert "Traceback" not in result.stderr, result.stderr
    return list(json.loads(result.stdout)["messages"])


def test_an_editor_buffer_is_analysed_not_the_file_on_disk(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    shifted = "# a\n# b\n# c\n# d\n# e\n# f\n# g\n" + BAD_MOCK
    [message] = lint_buffer(app_project, "tests/test_jobs.py", shifted)
    assert (message["symbol"], message["line"], message["column"]) == ("first-party-mock", 12, 9)


def test_a_buffer_that_fixed_the_mock_reports_nothing_and_new_mocks_are_seen(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    fixed = BAD_MOCK.replace('"app.jobs.Runner.claim"', '"app.jobs.time.sleep"')
    assert lint_buffer(app_project, "tests/test_jobs.py", fixed) == []
    added = fixed + '\n\ndef test_run():\n    with mock.patch("app.jobs.run", autospec=True):\n        pass\n'
    found = lint_buffer(app_project, "tests/test_jobs.py", added)
    assert [(m["symbol"], m["line"]) for m in found] == [("first-party-mock", 10)]


def test_a_half_typed_file_on_disk_does_not_matter(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": "def test_claim(:\n"})
    found = lint_buffer(app_project, "tests/test_jobs.py", BAD_MOCK)
    assert [m["symbol"] for m in found] == ["first-party-mock"]


def test_a_new_unsaved_file_is_analysed(app_project: Path) -> None:
    assert not (app_project / "tests" / "test_new.py").exists()
    found = lint_buffer(app_project, "tests/test_new.py", BAD_MOCK)
    assert [(m["symbol"], m["line"]) for m in found] == [("first-party-mock", 5)]


def test_disable_comments_in_the_buffer_silence_the_buffers_findings(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": "# moved\n" * 3 + BAD_MOCK})
    disabled = BAD_MOCK.replace("autospec=True):", "autospec=True):  # pylint: disable=first-party-mock")
    assert lint_buffer(app_project, "tests/test_jobs.py", disabled) == []


ONLY_SHARED_STATE = """
    import os
    import sys


    def test_flag():
        os.environ["APP_FLAG"] = "1"
        sys.modules["app_fake"] = object()
    """


def test_shared_state_changes_are_found_in_files_without_mocks(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_flags.py": ONLY_SHARED_STATE})
    expected = [("unrestored-environ-mutation", 6), ("unrestored-sys-modules-mutation", 7)]
    result = pylint(*ENABLE, "tests", cwd=app_project)
    assert sorted((m["symbol"], m["line"]) for m in json.loads(result.stdout)["messages"]) == expected
    cli = mockpolicy("check", "--format", "json", cwd=app_project)
    assert sorted((f["symbol"], f["line"]) for f in json.loads(cli.stdout)) == expected


TWO_RUNS = """
import gc, json, sys
from pathlib import Path
from pylint.lint import Run
from pylint.reporters import CollectingReporter

def lint():
    reporter = CollectingReporter()
    Run(["--load-plugins", "mockpolicy", "--persistent=n", "--disable=all", "--enable=mockpolicy",
         *sys.argv[1:], "tests"], reporter=reporter, exit=False)
    return sorted((m.symbol, m.line) for m in reporter.messages)

enabled = gc.isenabled()
first = lint()
jobs = Path("src/app/jobs.py")
jobs.write_text(jobs.read_text().replace("def claim(", "def take("))
second = lint()
print(json.dumps({"first": first, "second": second, "frozen": gc.get_freeze_count(),
                  "gc_enabled_before": enabled, "gc_enabled_after": gc.isenabled()}))
"""


@pytest.mark.parametrize("clear", [[], ["--clear-cache-post-run=y"]], ids=["default", "clear-cache-post-run"])
def test_two_runs_in_one_process_see_an_edit_and_leave_gc_alone(app_project: Path, clear: list[str]) -> None:
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK.replace("autospec=True", "autospec=True, create=False")})
    result = run([sys.executable, "-c", TWO_RUNS, *clear], cwd=app_project)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.splitlines()[-1])
    assert report["first"] == [["first-party-mock", 5]]
    assert ["mock-target-not-found", 5] in report["second"]
    assert report["frozen"] == 0
    assert report["gc_enabled_before"] and report["gc_enabled_after"]


def test_register_is_idempotent() -> None:
    from pylint.lint import PyLinter

    import mockpolicy

    linter = PyLinter()
    mockpolicy.register(linter)
    mockpolicy.register(linter)
    assert [c.name for c in linter.get_checkers()].count("mockpolicy") == 1


@pytest.mark.slow
def test_pylint_3_3_with_two_jobs_prints_each_message_once(app_project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """pylint 3.3's workers load plugins again into the linter they received."""
    env_dir = tmp_path_factory.mktemp("pylint33")
    venv.create(env_dir, with_pip=True, system_site_packages=False)
    python = str(env_dir / "bin" / "python")
    install = run([python, "-m", "pip", "install", "-q", "pylint>=3.3,<3.4", "astroid>=3.3,<3.4", str(REPO)], cwd=env_dir)
    if install.returncode != 0 and "No matching distribution" in install.stderr:
        pytest.skip("pylint 3.3 cannot be installed here")
    assert install.returncode == 0, install.stderr
    write_tree(app_project, {f"tests/test_{n}.py": BAD_MOCK for n in range(4)})
    lint = run([python, "-m", "pylint", "--load-plugins", "mockpolicy", "--persistent=n", *ENABLE, "-j", "2", "tests"],
               cwd=app_project, env={"PATH": f"{env_dir / 'bin'}{os.pathsep}{os.environ['PATH']}"})
    version = run([python, "-m", "pylint", "--version"], cwd=app_project).stdout
    assert version.startswith("pylint 3.3"), version
    found = sorted((m["path"], m["line"], m["symbol"]) for m in json.loads(lint.stdout)["messages"])
    assert len(found) == 4 and len(set(found)) == 4, found


def test_the_plugin_keeps_module_summaries_and_still_sees_an_edit(app_project: Path) -> None:
    """What the plugin learns of the modules it reads from disk is kept in the
    project's cache, keyed by their bytes: an edit between runs is seen."""
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    lint = [executable("pylint"), "--load-plugins", "mockpolicy", "--persistent=n", *ENABLE, "tests"]
    first = json.loads(run(lint, cwd=app_project).stdout)["messages"]
    assert [m["symbol"] for m in first] == ["first-party-mock"]
    assert list((app_project / ".mockpolicy_cache" / "summaries").glob("*.json"))
    assert json.loads(run(lint, cwd=app_project).stdout)["messages"] == first
    jobs = app_project / "src" / "app" / "jobs.py"
    jobs.write_text(jobs.read_text(encoding="utf-8").replace("def claim(self)", "def claimed(self)"), encoding="utf-8")
    assert [m["symbol"] for m in json.loads(run(lint, cwd=app_project).stdout)["messages"]] == ["mock-target-not-found"]


CALLING = {**CALLERS_FILES, "src/app/porch.py": "def step(name):\n    return bool(name)\n"}


def _summary_kinds(project: Path) -> set[str]:
    found = set()
    for path in (project / ".mockpolicy_cache" / "summaries").glob("*.json"):
        found.add(json.loads(path.read_bytes().partition(b"\n")[2])["kind"])
    return found


def test_the_plugin_keeps_the_callers_it_found_and_still_sees_a_new_one(app_project: Path) -> None:
    """The callers of a partially mocked function, searched for in the code
    under test, are kept with the facts of what the search read: the next run
    reports the same, and a module starting to call it between runs is seen."""
    write_tree(app_project, CALLING)
    lint = [executable("pylint"), "--load-plugins", "mockpolicy", "--persistent=n", *ENABLE, "tests"]

    def partial_mocks() -> list[str]:
        messages = json.loads(run(lint, cwd=app_project).stdout)["messages"]
        return [str(m["message"]) for m in messages if m["symbol"] == "undocumented-partial-mock"]

    first = partial_mocks()
    assert len(first) == 1 and "app.gates.door: else jobs.is_open(name)" in first[0]
    assert "callers" in _summary_kinds(app_project)
    assert partial_mocks() == first
    write_tree(app_project, {"src/app/porch.py": """
        from app import jobs


        def step(name):
            while jobs.is_open(name):
                return True
            return False
        """})
    after = partial_mocks()
    assert len(after) == 1 and "app.porch.step: else jobs.is_open(name)" in after[0]
