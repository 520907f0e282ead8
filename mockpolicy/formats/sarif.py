"""``sarif``: SARIF 2.1.0 as GitHub code scanning accepts it.

One run; the driver lists every rule the results use (short and full
descriptions, the rule's page as help, a help URI). Results carry relative
URIs under ``%SRCROOT%``, regions with 1-based UTF-16 columns, and two
``partialFingerprints``: GitHub's ``primaryLocationLineHash`` (computed here as
its upload action would, so alerts do not duplicate) and mockpolicy's own
line-independent key under ``mockpolicy/v1``. Mechanical fixes become SARIF
``fixes``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

from mockpolicy.findings import Finding
from mockpolicy.fixes import fix_for
from mockpolicy.formats.context import TOOL_URL, Context, RuleInfo, Sources
from mockpolicy.formats.linehash import line_hashes
from mockpolicy.identity import finding_keys
from mockpolicy.rules import RULES_BY_SYMBOL
from mockpolicy.version import __version__

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
KEY_NAME = "mockpolicy/v1"


def render(findings: Sequence[Finding], context: Context) -> str:
    return json.dumps(document(findings, context), indent=2, ensure_ascii=False) + "\n"


def document(findings: Sequence[Finding], context: Context) -> dict[str, Any]:
    """The SARIF log for ``findings`` as a JSON-ready dict."""
    sources = Sources(context.root)
    symbols = sorted({f.symbol for f in findings}, key=lambda s: context.rule(s).msgid)
    # Run alone, mockpolicy is the driver. Inside a host (pylint), the host is the
    # driver with its own messages, and mockpolicy's rules live in an extension.
    hosted = context.host is not None
    ours = [s for s in symbols if s in RULES_BY_SYMBOL or not hosted]
    theirs = [s for s in symbols if s not in ours]
    index = {symbol: number for number, symbol in enumerate(ours)} | {s: n for n, s in enumerate(theirs)}
    hashes: dict[str, list[str]] = {}
    results = []
    for finding, key in zip(findings, finding_keys(findings)):
        if finding.path not in hashes:
            text = sources.text(finding.path)
            hashes[finding.path] = line_hashes(text) if text is not None else []
        result = _result(finding, key, index[finding.symbol], context.rule(finding.symbol), hashes[finding.path], sources,
                         context.repository_path(finding.path))
        if hosted and finding.symbol in RULES_BY_SYMBOL:
            del result["ruleIndex"]
            result["rule"] = {"id": result["ruleId"], "index": index[finding.symbol], "toolComponent": {"index": 0}}
        results.append(result)
    mockpolicy = {
        "name": "mockpolicy",
        "version": __version__,
        "semanticVersion": __version__,
        "informationUri": TOOL_URL,
        "rules": [_descriptor(context.rule(symbol), ours=True) for symbol in ours],
    }
    if context.host is None:
        tool: dict[str, Any] = {"driver": mockpolicy}
    else:
        driver = {
            "name": context.host.name,
            "version": context.host.version,
            "informationUri": context.host.information_uri,
            "rules": [_descriptor(context.rule(symbol), ours=False) for symbol in theirs],
        }
        tool = {"driver": driver, "extensions": [mockpolicy]}
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": tool, "columnKind": "utf16CodeUnits", "results": results}],
    }


def _descriptor(rule: RuleInfo, ours: bool) -> dict[str, Any]:
    descriptor: dict[str, Any] = {
        "id": rule.msgid,
        "name": "".join(part.capitalize() for part in rule.symbol.split("-")),
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.first_paragraph("What it does") or rule.description or rule.summary},
        "defaultConfiguration": {"level": rule.level},
        "properties": {"tags": ["testing", "mocking"], "symbol": rule.symbol} if ours else {"symbol": rule.symbol},
    }
    if rule.page:
        descriptor["help"] = {"text": rule.page, "markdown": rule.page}
    elif rule.description:  # GitHub wants help for every rule
        more = f" See {rule.help_uri}" if rule.help_uri else ""
        descriptor["help"] = {"text": rule.description + more}
    if rule.help_uri:
        descriptor["helpUri"] = rule.help_uri
    return descriptor


def _result(
    finding: Finding, key: str, rule_index: int, rule: RuleInfo, hashes: list[str], sources: Sources, shown_path: str
) -> dict[str, Any]:
    region: dict[str, Any] = {
        "startLine": finding.line,
        "startColumn": sources.character_column(finding.path, finding.line, finding.column, utf16=True) + 1,
    }
    if finding.end_line is not None and finding.end_column is not None:
        region["endLine"] = finding.end_line
        region["endColumn"] = sources.character_column(finding.path, finding.end_line, finding.end_column, utf16=True) + 1
    fingerprints = {KEY_NAME: key}
    if 0 < finding.line <= len(hashes):
        fingerprints["primaryLocationLineHash"] = hashes[finding.line - 1]
    result: dict[str, Any] = {
        "ruleId": rule.msgid,
        "ruleIndex": rule_index,
        "level": rule.level,
        "message": {"text": finding.message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": _uri(shown_path), "uriBaseId": "%SRCROOT%"},
                    "region": region,
                }
            }
        ],
        "partialFingerprints": fingerprints,
    }
    fix = fix_for(finding, sources.line(finding.path, finding.line))
    if fix is not None:
        result["fixes"] = [
            {
                "description": {"text": fix.description},
                "artifactChanges": [
                    {
                        "artifactLocation": {"uri": _uri(shown_path), "uriBaseId": "%SRCROOT%"},
                        "replacements": [
                            {
                                "deletedRegion": {
                                    "startLine": fix.line,
                                    "startColumn": sources.character_column(finding.path, fix.line, fix.column, utf16=True) + 1,
                                    "endLine": fix.line,
                                    "endColumn": sources.character_column(finding.path, fix.line, fix.end_column, utf16=True) + 1,
                                },
                                "insertedContent": {"text": fix.replacement},
                            }
                        ],
                    }
                ],
            }
        ]
    return result


def _uri(path: str) -> str:
    return quote(path, safe="/")
