"""Text safe to print: what a pull request controls (a patch target string, a
file name, a baseline's excerpt) must not start a new output line, which a CI
runner could read as a command (``::error ...``), nor move a terminal's cursor."""

from __future__ import annotations

import os
import unicodedata

_NAMED = {"\n": "\\n", "\r": "\\r"}


def printable(text: str) -> str:
    """``text`` with every control character except tab (C0, DEL, C1), the
    Unicode line and paragraph separators, and lone surrogates (undecodable
    bytes of a file name) written as backslash escapes."""
    if text.isprintable():
        return text
    return "".join(_escaped(character) for character in text)


def _escaped(character: str) -> str:
    if character == "\t" or unicodedata.category(character) not in ("Cc", "Zl", "Zp", "Cs"):
        return character
    if character in _NAMED:
        return _NAMED[character]
    code = ord(character)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def displayable_name(name: str) -> str:
    """A file name (as ``os.fsdecode`` gives it) whose bytes that are not UTF-8
    are written as ``\\xNN``, so every output format and the baseline can hold it."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(name).decode("utf-8", "backslashreplace")
    return name
