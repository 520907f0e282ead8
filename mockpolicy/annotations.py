"""Comment annotations that excuse a mock: ``# mock-boundary: <reason>`` and
``# mock-isolation: <reason>``.

An annotation belongs to a mock when it ends one of the lines the mock call
spans, or sits in the block of comment lines directly above the call's first
line (for a decorator: above the decorator).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, cast

AnnotationKind = Literal["boundary", "isolation"]

_ANNOTATION = re.compile(r"#\s*mock-(boundary|isolation)\s*:(.*)$")
_NEXT_COMMENT = re.compile(r"\s#\s")  # a reason ends where another comment starts


@dataclass(frozen=True)
class Annotation:
    kind: AnnotationKind
    reason: str
    line: int


class Annotations:
    """The annotations of one source file, indexed by line."""

    def __init__(self, text: str) -> None:
        # Split as Python numbers lines (str.splitlines also splits on \f, \x1c, ...).
        self.lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        self.by_line: dict[int, list[Annotation]] = {}
        if "mock-" not in text:
            return
        for number, line in enumerate(self.lines, start=1):
            if "mock-" in line:
                for match in _ANNOTATION.finditer(line):
                    reason = _NEXT_COMMENT.split(match.group(2), maxsplit=1)[0].strip()
                    kind = cast(AnnotationKind, match.group(1))  # the pattern allows no other
                    self.by_line.setdefault(number, []).append(Annotation(kind, reason, number))

    def _is_comment_line(self, number: int) -> bool:
        return 1 <= number <= len(self.lines) and self.lines[number - 1].lstrip().startswith("#")

    def find(self, kind: AnnotationKind, first_line: int, last_line: int) -> Annotation | None:
        """The ``kind`` annotation attached to a call spanning ``first_line..last_line``."""
        if not self.by_line:
            return None
        for number in range(first_line, last_line + 1):
            for annotation in self.by_line.get(number, ()):
                if annotation.kind == kind:
                    return annotation
        number = first_line - 1
        while self._is_comment_line(number):
            for annotation in self.by_line.get(number, ()):
                if annotation.kind == kind:
                    return annotation
            number -= 1
        return None
