"""``text`` (pylint's ``path:line:col: symbol message`` shape) and ``json``."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

from mockpolicy.findings import Finding
from mockpolicy.formats.context import rule_info
from mockpolicy.printable import printable

_BOLD, _RED, _YELLOW, _CYAN, _RESET = "\x1b[1m", "\x1b[31m", "\x1b[33m", "\x1b[36m", "\x1b[0m"


def text(findings: Sequence[Finding], colour: bool = False) -> str:
    """One line per finding; with ``colour``, ANSI colours for a terminal (the
    escapes are ours: the finding's own text is made printable first)."""
    if not colour:
        return "".join(printable(f"{f.path}:{f.line}:{f.column}: {f.symbol} {f.message}") + "\n" for f in findings)
    lines = []
    for f in findings:
        tint = _RED if rule_info(f.symbol).level == "error" else _YELLOW
        lines.append(
            f"{_BOLD}{printable(f.path)}{_RESET}:{f.line}:{f.column}: {tint}{printable(f.symbol)}{_RESET} "
            f"{printable(f.message)}\n"
        )
    return "".join(lines)


def statistics(findings: Sequence[Finding]) -> list[tuple[int, str, str]]:
    """(count, message id, symbol) per rule, most frequent first."""
    counts = Counter(f.symbol for f in findings)
    return sorted(((n, rule_info(s).msgid, s) for s, n in counts.items()), key=lambda row: (-row[0], row[2]))


def statistics_text(findings: Sequence[Finding], colour: bool = False) -> str:
    rows = statistics(findings)
    width = max((len(str(n)) for n, _, _ in rows), default=1)
    tint, reset = (_CYAN, _RESET) if colour else ("", "")
    return "".join(f"{n:>{width}}  {tint}{msgid}{reset}  {symbol}\n" for n, msgid, symbol in rows)


def statistics_json(findings: Sequence[Finding]) -> str:
    rows = [{"symbol": s, "message_id": m, "count": n} for n, m, s in statistics(findings)]
    return json.dumps(rows, indent=2) + "\n"


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
