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

    def get(self, path: Path) -> Source | None:
        if path not in self._cache:
            source = None
            try:
                text = decode_source(read_source(path))
                tree = ast.parse(text)
                parsed = coverage_parser.parse(text, str(path))
                source = Source(text, tree, parsed) if parsed is not None else None
            except (SourceError, SyntaxError, ValueError):  # ValueError: a NUL byte, or undecodable bytes
                source = None
            self._cache[path] = source
        return self._cache[path]
