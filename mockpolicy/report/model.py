"""What the report shows, computed from one analysis, the baseline and its
history: plain values for the template (every string in them may come from the
analysed repository and is escaped when the page is written)."""

from __future__ import annotations

import datetime
import math
import os
import posixpath
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from mockpolicy import baseline
from mockpolicy.findings import Finding
from mockpolicy.formats.context import rule_info
from mockpolicy.identity import Identity
from mockpolicy.project import Project
from mockpolicy.report.gather import Gathered, Site
from mockpolicy.report.history import History
from mockpolicy.rules import COVERAGE_RULES, UNDOCUMENTED_PARTIAL_MOCK
from mockpolicy.version import __version__

# How many rows the long tables hold (the totals always count everything).
TARGETS_SHOWN = 250
SITE_LINKS_SHOWN = 12
FILES_SHOWN = 1500
TESTS_SHOWN = 50
LISTED_SHOWN = 200
BARS_SHOWN = 15


@dataclass(frozen=True)
class Link:
    """Sites in one file: the file's path, a link to it, and the sites' lines."""

    text: str
    href: str
    lines: tuple[int, ...] = ()


@dataclass(frozen=True)
class RuleRow:
    symbol: str
    msgid: str
    summary: str
    doc_url: str
    new: int
    baselined: int

    @property
    def total(self) -> int:
        return self.new + self.baselined


@dataclass(frozen=True)
class StaleRow:
    rule: str
    path: str
    scope: str
    allowed: int
    found: int
    excerpt: str


@dataclass
class TargetRow:
    """A first-party name that mocks replace or stand in for."""

    name: str
    module: str
    tests: set[tuple[str, str]] = field(default_factory=set)
    sites: list[Site] = field(default_factory=list)
    rules: Counter[str] = field(default_factory=Counter)
    links: list[Link] = field(default_factory=list)


@dataclass
class PackageRow:
    name: str
    sites: int = 0
    tests: set[tuple[str, str]] = field(default_factory=set)


@dataclass
class FileRow:
    path: str
    href: str
    new: int = 0
    baselined: int = 0
    sites: int = 0
    rules: Counter[str] = field(default_factory=Counter)

    @property
    def findings(self) -> int:
        return self.new + self.baselined


@dataclass
class FolderRow:
    path: str
    files: int = 0
    new: int = 0
    baselined: int = 0
    heat: int = 0  # 0..9: the folder's findings against the busiest folder's, on a log scale

    @property
    def findings(self) -> int:
        return self.new + self.baselined


@dataclass(frozen=True)
class TestRow:
    path: str
    scope: str
    href: str
    findings: int
    rules: list[tuple[str, int]]


@dataclass(frozen=True)
class ListedFinding:
    path: str
    line: int
    symbol: str
    message: str
    href: str


@dataclass
class Partials:
    blocks: int = 0
    entries: int = 0
    files: list[tuple[str, str, int, int]] = field(default_factory=list)  # path, href, blocks, entries
    undocumented: int = 0
    by_target: list[tuple[str, int, list[Link]]] = field(default_factory=list)
    with_data: bool = False
    verdicts: list[tuple[str, str, int]] = field(default_factory=list)  # symbol, summary, count
    listed: list[ListedFinding] = field(default_factory=list)


@dataclass
class MockMap:
    targets: list[TargetRow]  # the first TARGETS_SHOWN, ranked
    targets_total: int
    sites: int
    packages: list[PackageRow]


@dataclass
class Where:
    folders: list[FolderRow]
    files: list[FileRow]  # the first FILES_SHOWN, most findings first
    files_total: int
    tests: list[TestRow]


@dataclass
class Report:
    project_name: str
    generated: str
    commit: str
    version: str
    configuration: list[tuple[str, str]]
    analysed: list[str]
    files_analysed: int
    has_baseline: bool
    rules: list[RuleRow]
    stale: list[StaleRow]
    map: MockMap
    where: Where
    partials: Partials
    history: History

    @property
    def new(self) -> int:
        return sum(row.new for row in self.rules)

    @property
    def baselined(self) -> int:
        return sum(row.baselined for row in self.rules)

    @property
    def total(self) -> int:
        return self.new + self.baselined


