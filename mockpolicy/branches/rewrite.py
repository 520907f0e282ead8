"""``mockpolicy branches --fix``: rewriting ``# mock-partial:`` blocks from a verdict.

Only comment lines change: each file keeps its other bytes, line endings,
BOM, encoding and permissions, and a second run on the same data changes nothing.
A file is replaced by renaming a new temporary file over it, never written
through a link: a test file that is a symbolic link is refused.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import re
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from mockpolicy.branches.comments import same_code
from mockpolicy.branches.dependents import Dependent
from mockpolicy.branches.linelength import line_length, wrapped
from mockpolicy.branches.mocks import MockUnderTest
from mockpolicy.errors import MockpolicyError
from mockpolicy.findings import Finding
from mockpolicy.partials import REASON_PLACEHOLDER, Block
from mockpolicy.rules import STALE_UNTESTED_BRANCH_DOC
from mockpolicy.source import read_source, source_encoding

_BOM = b"\xef\xbb\xbf"


class RewriteError(MockpolicyError):
    """A file's new blocks cannot be written (its encoding, a link); nothing was written."""


def rewrite(
    root: Path, mocks: list[MockUnderTest], missing: dict[int, list[Dependent]], findings: list[Finding],
    preview: list[str] | None = None,
) -> list[str]:
    """Rewrite blocks from the data: drop stale entries (the whole block when
    none is left), add the ``missing`` ones (by ``id(mock)``) with a reason
    placeholder, and insert a block above an undocumented partial mock that
    starts a statement. Mocks sharing a block or a line are rewritten
    together. Returns the files rewritten, relative to ``root``; raises
    ``SourceError`` or ``RewriteError`` before writing any file. With
    ``preview``, nothing is written: a unified diff per file is appended to it,
    and no file is returned."""
    stale_lines = {(f.path, f.line) for f in findings if f.symbol == STALE_UNTESTED_BRANCH_DOC.symbol}
    plans: dict[tuple[str, int], tuple[MockUnderTest, list[str]]] = {}  # (path, anchor line) -> mock, new entries
    for mock in mocks:
        anchor = mock.block.line if mock.block is not None else mock.site_line
        if mock.block is None and not mock.insertable:
            continue
        planned = plans.setdefault((mock.path, anchor), (mock, []))[1]
        for item in missing.get(id(mock), []):
            line = f"untested: {item.reference}; {REASON_PLACEHOLDER}"
            if line not in planned:
                planned.append(line)
    edits: dict[str, list[tuple[int, int, list[str]]]] = {}  # path -> (first line, last line, new lines)
    limit = line_length(root)
    texts: dict[str, SourceText] = {}
    for (relative, anchor), (mock, new) in sorted(plans.items()):
        text = texts.get(relative) or texts.setdefault(relative, SourceText.read(root / relative))
        lines = text.lines
        if mock.block is None:
            if new:
                indent = _indent(lines[anchor - 1])
                inserted = [f"{indent}# mock-partial: {mock.summary}", *(w for line in new for w in wrapped(indent, line, limit))]
                edits.setdefault(relative, []).append((anchor, anchor - 1, inserted))
            continue
        block = mock.block
        indent = _indent(lines[block.line - 1])
        spans = _entry_spans(block)
        dropped = {entry.line for entry in block.entries if (relative, entry.line) in stale_lines}
        if not new and not dropped:
            continue
        if not new and len(dropped) == len(block.entries):
            edits.setdefault(relative, []).append((block.line, block.end_line, []))  # nothing left to document
            continue
        kept: list[str] = []
        insert_at = 1  # after the opener, or after the last entry kept
        for number in range(block.line, block.end_line + 1):
            owner = spans.get(number)
            if owner is not None and owner in dropped:
                continue
            kept.append(lines[number - 1])
            if owner is not None:
                insert_at = len(kept)
        kept[insert_at:insert_at] = [w for line in new for w in wrapped(indent, line, limit)]
        edits.setdefault(relative, []).append((block.line, block.end_line, kept))
    encoded: dict[str, bytes] = {}
    for relative, file_edits in edits.items():
        _writable(root, relative)
        text = texts[relative]
        for first, last, replacement in sorted(file_edits, key=lambda e: e[0], reverse=True):
            text.replace(first, last, replacement)
        encoded[relative] = text.encode(relative)
        if not same_code(text.data, encoded[relative]):  # a safeguard: blocks and openings come from tokens
            raise RewriteError(f"cannot rewrite the '# mock-partial:' blocks of {relative}: the new comment lines "
                               "would change its code; no file was rewritten.")
    if preview is not None:
        for relative in sorted(encoded):
            text = texts[relative]
            before = text.data.decode(text.encoding).splitlines(keepends=True)
            after = encoded[relative].decode(text.encoding).splitlines(keepends=True)
            preview.append("".join(difflib.unified_diff(before, after, f"a/{relative}", f"b/{relative}")))
        return []
    for relative, data in encoded.items():
        _write(root, relative, data)
    return sorted(edits)


