"""``text`` (pylint's ``path:line:col: symbol message`` shape) and ``json``."""

from __future__ import annotations

import json
from collections.abc import Sequence

from mockpolicy.findings import Finding
from mockpolicy.formats.context import rule_info
from mockpolicy.printable import printable


def text(findings: Sequence[Finding]) -> str:
    return "".join(printable(f"{f.path}:{f.line}:{f.column}: {f.symbol} {f.message}") + "\n" for f in findings)


def json_list(findings: Sequence[Finding]) -> str:
    return json.dumps([_as_dict(f) for f in findings], indent=2) + "\n"


def _as_dict(finding: Finding) -> dict[str, object]:
    rule = rule_info(finding.symbol)
    return {
        "symbol": finding.symbol,
        "message_id": rule.msgid,
        "path": finding.path,
        "line": finding.line,
        "column": finding.column,
        "end_line": finding.end_line,
        "end_column": finding.end_column,
        "scope": finding.scope,
        "message": finding.message,
        "doc_url": rule.help_uri,
    }