@dataclass(frozen=True)
class Judged:
    """The findings the report shows, judged against the baseline as ``check``
    judges them: ``findings`` (with the coverage-based ones when ``covered`` is
    not None), ``new`` (those the baseline does not allow), its ``stale``
    entries as (identity, allowed, found), and the baseline (None without one)."""

    findings: list[Finding]
    new: list[Finding]
    stale: list[tuple[Identity, int, int]]
    baseline: baseline.Baseline | None
    covered: Sequence[Finding] | None = None


def build(
    project: Project,
    gathered: Gathered,
    judged: Judged,
    history: History,
    output: Path,
    analysed: Sequence[str],
    files_analysed: int,
    commit: str,
    now: datetime.datetime | None = None,
) -> Report:
    """The report of one analysis; ``output``: where the page goes (links are relative to it)."""
    findings = judged.findings
    new = {id(finding) for finding in judged.new}
    current = judged.baseline or baseline.Baseline.empty()
    links = _Links(project.root, output.parent)
    when = now or datetime.datetime.now(datetime.timezone.utc)
    return Report(
        project_name=project.root.name,
        generated=when.strftime("%Y-%m-%d %H:%M UTC"),
        commit=commit,
        version=__version__,
        configuration=_configuration(project),
        analysed=list(analysed),
        files_analysed=files_analysed,
        has_baseline=judged.baseline is not None,
        rules=_rule_rows(findings, new),
        stale=[
            StaleRow(identity.rule, identity.path, identity.scope, allowed, found, current.excerpts.get(identity, ""))
            for identity, allowed, found in judged.stale
        ],
        map=_mock_map(gathered, findings, links),
        where=_where(findings, new, gathered.sites, links),
        partials=_partials(gathered, findings, judged.covered, links),
        history=history,
    )


class _Links:
    """Relative links from the page to the analysed files."""

    def __init__(self, root: Path, page_folder: Path) -> None:
        self.prefix = Path(os.path.relpath(root, page_folder.resolve())).as_posix()

    def href(self, relative: str) -> str:
        return quote(posixpath.normpath(posixpath.join(self.prefix, relative)))

    def sites(self, sites: Iterable[Site]) -> list[Link]:
        """``sites`` grouped by file, files in the order of their first site."""
        lines: dict[str, list[int]] = {}
        for site in sites:
            lines.setdefault(site.path, []).append(site.line)
        return [Link(path, self.href(path), tuple(numbers)) for path, numbers in lines.items()]


def _configuration(project: Project) -> list[tuple[str, str]]:
    return [
        ("first-party", ", ".join(sorted(project.first_party)) or "(none found)"),
        ("tests", ", ".join(project.relative(p) for p in project.test_paths) or "(none)"),
        ("exclude", ", ".join(str(p) for p in project.settings.get("exclude", [])) or "(none)"),
        ("baseline", project.relative(project.baseline_path)),
        ("require-spec", project.require_spec),
    ]


def _rule_rows(findings: Iterable[Finding], new: set[int]) -> list[RuleRow]:
    fresh: Counter[str] = Counter()
    allowed: Counter[str] = Counter()
    for finding in findings:
        (fresh if id(finding) in new else allowed)[finding.symbol] += 1
    rows = []
    for symbol in set(fresh) | set(allowed):
        info = rule_info(symbol)
        rows.append(RuleRow(symbol, info.msgid, info.summary, info.help_uri or "", fresh[symbol], allowed[symbol]))
    return sorted(rows, key=lambda row: (-row.total, row.symbol))


def _at(findings: Iterable[Finding]) -> dict[tuple[str, int, int], list[str]]:
    found: dict[tuple[str, int, int], list[str]] = defaultdict(list)
    for finding in findings:
        found[(finding.path, finding.line, finding.column)].append(finding.symbol)
    return found


