"""Which lines a change adds: a unified diff read with ``unidiff``, the one
place that knows the diff format.

Filters follow reviewdog's names: ``added`` (lines the change adds),
``diff_context`` (any new-side line inside a hunk, added or context), ``file``
(any line of a file the change touches), ``nofilter`` (everything).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from unidiff.errors import UnidiffParseError
from unidiff.patch import PatchSet

from mockpolicy.errors import MockpolicyError

FILTERS = ("added", "diff_context", "file", "nofilter")


class DiffError(MockpolicyError):
    """The diff could not be read."""


@dataclass(frozen=True)
class ChangedLines:
    """New-side line numbers per path (relative to the project root)."""

    added: Mapping[str, frozenset[int]]
    in_hunks: Mapping[str, frozenset[int]]

    def selects(self, mode: str, path: str, line: int) -> bool:
        """Whether a finding at ``path:line`` passes filter ``mode``."""
        if mode == "nofilter":
            return True
        if mode == "file":
            return path in self.in_hunks
        if mode == "diff_context":
            return line in self.in_hunks.get(path, ())
        return line in self.added.get(path, ())

    def commentable(self, path: str, line: int) -> bool:
        """Whether GitHub accepts a right-side review comment at ``path:line``."""
        return line in self.in_hunks.get(path, ())


def parse(diff_text: str, prefix: str = "") -> ChangedLines:
    """The lines ``diff_text`` adds, for files under ``prefix`` (the project root's
    folder relative to the repository's top, "" or ending in "/"), with paths
    made relative to that root. Deleted files are left out."""
    try:
        patch = PatchSet(diff_text)
    except UnidiffParseError as exc:
        raise DiffError(f"cannot read git's diff ({exc}).") from exc
    added: dict[str, frozenset[int]] = {}
    in_hunks: dict[str, frozenset[int]] = {}
    for changed in patch:
        if changed.is_removed_file:
            continue
        path = changed.target_file[2:] if changed.target_file.startswith("b/") else changed.target_file
        if not path.startswith(prefix):
            continue
        path = path[len(prefix):]
        added[path] = frozenset(
            line.target_line_no for hunk in changed for line in hunk if line.is_added and line.target_line_no
        )
        in_hunks[path] = frozenset(
            number for hunk in changed for number in range(hunk.target_start, hunk.target_start + hunk.target_length)
        )
    return ChangedLines(added, in_hunks)
