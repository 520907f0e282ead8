"""The finding record every rule produces and every front end reports."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, order=True)
class Finding:
    """One rule violation at one place in one file.

    ``line`` is 1-based and ``column`` 0-based, as in pylint. ``path`` is the
    file as given to the engine; front ends make it relative for display.
    ``scope`` is the dotted name of the enclosing class/function ("" at module
    level) and ``statement`` the source text of the offending call or
    statement; together they identify the finding without a line number.
    """

    path: str
    line: int
    column: int
    symbol: str
    message: str
    end_line: int | None = None
    end_column: int | None = None
    scope: str = ""
    statement: str = field(default="", compare=False)
