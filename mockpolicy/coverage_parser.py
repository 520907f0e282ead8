"""The possible arcs of a source file, as coverage.py computes them.

This is the only module that uses coverage.py's private parser API
(``coverage.parser.PythonParser``); tests/test_branches.py checks it against
coverage's public JSON report, so a change in coverage shows up there first.
"""

from __future__ import annotations

from dataclasses import dataclass

from coverage.parser import PythonParser

Arc = tuple[int, int]


@dataclass(frozen=True)
class ParsedSource:
    """``arcs``: every arc coverage may record; ``first_lines`` maps each line
    of a multi-line statement to the statement's first line."""

    arcs: frozenset[Arc]
    first_lines: dict[int, int]

    def first_line(self, line: int) -> int:
        return self.first_lines.get(line, line)

    def destinations(self, line: int) -> set[int]:
        """Where control may go from the statement starting at ``line``."""
        return {end for start, end in self.arcs if start == line}


def parse(source: str, filename: str) -> ParsedSource | None:
    """Parse with coverage's own parser; None when the source does not parse."""
    try:
        parser = PythonParser(text=source, filename=filename, exclude=None)
        parser.parse_source()
        arcs = frozenset(parser.arcs())
    except Exception:  # noqa: BLE001 - coverage raises its own NotPython and others
        return None
    first_lines: dict[int, int] = {}
    for line in range(1, source.count("\n") + 2):
        first = parser.first_line(line)
        if first != line:
            first_lines[line] = first
    return ParsedSource(arcs, first_lines)
