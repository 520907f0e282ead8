"""``pylint --load-plugins mockpolicy``: real pylint runs in subprocesses."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conftest import pylint, run, write_tree

BAD_MOCK = """
    from unittest import mock


    def test_claim():
        with mock.patch("app.jobs.Runner.claim", autospec=True):
            pass
    """
ENABLE = ["--disable=all", "--enable=mockpolicy", "--output-format=json2"]


def messages(result) -> list[dict[str, object]]:  # type: ignore[no-untyped-def]
    assert "Traceback" not in result.stderr, result.stderr
    return list(json.loads(result.stdout)["messages"])


def test_plugin_reports_with_end_positions(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    [message] = messages(pylint(*ENABLE, "tests", cwd=app_project))
    assert (message["symbol"], message["messageId"]) == ("first-party-mock", "W7301")
    assert (message["line"], message["column"], message["endLine"]) == (5, 9, 5)
    assert "app.jobs.Runner.claim" in str(message["message"])


def test_plugin_and_cli_agree(app_project: Path) -> None:
    write_tree(app_project, {
        "tests/test_a.py": BAD_MOCK,
        "tests/test_b.py": BAD_MOCK.replace("Runner.claim", "run").replace("test_claim", "test_run"),
    })
    from_pylint = sorted((m["path"], m["line"], m["symbol"]) for m in messages(pylint(*ENABLE, "tests", cwd=app_project)))
    cli = run([sys.executable, "-m", "mockpolicy", "check", "--format", "json"], cwd=app_project)
    from_cli = sorted((f["path"], f["line"], f["symbol"]) for f in json.loads(cli.stdout))
    assert from_pylint == from_cli
    assert len(from_cli) == 2


def test_plugin_under_two_jobs(app_project: Path) -> None:
    write_tree(app_project, {f"tests/test_{n}.py": BAD_MOCK for n in range(6)})
    serial = messages(pylint(*ENABLE, "tests", cwd=app_project))
    parallel = messages(pylint(*ENABLE, "-j", "2", "tests", cwd=app_project))
    key = lambda m: (m["path"], m["line"], m["symbol"])  # noqa: E731
    assert sorted(map(key, serial)) == sorted(map(key, parallel))
    assert len(parallel) == 6


def test_pylint_disable_comment_is_honoured(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK.replace(
        "autospec=True):", "autospec=True):  # pylint: disable=first-party-mock"
    )})
    assert messages(pylint(*ENABLE, "tests", cwd=app_project)) == []


def test_broken_configuration_does_not_crash_pylint(app_project: Path) -> None:
    (app_project / "pyproject.toml").write_text("[project]\nname = 'app'\n[tool.mockpolicy]\nfirst-party = 7\n")
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    found = messages(pylint(*ENABLE, "tests", cwd=app_project))
    assert [m["symbol"] for m in found] == ["mock-analysis-error"]
    assert "pyproject.toml: [tool.mockpolicy] first-party must be a list of strings" in str(found[0]["message"])


def test_syntax_error_is_pylints_and_other_files_are_checked(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK, "tests/test_broken.py": "def test_x(:\n    pass\n"})
    result = pylint("--disable=all", "--enable=mockpolicy,syntax-error", "--output-format=json2", "tests", cwd=app_project)
    symbols = sorted(m["symbol"] for m in messages(result))
    assert symbols == ["first-party-mock", "syntax-error"]


def test_checker_package_is_a_namespace() -> None:
    import mockpolicy
    import pylint_plugins

    assert not hasattr(pylint_plugins, "__file__") or pylint_plugins.__file__ is None
    assert callable(mockpolicy.register)


def test_rules_pylint_disables_cost_nothing_and_pragmas_still_count(app_project: Path) -> None:
    reasonless = BAD_MOCK.replace("        with mock", "        # mock-boundary:\n        with mock")
    write_tree(app_project, {
        "tests/test_a.py": reasonless,
        "tests/test_b.py": "\n    # pylint: enable=first-party-mock" + BAD_MOCK.replace("test_claim", "test_b"),
        "tests/test_c.py": BAD_MOCK.replace("test_claim", "test_c"),
    })
    only = ["--disable=all", "--enable=mock-annotation-without-reason", "--output-format=json2"]
    found = sorted((m["path"], m["symbol"]) for m in messages(pylint(*only, "tests", cwd=app_project)))
    # The annotation's rule needs the first-party family's notes; test_b's own pragma enables its rule.
    assert found == [("tests/test_a.py", "mock-annotation-without-reason"), ("tests/test_b.py", "first-party-mock")]
