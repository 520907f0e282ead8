"""GitHub code scanning's ``primaryLocationLineHash``, computed as its upload
action (github/codeql-action, ``fingerprints.ts``) computes it for a SARIF
file that comes without one.

For every line: a polynomial rolling hash (base 37, wrapping at 64 bits) of
the 100 characters from the line's first non-blank character on, where spaces
and tabs are skipped everywhere, ``\\r\\n`` and ``\\r`` count as ``\\n``, and the
text is followed by the character 65535 and then zeros. Characters are UTF-16
code units. The value is the unsigned hash in lower-case hex without leading
zeros, then ``:N``, N counting that value's occurrences so far in the file.
Supplying the value GitHub would compute keeps alerts matched across uploads.
"""

from __future__ import annotations

from collections import Counter

_WINDOW = 100
_BASE = 37
_MASK = (1 << 64) - 1
_END_OF_FILE = 0xFFFF
_SPACE, _TAB, _LF, _CR = 0x20, 0x09, 0x0A, 0x0D
_BASE_TO_WINDOW = pow(_BASE, _WINDOW, 1 << 64)


class _RollingHash:
    """The last ``_WINDOW`` characters, their hash, and which of them start a line."""

    def __init__(self) -> None:
        self.window = [0] * _WINDOW
        self.line_at = [0] * _WINDOW  # the line starting at that slot, or 0
        self.index = 0
        self.value = 0
        self.seen: Counter[int] = Counter()
        self.hashes: dict[int, str] = {}

    def emit_if_line_start(self) -> None:
        """A line starting at the slot about to be overwritten has its full window."""
        line = self.line_at[self.index]
        if line:
            self.seen[self.value] += 1
            self.hashes[line] = f"{self.value:x}:{self.seen[self.value]}"
            self.line_at[self.index] = 0

    def push(self, unit: int, starts_line: int = 0) -> None:
        self.emit_if_line_start()
        if starts_line:
            self.line_at[self.index] = starts_line
        oldest = self.window[self.index]
        self.window[self.index] = unit
        self.value = (_BASE * self.value + unit - _BASE_TO_WINDOW * oldest) & _MASK
        self.index = (self.index + 1) % _WINDOW


def _code_units(text: str) -> list[int]:
    data = text.encode("utf-16-le", errors="surrogatepass")
    return [data[i] | (data[i + 1] << 8) for i in range(0, len(data), 2)]


def line_hashes(text: str) -> list[str]:
    """The hash of each line of ``text``; element 0 is line 1. A text ending in a
    newline has one more (empty) line than it has newline characters."""
    rolling = _RollingHash()
    line, at_line_start, after_cr = 0, True, False
    for unit in [*_code_units(text), _END_OF_FILE]:
        if unit in (_SPACE, _TAB) or (after_cr and unit == _LF):
            after_cr = False
            continue
        after_cr = unit == _CR
        if after_cr:
            unit = _LF
        starts = 0
        if at_line_start:
            line += 1
            starts = line
        at_line_start = unit == _LF
        rolling.push(unit, starts)
    for _ in range(_WINDOW):
        rolling.push(0)
    return [rolling.hashes[number] for number in range(1, line + 1)]
