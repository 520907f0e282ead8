"""mockpolicy's pytest plugin (the ``pytest11`` entry point ``mockpolicy``).

Inert unless a record is asked for, with ``pytest --mockpolicy-record[=PATH]``
or ``record = true`` (or a path) in ``[tool.mockpolicy]``: then it registers
the recorder (``mockpolicy.runtime.recorder``), which writes the record at
the end of the session. Importing this module imports nothing but the
standard library's ``pathlib``; when recording is off, a run costs one look
for the project's ``pyproject.toml``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pytest

DEFAULT_RECORD = ".mockpolicy/runtime.json"
_ROOT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py")  # as mockpolicy.project.find_root


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mockpolicy", "mockpolicy runtime record")
    group.addoption(
        "--mockpolicy-record", nargs="?", const="", default=None, metavar="PATH", dest="mockpolicy_record",
        help=f"record test pollution and what every mock replaced, in PATH (default: {DEFAULT_RECORD} "
        "in the project root); write --mockpolicy-record=PATH",
    )


def pytest_configure(config: pytest.Config) -> None:
    asked = config.getoption("mockpolicy_record", None)
    root = _project_root(config.rootpath)
    if asked is None and not _configured(root):
        return
    import pytest

    from mockpolicy.errors import MockpolicyError
    from mockpolicy.project import load_project

    if asked and _looks_like_a_test_path(config, asked):
        raise pytest.UsageError(
            f"--mockpolicy-record took '{asked}' as the record's path; write --mockpolicy-record=PATH, "
            "or put the option after the test paths."
        )
    try:
        project = load_project(root)
    except MockpolicyError as exc:
        config.issue_config_time_warning(pytest.PytestConfigWarning(f"mockpolicy: not recording: {exc}"), stacklevel=2)
        return
    setting = project.settings.get("record", False)
    if asked is None and setting is False:
        return
    if asked:
        out = config.invocation_params.dir / asked
    else:
        out = project.root / (setting if isinstance(setting, str) else DEFAULT_RECORD)
    from mockpolicy.runtime.recorder import Recorder

    recorder = Recorder(config, out, project.root, project.first_party)
    config.pluginmanager.register(recorder, "mockpolicy-recorder")
    recorder.start()


def _project_root(start: Path) -> Path:
    start = start.resolve()
    for candidate in (start, *start.parents):
        if any((candidate / marker).is_file() for marker in _ROOT_MARKERS):
            return candidate
    return start


def _configured(root: Path) -> bool:
    """Whether the project's pyproject.toml may ask for a record (read fully only then)."""
    try:
        data = (root / "pyproject.toml").read_bytes()
    except OSError:
        return False
    return b"mockpolicy" in data and b"record" in data


def _looks_like_a_test_path(config: pytest.Config, value: str) -> bool:
    """``--mockpolicy-record tests`` takes ``tests`` as the path of the record."""
    path = config.invocation_params.dir / value.split("::", 1)[0]
    return "::" in value or value.endswith(".py") or path.is_dir()
