"""``markdown``: a pull-request summary (counts per rule, new against baselined,
links to the rules' pages, then the new findings), and the escaping every
Markdown we write applies to text taken from source files."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from mockpolicy.findings import Finding
from mockpolicy.formats.context import Context, TrendPoint
from mockpolicy.printable import printable

LISTED = 50  # new findings listed one by one; the rest are counted
_SPECIAL = re.compile(r"([\\`*_\[\]|~])")


def escape(text: str) -> str:
    """``text`` as literal inline Markdown: no markup, links, HTML, line breaks
    or @-mentions (a word joiner follows each ``@``)."""
    text = printable(" ".join(text.split()))
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _SPECIAL.sub(r"\\\1", text).replace("@", "@\u2060")


def code_fence(text: str, info: str = "") -> str:
    """A fenced block holding ``text`` verbatim: the fence is longer than any
    backtick run inside, so the text cannot close it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text}\n{fence}"


def render(findings: Sequence[Finding], context: Context) -> str:
    new = Counter(f.symbol for f in findings)
    allowed = Counter(f.symbol for f in context.baselined)
    lines = [
        "## mockpolicy",
        "",
        f"**{len(findings)} new finding(s)**, {len(context.baselined)} allowed by the baseline.",
    ]
    if new or allowed:
        lines += ["", "| rule | new | baselined |", "|---|---:|---:|"]
        for symbol in sorted(set(new) | set(allowed), key=lambda s: (-new[s], s)):
            rule = context.rule(symbol)
            name = f"[`{symbol}`]({rule.help_uri})" if rule.help_uri else f"`{symbol}`"
            lines.append(f"| {name} ({rule.msgid}) | {new[symbol]} | {allowed[symbol]} |")
    if len(context.trend) >= 2:
        lines += ["", trend_chart(context.trend)]
    if findings:
        lines += ["", "### New findings", ""]
        for finding in findings[:LISTED]:
            lines.append(f"- {escape(finding.path)}:{finding.line} **{finding.symbol}**: {escape(finding.message)}")
        if len(findings) > LISTED:
            lines.append(f"- ... and {len(findings) - LISTED} more (run `mockpolicy check` to see them all).")
    return "\n".join(lines) + "\n"


def trend_chart(trend: Sequence[TrendPoint]) -> str:
    """A Mermaid ``xychart-beta`` line of what the baseline allowed in each of its
    versions, which GitHub and GitLab draw in place. Labels keep only the
    characters a quoted Mermaid string can hold."""
    labels = ", ".join(f'"{_MERMAID_UNSAFE.sub("", point.label)}"' for point in trend)
    values = ", ".join(str(point.allowed) for point in trend)
    top = max(point.allowed for point in trend)
    first, last = trend[0].allowed, trend[-1].allowed
    change = "unchanged" if first == last else f"{'down' if last < first else 'up'} {abs(last - first)}"
    return "\n".join([
        f"**Baseline trend**: {last} allowed finding(s), {change} over the last {len(trend)} versions of the baseline.",
        "",
        "```mermaid",
        "xychart-beta",
        '    title "Findings the baseline allows"',
        f"    x-axis [{labels}]",
        f'    y-axis "allowed" 0 --> {max(top, 1)}',
        f"    line [{values}]",
        "```",
    ])


_MERMAID_UNSAFE = re.compile(r"[^0-9A-Za-z .:-]")
