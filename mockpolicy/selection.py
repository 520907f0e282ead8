"""Which rules run where, as ruff users choose them: ``select``, ``ignore``,
``extend-select`` and ``per-file-ignores`` name rules by symbol
(``unspecced-mock``), message id (``W7307``) or id prefix (``W73``, ``W731``),
or ``ALL``.

Both front ends apply the same ``Selection``: the CLI filters its run with it,
the pylint plugin the findings of each module (pylint's own enable/disable
comes on top). ``mock-analysis-error`` stays selected whatever ``select``
names, as ruff reports a syntax error whatever is selected, so a file that
was not analysed never passes for a clean one; ``ignore`` turns it off.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

from mockpolicy.errors import MockpolicyError
from mockpolicy.rules import ALL_RULES, ANALYSIS_ERROR, RULES_BY_SYMBOL

ALL = "ALL"


class SelectionError(MockpolicyError):
    """A rule selector names no rule; the message says where it was given."""


def expand(names: Iterable[str], where: str) -> frozenset[str]:
    """The symbols ``names`` select; raises ``SelectionError`` for a name that
    selects nothing (``where`` says where it was given)."""
    symbols: set[str] = set()
    for name in names:
        found = _symbols(name.strip())
        if not found:
            raise SelectionError(
                f"{where}: '{name}' names no mockpolicy rule (use a symbol such as first-party-mock, "
                "an id such as W7301, an id prefix such as W73, or ALL)."
            )
        symbols |= found
    return frozenset(symbols)


def _symbols(name: str) -> frozenset[str]:
    if name.upper() == ALL:
        return frozenset(RULES_BY_SYMBOL)
    if name in RULES_BY_SYMBOL:
        return frozenset({name})
    prefix = name.upper()
    if len(prefix) >= 1 and prefix[0].isalpha() and prefix[1:].isdigit():
        return frozenset(rule.symbol for rule in ALL_RULES if rule.msgid.startswith(prefix))
    return frozenset()


@dataclass(frozen=True)
class Selection:
    """The enabled rules, and the rules ignored under path patterns (POSIX
    paths relative to the project root, ``fnmatch`` globs matched against the
    path and each folder above it)."""

    enabled: frozenset[str]
    per_file_ignores: tuple[tuple[str, frozenset[str]], ...] = ()

    def allows(self, symbol: str, relative_path: str) -> bool:
        if symbol not in self.enabled:
            return False
        if not self.per_file_ignores:
            return True
        path = PurePosixPath(relative_path)
        candidates = [path.as_posix(), *(parent.as_posix() for parent in path.parents if parent.parts)]
        return not any(
            symbol in ignored and any(fnmatch.fnmatchcase(candidate, pattern.rstrip("/")) for candidate in candidates)
            for pattern, ignored in self.per_file_ignores
        )

    def narrowed(
        self, select: Iterable[str] | None = None, ignore: Iterable[str] = (), extend_select: Iterable[str] = ()
    ) -> Selection:
        """This selection changed by command-line flags: ``select`` replaces the
        enabled rules, ``extend_select`` adds to them, ``ignore`` removes."""
        enabled = self.enabled
        if select is not None:  # the analysis error stays unless the configuration ignores it
            enabled = expand(select, "--select") | (self.enabled & {ANALYSIS_ERROR.symbol})
        enabled = (enabled | expand(extend_select, "--extend-select")) - expand(ignore, "--ignore")
        return Selection(enabled, self.per_file_ignores)


def from_settings(settings: Mapping[str, object], where: str, disabled_for_pylint: Iterable[str] = ()) -> Selection:
    """The selection ``[tool.mockpolicy]`` declares (``where`` names the file);
    ``disabled_for_pylint`` are names pylint's configuration disables, of which
    those naming mockpolicy rules are ignored too."""
    select = settings.get("select")
    enabled = frozenset(RULES_BY_SYMBOL)
    if select is not None:
        enabled = expand(_names(select), f"{where}: [tool.mockpolicy] select") | {ANALYSIS_ERROR.symbol}
    enabled |= expand(_names(settings.get("extend-select", [])), f"{where}: [tool.mockpolicy] extend-select")
    enabled -= expand(_names(settings.get("ignore", [])), f"{where}: [tool.mockpolicy] ignore")
    enabled -= frozenset(symbol for name in disabled_for_pylint for symbol in _pylint_named(name))
    raw = settings.get("per-file-ignores", {})
    per_file = tuple(
        (pattern, expand(_names(names), f"{where}: [tool.mockpolicy] per-file-ignores '{pattern}'"))
        for pattern, names in (raw.items() if isinstance(raw, Mapping) else ())
    )
    return Selection(enabled, per_file)


def _names(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _pylint_named(name: str) -> frozenset[str]:
    """Our rules a name in pylint's ``disable`` list turns off: a symbol, an id,
    or the checker's name. ``all`` and other checkers' names are pylint's business."""
    name = name.strip()
    if name == "mockpolicy":
        return frozenset(RULES_BY_SYMBOL)
    if name in RULES_BY_SYMBOL:
        return frozenset({name})
    return frozenset(rule.symbol for rule in ALL_RULES if rule.msgid == name.upper())
