"""``mockpolicy review``: what a change adds to the findings.

A finding is reported when the baseline does not allow it and it lies on a
line the change selects (``mockpolicy.diffs`` filters) relative to the merge
base of ``--base`` and HEAD. A change that makes the baseline allow more gets
one ``baseline-grew`` finding on the baseline file, at the first entry that
grew, listing everything that grew, whatever the filter: growth in place (an
entry replaced by another on the same line, a count raised) need not touch
the line the finding sits on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mockpolicy import baseline, diffs, gitio, matching
from mockpolicy.diffs import ChangedLines
from mockpolicy.findings import Finding
from mockpolicy.identity import excerpt
from mockpolicy.project import Project
from mockpolicy.rules import BASELINE_GREW
from mockpolicy.scopes import Scopes


@dataclass(frozen=True)
class Change:
    """A change under review: its findings (new and selected, in source order),
    those the baseline allowed, its lines, and where the project lies in the
    repository ("" at the top, else a folder ending in "/")."""

    findings: list[Finding]
    baselined: list[Finding]
    changed: ChangedLines
    repo_prefix: str
    base_commit: str


def review(project: Project, findings: Sequence[Finding], base: str, mode: str) -> Change:
    """The change from the merge base of ``base`` and HEAD to the working tree."""
    top = gitio.toplevel(project.root)
    merge_base = gitio.merge_base(project.root, base)
    prefix = project.root.relative_to(top).as_posix()
    prefix = "" if prefix == "." else prefix + "/"
    changed = diffs.parse(gitio.diff_since(project.root, merge_base), prefix)
    path = project.baseline_path
    current = baseline.load_or_empty(path)
    scopes = Scopes(project.root)
    judged = baseline.renamed(current, gitio.renames_since_last_change(path, project.root))
    new, _ = matching.compare(judged, findings, lambda _path: False, scopes.gone)
    kept = {id(f) for f in new}
    allowed = [f for f in findings if id(f) not in kept]
    grew = _growth(project, current, merge_base, base, findings, scopes)
    selected = [f for f in new if changed.selects(mode, f.path, f.line)]
    return Change(sorted([*selected, *grew]), allowed, changed, prefix, merge_base)


def _growth(
    project: Project, current: baseline.Baseline, merge_base: str, base: str, findings: Sequence[Finding], scopes: Scopes
) -> list[Finding]:
    path = project.baseline_path
    if not path.exists():
        return []
    shown = project.relative(path)
    text = gitio.show(path, merge_base)
    before = baseline.parse(text, f"{shown} at {base}") if text is not None else baseline.Baseline.empty()
    renames = gitio.renames(project.root, merge_base)
    grown, current = matching.growth(before, current, renames, findings, scopes.gone)
    if not grown:
        return []
    lines = baseline.entry_lines(path.read_text(encoding="utf-8"))
    first = min((lines[identity] for identity, _, _ in grown if identity in lines), default=1)
    items = [
        f"{identity.rule} in {identity.path} ({identity.scope or '<module>'}) {old} -> {new}: "
        f"{current.excerpts.get(identity, '')}"
        for identity, old, new in grown
    ]
    message = (
        f"This change lets the baseline allow {sum(new - old for _, old, new in grown)} more finding(s) "
        f"than at the merge base with {base}: " + "; ".join(items) + ". Fix them instead, or justify the growth in review."
    )
    statement = "\n".join(f"{i.rule} {i.path} {i.scope} {i.fingerprint} {new}" for i, _, new in grown)
    return [Finding(shown, first, 0, BASELINE_GREW.symbol, excerpt(message, 2000), scope="", statement=statement)]
