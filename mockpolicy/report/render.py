"""The report as one HTML page, written with Jinja2 (the ``report`` extra).

Every value reaches the page through Jinja2's autoescaping; the page's own
stylesheet and script are the only text marked safe. A Content-Security-Policy
allows exactly those two (by hash) and nothing else: no request leaves the
page, and markup that slipped through escaping could not run script."""

from __future__ import annotations

import base64
import datetime
import hashlib
import re
from importlib import resources

from mockpolicy.errors import MockpolicyError
from mockpolicy.report import charts
from mockpolicy.report.model import BARS_SHOWN, Report

HISTORY_RULES_SHOWN = 6  # rules drawn as their own line; the table has every rule


class MissingExtra(MockpolicyError):
    """Jinja2 is not installed."""


def render(report: Report) -> str:
    try:
        import jinja2
        import markupsafe
    except ImportError:
        raise MissingExtra(
            "`mockpolicy report` needs Jinja2: pip install 'mockpolicy[report]'."
        ) from None
    folder = resources.files("mockpolicy.report")
    css = (folder / "static" / "report.css").read_text(encoding="utf-8")
    script = (folder / "static" / "report.js").read_text(encoding="utf-8")
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("mockpolicy.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=False,
        lstrip_blocks=False,
    )
    environment.filters["breakable"] = _breakable
    template = environment.get_template("report.html.j2")
    return template.render(
        r=report,
        css=markupsafe.Markup(css),
        script=markupsafe.Markup(script),
        csp=_policy(css, script),
        **_charts(report),
    )


def _breakable(text: object) -> object:
    """``text`` escaped, with a line-break opportunity after each dot and slash,
    so that long dotted names and paths wrap between their parts."""
    import markupsafe

    return markupsafe.Markup("<wbr>").join(_PARTS.split(str(text)))


_PARTS = re.compile(r"(?<=[./])(?=[^./]{3})")  # not before a short last part (".py")


def _policy(css: str, script: str) -> str:
    return (
        "default-src 'none'; "
        f"style-src '{_digest(css)}'; script-src '{_digest(script)}'; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )


def _digest(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def _charts(report: Report) -> dict[str, object]:
    rule_bars = charts.bars([(row.symbol, (("new", row.new), ("baselined", row.baselined)), "") for row in report.rules])
    package_bars = charts.bars([
        (row.name, (("sites", row.sites),), f"in {len(row.tests):,} test(s)") for row in report.map.packages[:BARS_SHOWN]
    ])
    folder_bars = charts.bars([
        (row.path, (("new", row.new), ("baselined", row.baselined)), "") for row in report.where.folders[:BARS_SHOWN]
    ])
    partial_bars = charts.bars([(name, (("new", count),), "") for name, count, _ in report.partials.by_target[:BARS_SHOWN]])
    history = report.history
    rules = history.rules
    line = None
    trend_text = ""
    if history.versions:
        labels = [version.label for version in history.versions]
        drawn = rules[:HISTORY_RULES_SHOWN]
        series: list[tuple[str, list[int]]] = [("all rules", [version.total for version in history.versions])]
        if len(rules) > 1:
            series += [(rule, [version.per_rule[rule] for version in history.versions]) for rule in drawn]
        line = charts.line_chart(labels, series)
        trend_text = _trend_text(report)
    return {
        "rule_bars": rule_bars,
        "package_bars": package_bars,
        "folder_bars": folder_bars,
        "partial_bars": partial_bars,
        "line": line,
        "history_rules": rules,
        "trend_text": trend_text,
    }


def _trend_text(report: Report) -> str:
    versions = report.history.versions
    last = versions[-1].total
    if len(versions) < 2:
        return f"The baseline allows {last:,} finding(s); there is no earlier version to compare with."
    first = versions[0].total
    change = "no change" if first == last else f"{'down' if last < first else 'up'} {abs(last - first):,}"
    text = f"The baseline allows {last:,} finding(s): {change} since {versions[0].label.split(' ')[0]}"
    slope = report.history.slope_per_day()
    if slope is None or abs(slope) < 1e-9:
        return text + "."
    week = slope * 7
    text += f"; the trend is {'down' if week < 0 else 'up'} about {abs(week):,.0f} a week"
    if slope < 0 and last > 0:
        days = last / -slope
        if days < 365 * 20:
            end = datetime.datetime.fromtimestamp(versions[-1].time, datetime.timezone.utc) + datetime.timedelta(days=days)
            text += f"; at this pace it reaches zero around {end:%Y-%m-%d}"
    return text + "."
