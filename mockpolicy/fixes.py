"""Mechanical fixes: source edits that are certain to be what a rule asks for.

Only one is offered today: ``unspecced-mock`` on a one-line ``patch(target)``
or ``patch.object(target, attribute)`` call (any alias, ``mocker.patch`` too)
that gives no replacement, spec or factory gets ``autospec=True``. Anything
less certain (several lines, ``*args``/``**kwargs``, ``create=``) gets none.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from mockpolicy.findings import Finding
from mockpolicy.rules import UNSPECCED_MOCK
from mockpolicy.vocabulary import CALLEES, MOCK_MODULE, SPECCING_KEYWORDS

# create= too: the target may not exist, and autospec=True needs one.
_REPLACING_KEYWORDS = SPECCING_KEYWORDS | {"create"}
# The forms that take autospec=True, each recognised by how its name ends.
_AUTOSPECCABLE = (CALLEES[f"{MOCK_MODULE}.patch"], CALLEES[f"{MOCK_MODULE}.patch.object"])


@dataclass(frozen=True)
class Fix:
    """Replace bytes ``column:end_column`` of line ``line`` (0-based UTF-8 byte
    offsets) with ``replacement``."""

    description: str
    line: int
    column: int
    end_column: int
    replacement: str

    def apply(self, line_text: str) -> str:
        """``line_text`` (the source line ``line``) with the fix applied."""
        data = line_text.encode("utf-8")
        return (data[: self.column] + self.replacement.encode("utf-8") + data[self.end_column :]).decode("utf-8")


def fix_for(finding: Finding, line_text: str | None) -> Fix | None:
    """The fix for ``finding`` whose first source line is ``line_text``, or None."""
    if finding.symbol != UNSPECCED_MOCK.symbol or line_text is None:
        return None
    if finding.end_line != finding.line or finding.end_column is None:
        return None
    data = line_text.encode("utf-8")
    try:
        call_text = data[finding.column : finding.end_column].decode("utf-8")
        call = ast.parse(call_text.strip(), mode="eval").body
    except (UnicodeDecodeError, SyntaxError, ValueError):
        return None
    if call_text != call_text.strip() or not isinstance(call, ast.Call) or not _takes_autospec(call):
        return None
    inner = call_text[:-1].rstrip()
    replacement = inner + (" autospec=True)" if inner.endswith(",") else ", autospec=True)")
    return Fix("add `autospec=True`", finding.line, finding.column, finding.end_column, replacement)


def _takes_autospec(call: ast.Call) -> bool:
    """Whether ``call`` is ``patch(target)`` or ``patch.object(target, name)`` with
    nothing that replaces, specs or creates the target."""
    names = []
    func: ast.expr = call.func
    while isinstance(func, ast.Attribute):
        names.append(func.attr)
        func = func.value
    if isinstance(func, ast.Name):
        names.append(func.id)
    names.reverse()
    callee = next((c for c in _AUTOSPECCABLE if names[-len(c.kind.split(".")) :] == c.kind.split(".")), None)
    if callee is None or callee.new is None:
        return False
    if any(isinstance(arg, ast.Starred) for arg in call.args) or len(call.args) != callee.new.position:
        return False
    return all(k.arg is not None and k.arg not in _REPLACING_KEYWORDS for k in call.keywords)