def _mock_map(gathered: Gathered, findings: list[Finding], links: _Links) -> MockMap:
    at = _at(findings)
    targets: dict[str, TargetRow] = {}
    packages: dict[str, PackageRow] = {}
    sites = [site for site in gathered.sites if site.first_party]
    for site in sites:
        test = (site.path, site.scope)
        symbols = at.get((site.path, site.line, site.column), [])
        for name, module in zip(site.targets, site.modules):
            row = targets.get(name)
            if row is None:
                row = targets[name] = TargetRow(name, module)
            row.tests.add(test)
            row.sites.append(site)
            row.rules.update(symbols)
        for package in {module.rpartition(".")[0] or module or "(unknown)" for module in site.modules}:
            entry = packages.setdefault(package, PackageRow(package))
            entry.sites += 1
            entry.tests.add(test)
    ranked = sorted(targets.values(), key=lambda row: (-len(row.tests), -len(row.sites), row.name))
    for row in ranked[:TARGETS_SHOWN]:
        row.links = links.sites(row.sites[:SITE_LINKS_SHOWN])
    return MockMap(ranked[:TARGETS_SHOWN], len(ranked), len(sites), sorted(packages.values(), key=lambda row: (-row.sites, row.name)))


def _where(findings: list[Finding], new: set[int], sites: Iterable[Site], links: _Links) -> Where:
    files: dict[str, FileRow] = {}
    tests: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for finding in findings:
        row = files.get(finding.path)
        if row is None:
            row = files[finding.path] = FileRow(finding.path, links.href(finding.path))
        if id(finding) in new:
            row.new += 1
        else:
            row.baselined += 1
        row.rules[finding.symbol] += 1
        if finding.scope:
            tests[(finding.path, finding.scope)][finding.symbol] += 1
    for site in sites:
        if site.first_party and site.path in files:
            files[site.path].sites += 1
    folders: dict[str, FolderRow] = {}
    for row in files.values():
        folder = posixpath.dirname(row.path) or "."
        entry = folders.setdefault(folder, FolderRow(folder))
        entry.files += 1
        entry.new += row.new
        entry.baselined += row.baselined
    busiest = max((row.findings for row in folders.values()), default=0)
    for entry in folders.values():
        entry.heat = round(9 * math.log1p(entry.findings) / math.log1p(busiest)) if busiest else 0
    ranked_tests = sorted(tests.items(), key=lambda item: (-sum(item[1].values()), item[0]))[:TESTS_SHOWN]
    ranked_files = sorted(files.values(), key=lambda row: (-row.findings, row.path))
    return Where(
        folders=sorted(folders.values(), key=lambda row: (-row.findings, row.path)),
        files=ranked_files[:FILES_SHOWN],
        files_total=len(ranked_files),
        tests=[
            TestRow(path, scope, links.href(path), sum(counts.values()), sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
            for (path, scope), counts in ranked_tests
        ],
    )


def _partials(gathered: Gathered, findings: list[Finding], covered: Sequence[Finding] | None, links: _Links) -> Partials:
    partials = Partials(with_data=covered is not None)
    for path, (blocks, entries) in sorted(gathered.blocks.items()):
        partials.blocks += blocks
        partials.entries += entries
        partials.files.append((path, links.href(path), blocks, entries))
    undocumented = {(f.path, f.line, f.column) for f in findings if f.symbol == UNDOCUMENTED_PARTIAL_MOCK.symbol}
    partials.undocumented = len(undocumented)
    by_target: dict[str, list[Site]] = defaultdict(list)
    for site in gathered.sites:
        if (site.path, site.line, site.column) in undocumented:
            by_target[" / ".join(site.targets)].append(site)
    ranked = sorted(by_target.items(), key=lambda item: (-len(item[1]), item[0]))[:TARGETS_SHOWN]
    partials.by_target = [
        (name, len(sites), links.sites(sites[:SITE_LINKS_SHOWN])) for name, sites in ranked
    ]
    if covered is not None:
        counts = Counter(finding.symbol for finding in covered)
        partials.verdicts = [
            (rule.symbol, rule.summary, counts[rule.symbol]) for rule in map(rule_info, sorted(COVERAGE_RULES))
        ]
        partials.listed = [
            ListedFinding(f.path, f.line, f.symbol, f.message, links.href(f.path)) for f in list(covered)[:LISTED_SHOWN]
        ]
    return partials
