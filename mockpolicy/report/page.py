"""``mockpolicy report``'s one entry point: the analysis, the baseline's
history, and the page written to a file."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from mockpolicy import gitio
from mockpolicy.errors import MockpolicyError
from mockpolicy.findings import Finding
from mockpolicy.project import Project
from mockpolicy.report import history, model
from mockpolicy.report.gather import Gathered, gather
from mockpolicy.report.render import render

__all__ = ["Gathered", "gather", "write"]


class ReportError(MockpolicyError):
    """The page cannot be written."""


def write(
    project: Project,
    gathered: Gathered,
    covered: Sequence[Finding] | None,
    covers: Callable[[str], bool],
    output: Path,
    depth: int,
    analysed: Sequence[str],
    files_analysed: int,
) -> model.Report:
    """Write the report page to ``output`` and return what it shows."""
    try:
        commit = gitio.head(project.root)
    except gitio.GitError:
        commit = ""
    report = model.build(project, gathered, covered, covers, history.read(project, depth), output, analysed,
                         files_analysed, commit)
    text = render(report)
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ReportError(f"{output}: cannot be written ({exc.strerror or exc}).") from None
    return report
