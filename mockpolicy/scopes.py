"""Which scopes a test file defines now: the baseline asks before it lets a
finding keep the allowance of an entry whose scope is gone (a test renamed,
or moved to another class or file).

A scope is named as ``mockpolicy.sites`` names the place of a finding: the
dotted names of the classes and functions defined directly in the module's
body or in a class body ("" is the module itself). Functions defined inside a
function are not scopes: their findings belong to the enclosing function.
"""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

from mockpolicy.source import SourceError, decode_source, read_source


def defined_scopes(tree: ast.Module) -> frozenset[str]:
    """Every scope ``tree`` defines, the module's own ("") included."""
    found = {""}
    pending: list[tuple[str, list[ast.stmt]]] = [("", tree.body)]
    while pending:
        prefix, body = pending.pop()
        for statement in body:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}.{statement.name}" if prefix else statement.name
                found.add(name)
                if isinstance(statement, ast.ClassDef):
                    pending.append((name, statement.body))
    return frozenset(found)


class Scopes:
    """The scopes of the files of one project as they are now, each file read
    at most once. Paths are POSIX, relative to ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._files: dict[str, frozenset[str] | None] = {}

    def gone(self, path: str, scope: str) -> bool:
        """Whether ``scope`` is certainly no longer defined in ``path``: the file
        is gone, or reads and parses and does not define it. A file that cannot
        be read or parsed, or that lies outside the project, is not called gone."""
        if path not in self._files:
            self._files[path] = self._read(path)
        defined = self._files[path]
        return defined is not None and scope not in defined

    def _read(self, path: str) -> frozenset[str] | None:
        """The scopes ``path`` defines; empty when it is gone; None when unknown."""
        candidate = self.root / path
        try:
            absolute = candidate.resolve()
        except (OSError, RuntimeError, ValueError):
            return None
        if absolute != self.root and self.root not in absolute.parents:
            return None  # an entry naming a file outside the project is not ours to look at
        try:
            if not candidate.exists():
                return frozenset()
            data = read_source(candidate)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(decode_source(data))
        except (SourceError, OSError, ValueError, SyntaxError, RecursionError, MemoryError):
            return None
        return defined_scopes(tree)
