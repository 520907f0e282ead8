"""``rdjson``: reviewdog's diagnostic JSON (``reviewdog -f=rdjson``).

Positions are 1-based lines and 1-based UTF-8 byte columns; each diagnostic
carries its severity, the rule as ``code`` with the page's URL, and a
suggestion where the fix is mechanical.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from mockpolicy.findings import Finding
from mockpolicy.fixes import fix_for
from mockpolicy.formats.context import TOOL_URL, Context, Sources

_SEVERITY = {"error": "ERROR", "warning": "WARNING", "note": "INFO"}


def render(findings: Sequence[Finding], context: Context) -> str:
    sources = Sources(context.root)
    diagnostics = [_diagnostic(finding, context, sources) for finding in findings]
    document = {"source": {"name": "mockpolicy", "url": TOOL_URL}, "severity": "WARNING", "diagnostics": diagnostics}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _position(line: int, byte_column: int) -> dict[str, int]:
    return {"line": line, "column": byte_column + 1}


def _diagnostic(finding: Finding, context: Context, sources: Sources) -> dict[str, Any]:
    rule = context.rule(finding.symbol)
    location: dict[str, Any] = {"path": context.repository_path(finding.path), "range": {"start": _position(finding.line, finding.column)}}
    if finding.end_line is not None and finding.end_column is not None:
        location["range"]["end"] = _position(finding.end_line, finding.end_column)
    code: dict[str, str] = {"value": finding.symbol}
    if rule.help_uri:
        code["url"] = rule.help_uri
    diagnostic: dict[str, Any] = {
        "message": finding.message,
        "location": location,
        "severity": _SEVERITY[rule.level],
        "code": code,
        "original_output": f"{context.repository_path(finding.path)}:{finding.line}:{finding.column}: {finding.symbol} {finding.message}",
    }
    fix = fix_for(finding, sources.line(finding.path, finding.line))
    if fix is not None:
        diagnostic["suggestions"] = [
            {
                "range": {"start": _position(fix.line, fix.column), "end": _position(fix.line, fix.end_column)},
                "text": fix.replacement,
            }
        ]
    return diagnostic
