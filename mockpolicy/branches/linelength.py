"""The line length a project's formatter or linter allows, for the lines
``mockpolicy branches --fix`` writes: ruff's, black's, flake8's or pylint's
setting, else 88. Unreadable or odd settings are skipped, never an error."""

from __future__ import annotations

import configparser
import sys
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

DEFAULT_LINE_LENGTH = 88
# (file, dotted TOML table or INI section, key), in the order they are asked;
# files ending in .toml are TOML, the others INI.
_SETTINGS = (
    ("ruff.toml", "", "line-length"), (".ruff.toml", "", "line-length"),
    ("pyproject.toml", "tool.ruff", "line-length"), ("pyproject.toml", "tool.black", "line-length"),
    ("pyproject.toml", "tool.pylint.format", "max-line-length"),
    ("pyproject.toml", "tool.pylint.FORMAT", "max-line-length"),
    (".flake8", "flake8", "max-line-length"), ("setup.cfg", "flake8", "max-line-length"),
    ("tox.ini", "flake8", "max-line-length"),
    (".pylintrc", "FORMAT", "max-line-length"), ("pylintrc", "FORMAT", "max-line-length"),
)


def line_length(root: Path) -> int:
    """The first positive integer setting found under ``root``, else 88."""
    for name, table, key in _SETTINGS:
        read = _toml_value if name.endswith(".toml") else _ini_value
        value = read(root / name, table, key)
        if value is not None:
            return value
    return DEFAULT_LINE_LENGTH


def _toml_value(path: Path, table: str, key: str) -> int | None:
    try:
        with path.open("rb") as handle:
            data: Any = tomllib.load(handle)
    except (OSError, ValueError, RecursionError):  # missing, unreadable, not TOML
        return None
    for part in table.split(".") if table else []:
        data = data.get(part) if isinstance(data, dict) else None
    return _positive(data.get(key) if isinstance(data, dict) else None)


def _ini_value(path: Path, section: str, key: str) -> int | None:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(path, encoding="utf-8")
        text = parser.get(section, key, fallback=None)
    except (configparser.Error, UnicodeDecodeError, ValueError, OSError):
        return None
    try:
        return _positive(int(text)) if text is not None else None
    except ValueError:
        return None


def _positive(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def wrapped(indent: str, text: str, limit: int) -> list[str]:
    """``text`` as a block line (``#   text``) and continuation lines
    (``#     more``), broken at spaces to fit ``limit`` where words allow."""
    first, rest = f"{indent}#   ", f"{indent}#     "
    lines: list[str] = []
    current = first
    for word in text.split(" "):
        prefix = first if not lines and current == first else rest
        if current != prefix and len(current) + 1 + len(word) > limit:
            lines.append(current)
            current = rest + word
        else:
            current = current + word if current == prefix else f"{current} {word}"
    lines.append(current)
    return lines