@dataclass
class SourceText:
    """A file's lines with their own line endings, for edits that keep the rest byte for byte."""

    lines: list[str]
    endings: list[str]
    bom: bool
    newline: str
    encoding: str
    data: bytes  # as read

    @classmethod
    def read(cls, path: Path) -> SourceText:
        """The file at ``path``, decoded as Python decodes it; raises ``SourceError``."""
        data = read_source(path)
        encoding = source_encoding(data)
        pieces = re.findall(r"([^\r\n]*)(\r\n|\r|\n|$)", data.decode(encoding))
        if pieces and pieces[-1] == ("", ""):
            pieces.pop()
        lines = [content for content, _ in pieces]
        endings = [ending for _, ending in pieces]
        newline = max(("\r\n", "\r", "\n"), key=endings.count) if any(endings) else "\n"
        return cls(lines, endings, data.startswith(_BOM), newline, encoding, data)

    def replace(self, first: int, last: int, replacement: list[str]) -> None:
        """Lines ``first..last`` (1-based, inclusive; ``last = first - 1`` inserts) become ``replacement``."""
        endings = self.endings[first - 1 : last]
        endings += [self.newline] * (len(replacement) - len(endings))
        self.lines[first - 1 : last] = replacement
        self.endings[first - 1 : last] = endings[: len(replacement)]

    def encode(self, shown: str) -> bytes:
        """The file's bytes, in its own encoding (and BOM); ``shown`` names it in a ``RewriteError``."""
        text = "".join(line + ending for line, ending in zip(self.lines, self.endings))
        codec = "utf-8" if self.encoding == "utf-8-sig" else self.encoding
        try:
            return (_BOM if self.bom else b"") + text.encode(codec)
        except UnicodeEncodeError as exc:
            raise RewriteError(
                f"cannot rewrite the '# mock-partial:' blocks of {shown}: its encoding ({self.encoding}) "
                f"cannot hold {exc.object[exc.start:exc.end]!r}; no file was rewritten."
            ) from None


def _writable(root: Path, relative: str) -> os.stat_result:
    """The status of the file ``relative`` (to ``root``) if ``--fix`` may replace
    it: a regular file, not a link, in a folder of the project; else ``RewriteError``."""
    shown = f"cannot rewrite the '# mock-partial:' blocks of {relative}"
    path = root / relative
    try:
        status = os.lstat(path)
        folder = path.parent.resolve()
    except OSError as exc:
        raise RewriteError(f"{shown}: {exc.strerror or exc}; no file was rewritten.") from None
    if stat.S_ISLNK(status.st_mode):
        raise RewriteError(f"{shown}: it is a symbolic link; rewrite the file it points to, "
                           "or replace the link with that file; no file was rewritten.")
    if not stat.S_ISREG(status.st_mode):
        raise RewriteError(f"{shown}: it is not a regular file; no file was rewritten.")
    if folder != root.resolve() and root.resolve() not in folder.parents:
        raise RewriteError(f"{shown}: its folder is a link that leads out of the project; no file was rewritten.")
    return status


def _write(root: Path, relative: str, data: bytes) -> None:
    """Replace the file ``relative`` (to ``root``) with ``data``, keeping its
    permissions: ``data`` goes to a new file of a random name beside it
    (created exclusively, so never an existing file or a link), which is then
    renamed over it; the new file is removed if anything fails."""
    status = _writable(root, relative)
    path = root / relative
    try:
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".mockpolicy-tmp")
    except OSError as exc:
        raise RewriteError(f"cannot rewrite {relative}: {exc.strerror or exc}.") from None
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), stat.S_IMODE(status.st_mode))
        os.replace(temporary, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            raise RewriteError(f"cannot rewrite {relative}: {exc.strerror or exc}.") from None
        raise


def _entry_spans(block: Block) -> dict[int, int]:
    """Line -> the entry line it belongs to (an entry and its continuation lines)."""
    starts = sorted(entry.line for entry in block.entries)
    reason_line = [block.reason.pieces[0][0]] if block.reason is not None and block.reason.pieces else []
    items = sorted({*starts, *reason_line})
    spans: dict[int, int] = {}
    for index, start in enumerate(items):
        end = items[index + 1] - 1 if index + 1 < len(items) else block.end_line
        if start in starts:
            for number in range(start, end + 1):
                spans[number] = start
    return spans


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]
