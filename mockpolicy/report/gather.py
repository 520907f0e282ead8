"""One analysis of the files for the report: the findings ``mockpolicy check``
gives, and, from the same ``Engine.inspect`` job, each mock site that replaces
or stands in for the project's own code and the ``# mock-partial:`` blocks of
each file. Reading the sites costs nothing extra: the rules already resolved
them, and ``Analysis.first_party_targets`` remembers what they found."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from mockpolicy import workers
from mockpolicy.analysis import Analysis, Family
from mockpolicy.engine import Engine, Session, analysis_error
from mockpolicy.findings import Finding
from mockpolicy.partial_sites import blocks_of
from mockpolicy.rules import UNDOCUMENTED_PARTIAL_MOCK
from mockpolicy.source import SourceError


@dataclass(frozen=True)
class Site:
    """A mock site with first-party targets (or an undocumented partial mock):
    where it is, the test (or class or fixture) it sits in, the dotted names of
    what it mocks and, for each, the module defining it ("" when unknown); only
    first-party names when ``first_party``."""

    path: str
    line: int
    column: int
    scope: str
    targets: tuple[str, ...]
    modules: tuple[str, ...]
    first_party: bool = True


@dataclass
class Gathered:
    """What the report needs from one analysis of the files; paths relative to the project root."""

    findings: list[Finding] = field(default_factory=list)
    sites: list[Site] = field(default_factory=list)
    blocks: dict[str, tuple[int, int]] = field(default_factory=dict)  # path -> (blocks, untested entries)

    def add(self, other: Gathered) -> None:
        self.findings.extend(other.findings)
        self.sites.extend(other.sites)
        self.blocks.update(other.blocks)


def gather(files: Sequence[Path], jobs: int) -> Gathered:
    """Analyse ``files`` (``jobs``: see ``workers.per_file``)."""
    gathered = Gathered()
    for part in workers.per_file(files, jobs, _one):
        gathered.add(part)
    gathered.findings.sort()
    gathered.sites.sort(key=lambda site: (site.path, site.line, site.column))
    return gathered


def _one(session: Session, path: Path) -> Gathered:
    engine = session.engine_for(path)
    relative = engine.project.relative(path)
    try:
        data = engine.read(path)
    except SourceError as exc:
        return Gathered([analysis_error(relative, str(exc))])
    wanted = engine.families_for(data)
    if not wanted:
        return Gathered()
    result, failure = engine.inspect(str(path), data, lambda analysis: _job(engine, wanted, analysis, relative))
    if failure is not None or result is None:
        return Gathered([replace(failure, path=relative)] if failure is not None else [])
    return result


def _job(engine: Engine, wanted: list[Family], analysis: Analysis, relative: str) -> Gathered:
    findings = [replace(finding, path=relative) for family in wanted for finding in family.check(analysis)]
    partial = {(f.line, f.column) for f in findings if f.symbol == UNDOCUMENTED_PARTIAL_MOCK.symbol}
    sites = []
    for site in analysis.module.sites:
        targets = analysis.first_party_targets(site)
        first_party = bool(targets)
        if not targets and (site.call.lineno, site.call.col_offset) in partial:
            targets = site.targets
        if targets:
            named = dict((target.value.qualname or target.text, target.value.module) for target in targets)
            sites.append(Site(relative, site.call.lineno, site.call.col_offset, site.owner.qualname,
                              tuple(named), tuple(named.values()), first_party))
    blocks = blocks_of(analysis)
    counted = {relative: (len(blocks), sum(len(block.entries) for block in blocks))} if blocks else {}
    return Gathered(findings, sites, counted)
