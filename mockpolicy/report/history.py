"""The baseline's burn-down: allowed findings per rule in the versions of the
baseline file that git holds (the last N commits that changed it, plus the
working tree's file when it differs), read through ``baseline.parse``; old
commits are never analysed again."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from mockpolicy import baseline, gitio
from mockpolicy.formats.context import TrendPoint
from mockpolicy.project import Project

DEFAULT_DEPTH = 30


@dataclass(frozen=True)
class Version:
    """One version of the baseline file: ``commit`` is "" for the working tree's."""

    commit: str
    time: int
    subject: str
    per_rule: Counter[str]

    @property
    def total(self) -> int:
        return sum(self.per_rule.values())

    @property
    def label(self) -> str:
        day = time.strftime("%Y-%m-%d", time.gmtime(self.time))
        return f"{day} {self.commit[:7]}" if self.commit else f"{day} now"


@dataclass(frozen=True)
class History:
    """Versions oldest first; ``notes`` say what could not be read, or why there is nothing."""

    versions: list[Version] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def rules(self) -> list[str]:
        """Every rule any version allows, most allowed (over all versions) first."""
        totals: Counter[str] = Counter()
        for version in self.versions:
            totals.update(version.per_rule)
        return [rule for rule, _ in sorted(totals.items(), key=lambda item: (-item[1], item[0]))]

    def trend(self) -> list[TrendPoint]:
        return [TrendPoint(version.label, version.total) for version in self.versions]

    def slope_per_day(self) -> float | None:
        """The least-squares slope of the total over time, in allowed findings a day
        (None with fewer than two versions, or all at one moment)."""
        if len(self.versions) < 2:
            return None
        xs = [version.time / 86400 for version in self.versions]
        ys = [float(version.total) for version in self.versions]
        mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
        spread = sum((x - mean_x) ** 2 for x in xs)
        if spread == 0:
            return None
        return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / spread


def read(project: Project, depth: int = DEFAULT_DEPTH, now: int | None = None) -> History:
    """The history of ``project``'s baseline file over its last ``depth`` commits."""
    path = project.baseline_path
    shown = project.relative(path)
    notes: list[str] = []
    try:
        commits = gitio.file_commits(path, depth) if depth > 0 else []
    except gitio.GitError:
        commits = []
        notes.append(f"The project ({project.root.name or project.root}) is not in a git repository, so the baseline has no history.")
    versions: list[Version] = []
    commits.reverse()
    texts = gitio.file_texts(path, [commit for commit, _, _ in commits])
    last = ""  # the text of the last version read
    for (commit, seconds, subject), text in zip(commits, texts):
        if text is None:
            continue
        try:
            allowed = baseline.parse(text, f"{shown} at {commit[:12]}")
        except baseline.BaselineError as exc:
            notes.append(f"Left out: {exc}")
            continue
        versions.append(Version(commit, seconds, subject, _per_rule(allowed)))
        last = text
    try:
        present = baseline.exists(path)
        current = baseline.load(path) if present and not (last and _text(path) == last) else None
    except baseline.BaselineError as exc:
        present, current = True, None
        notes.append(f"Left out: {exc}")
    if not present:
        notes.append(f"There is no baseline file ({shown}), so there is nothing to burn down: "
                     "mockpolicy baseline records one.")
    elif current is not None:  # the working tree's file is not the last version read
        per_rule = _per_rule(current)
        if not versions or versions[-1].per_rule != per_rule:
            versions.append(Version("", int(time.time()) if now is None else now, "the working tree's file", per_rule))
    if present and not commits and not any("git repository" in note for note in notes):
        notes.append(f"The baseline ({shown}) has not been committed yet, so only today's counts are shown.")
    return History(versions, notes)


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        return None  # baseline.load says why


def _per_rule(allowed: baseline.Baseline) -> Counter[str]:
    counts: Counter[str] = Counter()
    for identity, count in allowed.counts.items():
        counts[identity.rule] += count
    return counts
