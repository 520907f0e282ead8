"""``gitlab``: GitLab Code Quality JSON (a list of Code Climate issues).

Each issue's ``fingerprint`` is mockpolicy's line-independent key, unique in
the report, so GitLab matches an issue across commits that move it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from mockpolicy.findings import Finding
from mockpolicy.formats.context import Context
from mockpolicy.identity import finding_keys

_SEVERITY = {"error": "major", "warning": "minor", "note": "info"}


def render(findings: Sequence[Finding], context: Context) -> str:
    issues = [
        {
            "type": "issue",
            "engine_name": "mockpolicy",
            "check_name": finding.symbol,
            "description": f"{finding.symbol}: {finding.message}",
            "severity": _SEVERITY[context.rule(finding.symbol).level],
            "categories": ["Bug Risk"],
            "fingerprint": key,
            "location": {"path": context.repository_path(finding.path), "lines": {"begin": finding.line, "end": finding.end_line or finding.line}},
        }
        for finding, key in zip(findings, finding_keys(findings))
    ]
    return json.dumps(issues, indent=2, ensure_ascii=False) + "\n"
