"""``github``: GitHub Actions workflow commands (``::warning file=...::message``).

GitHub shows at most 10 annotations of each kind (error, warning, notice) per
step; findings past that go into a Markdown table for the job summary
(``$GITHUB_STEP_SUMMARY``), so none is lost.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from mockpolicy.findings import Finding
from mockpolicy.formats.context import Context, Sources
from mockpolicy.formats.markdown import escape
from mockpolicy.printable import printable

PER_KIND = 10
_COMMAND = {"error": "error", "warning": "warning", "note": "notice"}


def _data(text: str) -> str:
    """``text`` as a workflow command's data: GitHub's escapes for ``%``, CR and
    LF, and backslash escapes for any other control character."""
    return printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def render(findings: Sequence[Finding], context: Context) -> tuple[str, str]:
    """The workflow commands, and the job-summary Markdown for what did not fit
    ("" when everything did)."""
    sources = Sources(context.root)
    shown: Counter[str] = Counter()
    commands, rest = [], []
    for finding in findings:
        rule = context.rule(finding.symbol)
        kind = _COMMAND[rule.level]
        if shown[kind] >= PER_KIND:
            rest.append(finding)
            continue
        shown[kind] += 1
        properties = {
            "file": context.repository_path(finding.path),
            "line": str(finding.line),
            "col": str(sources.character_column(finding.path, finding.line, finding.column) + 1),
        }
        if finding.end_line is not None:
            properties["endLine"] = str(finding.end_line)
        properties["title"] = f"{finding.symbol} ({rule.msgid})"
        joined = ",".join(f"{name}={_property(value)}" for name, value in properties.items())
        help_text = f" See {rule.help_uri}" if rule.help_uri else ""
        commands.append(f"::{kind} {joined}::{_data(finding.message + help_text)}\n")
    if rest:
        commands.append(
            f"::notice title=mockpolicy::{len(rest)} more finding(s) than GitHub annotates in one step; "
            "they are listed in the job summary.\n"
        )
    return "".join(commands), _summary(rest, context)


def _summary(rest: Sequence[Finding], context: Context) -> str:
    if not rest:
        return ""
    lines = [
        f"### mockpolicy: {len(rest)} finding(s) beyond GitHub's annotation limit",
        "",
        "| file | line | rule | message |",
        "|---|---:|---|---|",
    ]
    for finding in rest:
        rule = context.rule(finding.symbol)
        name = f"[{finding.symbol}]({rule.help_uri})" if rule.help_uri else finding.symbol
        lines.append(f"| {escape(context.repository_path(finding.path))} | {finding.line} | {name} | {escape(finding.message)} |")
    return "\n".join(lines) + "\n"
