"""Reading Python source: the one place files to analyse are opened and decoded.

Only regular files are read (a FIFO or device under the tests is refused,
never waited on), up to ``MAX_SOURCE_BYTES``; bytes are decoded as Python
decodes a module (a BOM or a coding declaration, else UTF-8).
"""

from __future__ import annotations

import ast
import io
import itertools
import os
import re
import stat
import tokenize
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import overload

from mockpolicy.errors import MockpolicyError

MAX_SOURCE_BYTES = 10 * 1024 * 1024


class SourceError(MockpolicyError):
    """A file cannot be read as source; the message names it."""


def read_source(path: Path, limit: int = MAX_SOURCE_BYTES) -> bytes:
    """The bytes of the regular file at ``path``; raises ``SourceError``."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror or exc}.") from None
    except ValueError as exc:  # a NUL byte in the name
        raise SourceError(f"cannot read {path!r}: {exc}.") from None
    with os.fdopen(descriptor, "rb") as handle:
        try:
            status = os.fstat(handle.fileno())
            if not stat.S_ISREG(status.st_mode):
                raise SourceError(f"cannot read {path}: not a regular file.")
            if status.st_size > limit:
                raise SourceError(f"cannot read {path}: larger than {limit // (1024 * 1024)} MiB.")
            data = handle.read(limit + 1)
        except OSError as exc:
            raise SourceError(f"cannot read {path}: {exc.strerror or exc}.") from None
    if len(data) > limit:
        raise SourceError(f"cannot read {path}: larger than {limit // (1024 * 1024)} MiB.")
    return data


# An ``__init__.py`` that only declares its package a namespace shared with
# other distributions: ``__path__ = __import__("pkgutil").extend_path(__path__,
# __name__)`` or ``pkg_resources.declare_namespace(__name__)`` (the Azure SDK's
# ``azure/__init__.py``). Small: a real package's ``__init__`` is read as code.
_NAMESPACE_DECLARATION = re.compile(rb"\bextend_path\s*\(|\bdeclare_namespace\s*\(")
_NAMESPACE_INIT_BYTES = 4096


def declares_namespace(init: Path) -> bool:
    """Whether the ``__init__.py`` at ``init`` is a pkgutil- or pkg_resources-style
    namespace declaration (a short file calling ``extend_path`` or
    ``declare_namespace``): its package is shared, like a folder without one."""
    try:
        data = read_source(init, limit=_NAMESPACE_INIT_BYTES)
    except SourceError:
        return False
    return _NAMESPACE_DECLARATION.search(data) is not None


def file_size(path: Path) -> int:
    """The size of the file at ``path`` in bytes; 0 when it cannot be read
    (sharing work by size needs no error: reading the file reports it)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0


def decode_source(data: bytes) -> str:
    """``data`` decoded as Python decodes a module; raises ``UnicodeDecodeError``
    or ``SyntaxError`` (an unknown coding declaration)."""
    return data.decode(source_encoding(data))


def source_encoding(data: bytes) -> str:
    """The codec ``decode_source`` decodes ``data`` with: ``utf-8-sig`` (a BOM
    dropped) unless a coding declaration names another; raises ``SyntaxError``
    for an unknown coding declaration."""
    if data.startswith(b"\xef\xbb\xbf") or not _declares_encoding(data):
        return "utf-8-sig"
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return encoding


def _declares_encoding(data: bytes) -> bool:
    head = data.split(b"\n", 2)[:2]
    return any(b"coding" in line and line.lstrip().startswith(b"#") for line in head)


def segment(lines: Sequence[str], node: ast.AST) -> str:
    """The source text of ``node`` in a file split into ``lines``, as
    ``ast.get_source_segment`` gives it (its column offsets count UTF-8 bytes),
    without splitting the file again on every call; "" for a node without a
    position."""
    start, end = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
    first, last = getattr(node, "col_offset", None), getattr(node, "end_col_offset", None)
    if start is None or end is None or first is None or last is None:
        return ""
    parts = [line.encode("utf-8") for line in lines[start - 1 : end]]
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0][first:last].decode("utf-8", "replace")
    parts[0], parts[-1] = parts[0][first:], parts[-1][:last]
    return b"\n".join(parts).decode("utf-8", "replace")


# Where Python breaks lines (and so numbers findings): LF, CRLF and a lone CR.
# Not str.splitlines, which also breaks at \v, \f, \x1c-\x1e, \x85, \u2028
# and \u2029, characters Python, git and GitHub keep inside a line.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class Lines(Sequence[str]):
    """``python_lines(text)`` kept as the one text and where each line starts
    and ends in it: a long-lived engine holds the lines of every module it
    read and reads few of them, and a string per line costs three times the
    text. Indexing and slicing give the strings ``python_lines`` would."""

    __slots__ = ("text", "_offsets")

    def __init__(self, text: str) -> None:
        self.text = text
        self._offsets: tuple[array[int], array[int]] | None = None  # found on first use of a line

    def _found(self) -> tuple[array[int], array[int]]:
        """Where each line starts and ends."""
        if self._offsets is None:
            text = self.text
            width = "i" if len(text) < 2**31 else "q"  # 4-byte offsets for any real source
            starts, ends = array(width, [0]), array(width)
            if "\r" in text:
                for found in _LINE_BREAK.finditer(text):
                    ends.append(found.start())
                    starts.append(found.end())
            else:  # LF only, the usual case: the same offsets without a loop per line
                ends.extend(itertools.accumulate((len(line) + 1 for line in text.split("\n")), initial=-1))
                del ends[0]
                ends.pop()
                starts.extend(end + 1 for end in ends)
            ends.append(len(text))
            if starts[-1] == len(text):  # a break at the very end starts no line
                starts.pop()
                ends.pop()
            self._offsets = (starts, ends)
        return self._offsets

    def __len__(self) -> int:
        return len(self._found()[0])

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        text, (starts, ends) = self.text, self._found()
        if isinstance(index, slice):
            return [text[starts[i] : ends[i]] for i in range(*index.indices(len(starts)))]
        return text[starts[index] : ends[index]]

    def start(self, number: int) -> int:
        """Where line ``number`` (from 1) starts in ``text``."""
        return self._found()[0][number - 1]

    def end(self, number: int) -> int:
        """Where line ``number`` (from 1) ends in ``text``, before its line break."""
        return self._found()[1][number - 1]

    def with_breaks(self, first: int, last: int) -> str:
        """Lines ``first`` to ``last`` (numbered from 1) as written, line breaks included."""
        starts = self._found()[0]
        end = starts[last] if last < len(starts) else len(self.text)
        return self.text[starts[first - 1] : end]


def python_lines(text: str) -> list[str]:
    """``text``'s lines as Python numbers them, without their line breaks
    (a break at the very end starts no line)."""
    lines = _LINE_BREAK.split(text)
    return lines[:-1] if lines[-1] == "" else lines
