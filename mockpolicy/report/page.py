"""``mockpolicy report``'s one entry point: the analysis, the baseline's
history, and the page written to a file."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path

from mockpolicy import gitio, workers
from mockpolicy.errors import MockpolicyError
from mockpolicy.project import Project
from mockpolicy.report import history, model
from mockpolicy.report.gather import Gathered, gather
from mockpolicy.report.model import Judged
from mockpolicy.report.render import render

__all__ = ["Gathered", "Judged", "gather", "history_beside", "write"]


class ReportError(MockpolicyError):
    """The page cannot be written."""


def history_beside(project: Project, depth: int) -> AbstractContextManager[Callable[[], history.History]]:
    """The baseline's history, read in a second process while this one analyses:
    parsing a large baseline's versions costs about as much as a third of the analysis."""
    return workers.beside(functools.partial(history.read, project, depth))


def write(
    project: Project,
    gathered: Gathered,
    judged: Judged,
    output: Path,
    past: history.History,
    analysed: Sequence[str],
    files_analysed: int,
) -> model.Report:
    """Write the report page to ``output`` and return what it shows."""
    try:
        commit = gitio.head(project.root)
    except gitio.GitError:
        commit = ""
    report = model.build(project, gathered, judged, past, output, analysed, files_analysed, commit)
    text = render(report)
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ReportError(f"{output}: cannot be written ({exc.strerror or exc}).") from None
    return report
