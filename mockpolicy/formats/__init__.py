"""Output formats: each outside format is known in one module of this package,
and ``render``/``emit`` are the one entry point every command calls.

- ``text``, ``json``: see ``plain``; ``sarif``: SARIF 2.1.0 for code scanning;
  ``rdjson``: reviewdog; ``github``: workflow commands; ``gitlab``: Code
  Quality; ``markdown``: a pull-request summary.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from mockpolicy.findings import Finding
from mockpolicy.formats import github, gitlab, markdown, plain, rdjson, sarif
from mockpolicy.formats.context import Context, RuleInfo, TrendPoint

__all__ = ["FORMATS", "Context", "RuleInfo", "TrendPoint", "emit", "render"]

FORMATS = ("text", "json", "sarif", "rdjson", "github", "gitlab", "markdown")


def render(findings: Sequence[Finding], fmt: str, context: Context | None = None) -> str:
    """``findings`` (paths relative to ``context.root``) in format ``fmt``:
    newline-terminated text, or "" for ``text`` with no findings."""
    context = context or Context()
    if fmt == "json":
        return plain.json_list(findings)
    if fmt == "sarif":
        return sarif.render(findings, context)
    if fmt == "rdjson":
        return rdjson.render(findings, context)
    if fmt == "github":
        return github.render(findings, context)[0]
    if fmt == "gitlab":
        return gitlab.render(findings, context)
    if fmt == "markdown":
        return markdown.render(findings, context)
    if fmt == "text":
        return plain.text(findings)
    raise ValueError(f"unknown format {fmt!r}")


def emit(findings: Sequence[Finding], fmt: str, context: Context, stream: TextIO, colour: bool = False) -> None:
    """Write ``findings`` to ``stream``; for ``github``, append what exceeds the
    annotation limits to ``$GITHUB_STEP_SUMMARY`` (without it, the Markdown
    table goes to ``stream``, so nothing is lost)."""
    if fmt == "text":
        stream.write(plain.text(findings, colour))
        return
    if fmt != "github":
        stream.write(render(findings, fmt, context))
        return
    commands, summary = github.render(findings, context)
    stream.write(commands)
    if not summary:
        return
    summary_path = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary_path:
        with Path(summary_path).open("a", encoding="utf-8") as handle:
            handle.write(summary)
    else:
        stream.write(summary)
