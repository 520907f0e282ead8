"""Whether the coverage configuration records per-test contexts at all."""

from __future__ import annotations

import os
import sys

from mockpolicy.project import Project
from mockpolicy.source import SourceError, read_source

SYSMON_WARNING = (
    'mockpolicy: warning: on Python 3.14+ set coverage\'s `[run] core = "ctrace"` (or COVERAGE_CORE=ctrace): '
    "the default sys.monitoring core records no per-test contexts."
)


def sysmon_warning(project: Project) -> str | None:
    """``SYSMON_WARNING`` on Python 3.14+, where coverage defaults to
    sys.monitoring (which records no per-test contexts), when neither the
    environment nor a configuration file of ``project`` pins the ctrace core;
    else None."""
    if sys.version_info < (3, 14):
        return None
    pinned = os.environ.get("COVERAGE_CORE", "") == "ctrace"
    for name in (".coveragerc", "setup.cfg", "tox.ini", "pyproject.toml"):
        config = project.root / name
        try:
            if config.is_file() and "ctrace" in read_source(config).decode("utf-8", errors="replace"):
                pinned = True
        except SourceError:
            continue  # an unreadable file pins nothing
    return None if pinned else SYSMON_WARNING
