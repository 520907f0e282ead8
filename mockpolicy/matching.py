"""Findings against a baseline: which the baseline allows, which entries are
stale, what ``prune`` keeps, and whether a baseline grew.

A finding is allowed, in this order,

1. by the entry with its identity (format 2: rule, path, scope and the
   fingerprint of the statement's syntax tree), for as many occurrences in
   source order as the entry's count;
2. by a format 1 entry with the identity format 1 gave it (its token
   fingerprint), the same way;
3. by an entry whose scope is gone (``gone(path, scope)``: a test renamed, or
   moved to another class or file) with the same rule and fingerprint: the
   finding moved, it did not appear. An entry whose scope still exists never
   lends its count elsewhere, so a new copy of a violation next to the old one
   is new.

Files that git renamed are dealt with before matching, by giving the entries
their new paths (``baseline.renamed``); the callers decide against which
commit (see ``docs/baseline.md``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from mockpolicy.baseline import EXCERPT_WIDTH, NEVER_BASELINED, Baseline, renamed, translated
from mockpolicy.findings import Finding
from mockpolicy.identity import Identity, excerpt, identify, legacy_identity

Gone = Callable[[str, str], bool]
Change = tuple[Identity, int, int]  # identity, count before, count after
Move = tuple[Identity, Identity, int]  # entry, where its findings are now, how many


def never(path: str, scope: str) -> bool:
    """A ``Gone`` for callers that cannot look at the code: no scope is gone."""
    return False


@dataclass
class Matching:
    """The outcome of matching findings against a baseline."""

    new: list[Finding]  # the findings no entry allows, in the order given
    found: Counter[Identity] = field(default_factory=Counter)  # entry -> findings it allows
    # entry -> identities of the findings it allows that are not its own (moved, or found by a format 1 fingerprint)
    moved: dict[Identity, Counter[Identity]] = field(default_factory=dict)
    excerpts: dict[Identity, str] = field(default_factory=dict)  # of those identities

    def stale(self, baseline: Baseline, covers: Callable[[str], bool]) -> list[Change]:
        """Entries whose path ``covers`` accepts that allow more findings than
        they matched, as (identity, allowed, found)."""
        return sorted(
            (identity, allowed, self.found[identity])
            for identity, allowed in baseline.counts.items()
            if self.found[identity] < allowed and covers(identity.path)
        )


def match(baseline: Baseline, findings: Iterable[Finding], gone: Gone = never) -> Matching:
    """Match ``findings`` (paths relative to the project root) against ``baseline``."""
    counts = baseline.counts
    result = Matching([])
    legacy_scopes = {(i.rule, i.path, i.scope) for i in counts if i.legacy}
    leftover: list[tuple[int, Finding, Identity]] = []
    ordered = list(findings)
    allowed_at: set[int] = set()
    for index, finding in enumerate(ordered):
        if finding.symbol in NEVER_BASELINED:
            continue
        identity = identify(finding)
        if result.found[identity] < counts.get(identity, 0):
            result.found[identity] += 1
            allowed_at.add(index)
            continue
        if (finding.symbol, finding.path, finding.scope) in legacy_scopes:
            old = legacy_identity(finding)
            if result.found[old] < counts.get(old, 0):
                _allow(result, old, identity, finding)
                allowed_at.add(index)
                continue
        leftover.append((index, finding, identity))
    if leftover:
        allowed_at.update(_relocate(baseline, result, leftover, gone))
    result.new = [finding for index, finding in enumerate(ordered) if index not in allowed_at]
    return result


def _allow(result: Matching, entry: Identity, identity: Identity, finding: Finding) -> None:
    """Let ``entry`` allow ``finding`` (whose own identity is ``identity``)."""
    result.found[entry] += 1
    result.moved.setdefault(entry, Counter())[identity] += 1
    result.excerpts.setdefault(identity, excerpt(finding.statement, EXCERPT_WIDTH))


def _relocate(baseline: Baseline, result: Matching, leftover: list[tuple[int, Finding, Identity]], gone: Gone) -> list[int]:
    """Step 3: the leftover findings that entries of gone scopes allow (their indexes)."""
    spare: dict[tuple[str, str], list[Identity]] = {}
    for identity, count in sorted(baseline.counts.items()):
        if result.found[identity] < count:
            spare.setdefault((identity.rule, identity.fingerprint), []).append(identity)
    if not spare:
        return []
    any_legacy = any(identity.legacy for entries in spare.values() for identity in entries)
    allowed: list[int] = []
    for index, finding, identity in leftover:
        keys = [(identity.rule, identity.fingerprint)]
        if any_legacy:
            keys.append((identity.rule, legacy_identity(finding).fingerprint))
        candidates: list[Identity] = []
        for key in keys:
            entries = spare.get(key)
            if entries:  # entries used up, or whose scope still exists, leave for good
                entries[:] = [e for e in entries if result.found[e] < baseline.counts[e] and gone(e.path, e.scope)]
                candidates += entries
        if not candidates:
            continue
        entry = min(candidates, key=lambda e: (e.path != finding.path, e))  # the same file first
        _allow(result, entry, identity, finding)
        allowed.append(index)
    return allowed


def compare(
    baseline: Baseline, findings: Iterable[Finding], covers: Callable[[str], bool], gone: Gone = never
) -> tuple[list[Finding], list[Change]]:
    """Split ``findings`` (in source order, paths relative) against ``baseline``.

    Returns the findings it does not allow - for an identity allowed N times,
    the occurrences after the first N - and its stale entries: those whose path
    ``covers`` accepts and that match fewer findings than they allow, as
    (identity, allowed, found). ``mock-analysis-error`` is never allowed.
    """
    matching = match(baseline, findings, gone)
    return matching.new, matching.stale(baseline, covers)


def pruned(
    baseline: Baseline, matching: Matching, covers: Callable[[str], bool]
) -> tuple[Baseline, list[Change], list[Move]]:
    """``baseline`` lowered to what ``matching`` found, for entries whose path is
    in ``covers``, never adding: an entry's findings that are not its own (moved
    to another scope, or matched by a format 1 fingerprint) take its count with
    them, under their own identity. Entries of other paths keep their count,
    less what moved away. Returns the new baseline, what changed as (identity,
    old count, new count) and what moved as (old identity, new identity, count)."""
    counts: Counter[Identity] = Counter()
    excerpts: dict[Identity, str] = {}
    changed: list[Change] = []
    moves: list[Move] = []
    for identity, allowed in sorted(baseline.counts.items()):
        away = matching.moved.get(identity, Counter())
        gone_away = sum(away.values())
        keep = matching.found[identity] - gone_away if covers(identity.path) else allowed - gone_away
        if keep:
            counts[identity] += keep
            excerpts.setdefault(identity, baseline.excerpts.get(identity, ""))
        for target, count in sorted(away.items()):
            counts[target] += count
            excerpts.setdefault(target, matching.excerpts.get(target, ""))
            if (target.path, target.scope) != (identity.path, identity.scope):
                moves.append((identity, target, count))
        if keep + gone_away != allowed:
            changed.append((identity, allowed, keep + gone_away))
    return Baseline(dict(counts), excerpts), changed, moves


def translation(findings: Iterable[Finding], *baselines: Baseline) -> dict[Identity, Identity]:
    """Format 1 identity -> format 2 identity, learnt from ``findings``, for
    the format 1 entries of ``baselines`` (empty when they have none)."""
    scopes = {(i.rule, i.path, i.scope) for b in baselines for i in b.counts if i.legacy}
    if not scopes:
        return {}
    return {
        legacy_identity(finding): identify(finding)
        for finding in findings
        if (finding.symbol, finding.path, finding.scope) in scopes
    }


def grown(old: Baseline, new: Baseline, gone: Gone = never) -> list[Change]:
    """Entries of ``new`` that allow more than ``old`` does, as (identity, what
    ``old`` allowed, what ``new`` allows). Counts that moved from an entry of
    ``old`` whose scope is gone to an entry of ``new`` with the same rule and
    fingerprint are not growth (a test renamed or moved), as in ``match``.
    Give both the same renames and translation first."""
    excess = {i: n - old.counts.get(i, 0) for i, n in new.counts.items() if n > old.counts.get(i, 0)}
    spare: dict[tuple[str, str], list[Identity]] = {}
    left: dict[Identity, int] = {}
    for identity, count in sorted(old.counts.items()):
        if count > new.counts.get(identity, 0):
            spare.setdefault((identity.rule, identity.fingerprint), []).append(identity)
            left[identity] = count - new.counts.get(identity, 0)
    for identity in sorted(excess):
        candidates = sorted(spare.get((identity.rule, identity.fingerprint), ()), key=lambda e: (e.path != identity.path, e))
        for entry in candidates:
            if not excess[identity]:
                break
            if left[entry] and gone(entry.path, entry.scope):
                taken = min(left[entry], excess[identity])
                left[entry] -= taken
                excess[identity] -= taken
    return sorted((i, new.counts[i] - extra, new.counts[i]) for i, extra in excess.items() if extra)


def not_allowed(baseline: Baseline, findings: Sequence[Finding], relative: Callable[[str], str]) -> list[Finding]:
    """``findings`` of one file minus what ``baseline`` allows, matched on
    their paths made relative by ``relative``; the findings keep their paths."""
    if not baseline.counts or not findings:
        return list(findings)
    shown = [replace(finding, path=relative(finding.path)) for finding in findings]
    kept, _ = compare(baseline, shown, lambda path: False)
    keep = {id(finding) for finding in kept}
    return [original for original, seen in zip(findings, shown) if id(seen) in keep]


def growth(
    before: Baseline, current: Baseline, renames: Mapping[str, str], findings: Iterable[Finding], gone: Gone = never
) -> tuple[list[Change], Baseline]:
    """What ``current`` allows beyond ``before`` (an earlier version of the file),
    after giving both the paths of the files renamed since (``renames``) and the
    format 2 identities ``findings`` teach (``translation``). Returns the growth
    as ``grown`` does and ``current`` as compared, for its excerpts."""
    before, after = renamed(before, renames), renamed(current, renames)
    learnt = translation(findings, before, after)
    after = translated(after, learnt)
    return grown(translated(before, learnt), after, gone), after
