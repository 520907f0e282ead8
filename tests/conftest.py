"""Shared fixtures: our tests run the real tools (pylint, the mockpolicy
command, pytest, git) in subprocesses, or ``mockpolicy.cli.main`` in this
process where a test is about behaviour rather than the console script;
nothing of mockpolicy's is mocked."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
EXAMPLE = REPO / "examples" / "shop"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-functional-output",
        action="store_true",
        default=False,
        help="rewrite the expected .txt of the functional cases from the current output",
    )
    parser.addoption(  # read by pylint.testutils.LintModuleTest
        "--minimal-messages-config", action="store_true", default=False, help=argparse.SUPPRESS
    )


def executable(name: str) -> str:
    """The console script ``name`` installed beside the running interpreter."""
    candidate = Path(sys.executable).parent / name
    found = str(candidate) if candidate.exists() else shutil.which(name)
    assert found, f"{name} is not installed in this environment"
    return found


def run(args: list[str], cwd: Path, env: dict[str, str] | None = None, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run a real command; never raises on a non-zero exit."""
    full_env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", **(env or {})}
    return subprocess.run(
        args, cwd=cwd, env=full_env, input=stdin, capture_output=True, text=True, timeout=600, check=False
    )


def mockpolicy(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run([executable("mockpolicy"), *args], cwd=cwd, env=env)




def mockpolicy_in_process(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """What ``mockpolicy(*args, cwd=cwd, env=env)`` returns, from
    ``mockpolicy.cli.main(args)`` run in this process: no interpreter to start.
    Each run has its own session, so nothing an earlier run learnt is reused."""
    from mockpolicy.cli import main

    where = cwd.resolve()
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as monkeypatch, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        monkeypatch.chdir(where)
        for name, value in (env or {}).items():
            monkeypatch.setenv(name, value)
        try:
            status = main(list(args))
        except SystemExit as exit_:  # argparse's usage errors and --version; the status as the interpreter sets it
            status = exit_.code if isinstance(exit_.code, int) else int(exit_.code is not None)
    return subprocess.CompletedProcess(["mockpolicy", *args], status, out.getvalue(), err.getvalue())


def pylint(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run([executable("pylint"), "--load-plugins", "mockpolicy", "--persistent=n", *args], cwd=cwd)


def git(repo: Path, *args: str) -> str:
    """Run git in ``repo`` with a fixed identity; fails the test if git fails."""
    result = run(["git", *args], cwd=repo, env={
        "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
    })
    assert result.returncode == 0, result.stderr
    return result.stdout


def baseline_entries(path: Path) -> list[tuple[str, str, str, int]]:
    """The entries of the baseline file at ``path`` as (path, scope, rule, count), sorted."""
    from mockpolicy.baseline import load

    return sorted((i.path, i.scope, i.rule, count) for i, count in load(path).counts.items())


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Create ``files`` (relative path -> dedented text) under ``root``."""
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return root


APP_FILES = {
    "pyproject.toml": """
        [project]
        name = "app"
        version = "0"
        """,
    "src/app/__init__.py": "",
    "src/app/jobs.py": """
        import logging
        import time

        LOG = logging.getLogger(__name__)
        RETRIES = 3


        class Runner:
            def claim(self):
                time.sleep(0)
                return "claimed"


        def run():
            return Runner().claim()
        """,
}


CALLERS_FILES = {  # a partially mocked function with callers in the code under test
    **APP_FILES,
    "src/app/gates.py": """
        from app import jobs


        def door(name):
            if jobs.is_open(name):
                return "in"
            return "out"
        """,
    "src/app/jobs.py": """
        def is_open(name):
            return bool(name)
        """,
    "src/app/service.py": """
        from app import porch


        def run(name):
            return porch.step(name)
        """,
    "tests/test_gates.py": """
        from app import gates, service


        def test_open(mocker):
            mocker.patch("app.jobs.is_open", return_value=True, autospec=True)  # mock-boundary: a slow check
            assert gates.door("x") == "in"
            assert service.run("x")
        """,
}


@pytest.fixture
def app_project(tmp_path: Path) -> Path:
    """A small src-layout project named ``app`` with an empty tests folder."""
    write_tree(tmp_path, APP_FILES)
    (tmp_path / "tests").mkdir()
    return tmp_path
