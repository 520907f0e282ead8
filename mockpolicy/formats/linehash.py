"""GitHub code scanning's ``primaryLocationLineHash``, computed as its upload
action computes it when a SARIF file comes without one.

For every line, a polynomial rolling hash (base 37, wrapping at 64 bits) of
the first 100 characters from the line's first non-blank character on, where
spaces and tabs are skipped everywhere, ``\\r\\n`` and ``\\r`` count as ``\\n``,
and the text ends with the character 65535 and then zeros. Characters are
UTF-16 code units. The value is the unsigned hash in lower-case hex without
leading zeros, then ``:N`` where N counts that value's occurrences so far in
the file. Supplying the same value GitHub would compute keeps alerts matched
across uploads.
"""

from __future__ import annotations

from collections import Counter

_WINDOW = 100
_BASE = 37
_MASK = (1 << 64) - 1
_END_OF_FILE = 0xFFFF
_SPACE, _TAB, _LF, _CR = 0x20, 0x09, 0x0A, 0x0D
_BASE_TO_WINDOW = pow(_BASE, _WINDOW, 1 << 64)


def _code_units(text: str) -> list[int]:
    data = text.encode("utf-16-le", errors="surrogatepass")
    return [data[i] | (data[i + 1] << 8) for i in range(0, len(data), 2)]


def line_hashes(text: str) -> list[str]:
    """The hash of each line of ``text``; element 0 is line 1. A text ending in a
    newline has one more (empty) line than it has newline characters."""
    window = [0] * _WINDOW
    starts = [-1] * _WINDOW  # the line number starting at that window slot, or -1
    state = {"hash": 0, "index": 0}
    seen: Counter[int] = Counter()
    hashes: dict[int, str] = {}

    def emit() -> None:
        value = state["hash"]
        seen[value] += 1
        hashes[starts[state["index"]]] = f"{value:x}:{seen[value]}"
        starts[state["index"]] = -1

    def push(unit: int) -> None:
        index = state["index"]
        oldest = window[index]
        window[index] = unit
        state["hash"] = (_BASE * state["hash"] + unit - _BASE_TO_WINDOW * oldest) & _MASK
        state["index"] = (index + 1) % _WINDOW

    line, at_line_start, after_cr = 0, True, False
    for unit in [*_code_units(text), _END_OF_FILE]:
        if unit in (_SPACE, _TAB) or (after_cr and unit == _LF):
            after_cr = False
            continue
        after_cr = unit == _CR
        if after_cr:
            unit = _LF
        if starts[state["index"]] != -1:
            emit()
        if at_line_start:
            at_line_start = False
            line += 1
            starts[state["index"]] = line
        at_line_start = unit == _LF
        push(unit)
    for _ in range(_WINDOW):
        if starts[state["index"]] != -1:
            emit()
        push(0)
    return [hashes[number] for number in range(1, line + 1)]
