"""The source files branches are measured in, each read (through
``mockpolicy.source``) and parsed once per run."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from mockpolicy import coverage_parser
from mockpolicy.coverage_parser import ParsedSource
from mockpolicy.source import SourceError, decode_source, read_source


@dataclass(frozen=True)
class Source:
    """One file's text, ``ast`` tree and coverage.py's view of its arcs."""

    text: str
    tree: ast.Module
    parsed: ParsedSource


class Sources:
    """Source files read once; a file that cannot be read, decoded or parsed is None."""

    def __init__(self) -> None:
        self._cache: dict[Path, Source | None] = {}
        self._texts: dict[Path, str | None] = {}

    def text(self, path: Path) -> str | None:
        """The decoded text of ``path``, without parsing it (a cheap look first)."""
        if path not in self._texts:
            try:
                self._texts[path] = decode_source(read_source(path))
            except (SourceError, ValueError):  # ValueError: undecodable bytes
                self._texts[path] = None
        return self._texts[path]

    def get(self, path: Path) -> Source | None:
        if path not in self._cache:
            source = None
            text = self.text(path)
            if text is not None:
                try:
                    tree = ast.parse(text)
                    parsed = coverage_parser.parse(text, str(path))
                    source = Source(text, tree, parsed) if parsed is not None else None
                except (SyntaxError, ValueError):  # ValueError: a NUL byte
                    source = None
            self._cache[path] = source
        return self._cache[path]
