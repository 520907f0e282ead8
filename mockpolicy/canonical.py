"""A statement's syntax tree as text that every supported Python writes the same.

A finding's identity (``mockpolicy.identity``) hashes this text, so it must
not change with the layout of the source nor with the Python that reads it.

Why not ``ast.dump``: its output differs between Python versions. 3.12 added
``type_params`` to functions and classes, 3.13 ``default_value`` to type
parameters and changed which empty fields are shown, 3.8-3.13 print
``Constant.kind`` ('u' for a ``u"..."`` literal) and ``type_comment``, and the
``repr`` of a string depends on the Unicode database of the Python (which
characters are printable). So the tree is written here by hand:

- every node as its class name and its fields in sorted order; positions are
  attributes, not fields, and are never written;
- left out: ``ctx`` (Load/Store/Del follows from the place), ``kind`` (the
  ``u`` prefix), ``type_comment`` and ``type_ignores`` (comments), and fields
  whose value is ``None`` or an empty list (the defaults newer Pythons add);
- constants by type and exact value: strings as ASCII JSON, bytes in hex,
  integers in hex (no digit limit), floats with ``float.hex``;
- in an f-string, adjacent literal parts joined and empty ones dropped: 3.12
  (PEP 701) splits literal text differently from 3.10 and 3.11;
- trees nested deeper than ``MAX_DEPTH`` are not written at all (see there).

Syntax an older Python does not know (``def f[T]()``, 3.12; ``t"..."``, 3.14)
does not parse there, so it is identified by tokens on that Python and by
its tree on newer ones; such code does not run on the older Python anyway.

Quotes, string prefixes that keep the value (``u``, ``r`` where nothing is
escaped), implicit concatenation, parentheses, line splits, trailing commas,
comments and whitespace are not in the tree, so they cannot change the text.

``Finding.statement`` is usually an expression (a mock call) or a simple
statement (an assignment, an ``assert``), which parse alone. Text that does
not parse alone is parsed the way it sits in a file: a compound statement
whose later lines keep their indentation (padded to its column, inside an
``if`` block), a decorator line (without its ``@``), a header line of a
compound statement (``with ...:``, with a ``pass`` body), an ``except``
clause (inside a ``try``), a ``with`` item (``x as y``). Text that parses in
none of these ways (or only to nothing, such as a comment line) is identified
by its tokens instead (``mockpolicy.identity``).
"""

from __future__ import annotations

import ast
import json
import warnings
from collections.abc import Callable

_LEFT_OUT = frozenset({"ctx", "kind", "type_comment", "type_ignores"})
_PARSE_ERRORS = (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError)
# Deeper trees are left to the tokens: every supported Python parses a tree
# this deep, but 3.11 and 3.12 fail on some that 3.10 and 3.13 parse (a chain
# of 3,000 additions), so deeper trees would differ between Pythons.
MAX_DEPTH = 1000
Pick = Callable[[ast.AST], "ast.AST | None"]


def canonical_statement(statement: str, column: int = 0) -> str | None:
    """The canonical text of ``statement``, found in a file at ``column``; None
    when it parses in none of the ways above (or only to nothing)."""
    text = statement.strip()
    if not text:
        return None
    attempts: list[tuple[str, str, Pick]] = [
        (text, "eval", _expression),
        (text, "exec", _statements),
        ("if 1:\n" + " " * max(column, 1) + text, "exec", _in_if),
    ]
    if text.startswith("@"):
        attempts.append((text[1:], "eval", _expression))
    if text.endswith(":"):
        attempts.append((text + " pass", "exec", _statements))
        attempts.append(("try: pass\n" + text + " pass", "exec", _handler))
    attempts.append(("with " + text + ": pass", "exec", _with_item))
    for source, mode, pick in attempts:
        tree = _parse(source, mode)
        node = pick(tree) if tree is not None else None
        if node is not None:
            return canonical(node)
    return None


def _parse(source: str, mode: str) -> ast.AST | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences: the file's own parse already met them
            return ast.parse(source, mode=mode)
    except _PARSE_ERRORS:
        return None


def _expression(tree: ast.AST) -> ast.AST | None:
    return tree.body if isinstance(tree, ast.Expression) else None


def _statements(tree: ast.AST) -> ast.AST | None:
    body = tree.body if isinstance(tree, ast.Module) else []
    if not body:
        return None
    return body[0] if len(body) == 1 else ast.Module(body=body, type_ignores=[])


def _in_if(tree: ast.AST) -> ast.AST | None:
    body = tree.body if isinstance(tree, ast.Module) else []
    if len(body) != 1 or not isinstance(body[0], ast.If):
        return None
    return _statements(ast.Module(body=body[0].body, type_ignores=[]))


def _handler(tree: ast.AST) -> ast.AST | None:
    body = tree.body if isinstance(tree, ast.Module) else []
    if len(body) != 1 or not isinstance(body[0], ast.Try) or len(body[0].handlers) != 1:
        return None
    return body[0].handlers[0]


def _with_item(tree: ast.AST) -> ast.AST | None:
    body = tree.body if isinstance(tree, ast.Module) else []
    if len(body) != 1 or not isinstance(body[0], ast.With) or len(body[0].items) != 1:
        return None
    return body[0].items[0]


def canonical(root: ast.AST) -> str | None:
    """``root`` written as described above, or None when it is nested deeper than
    ``MAX_DEPTH`` (the walk is iterative, so no depth can overflow the stack)."""
    out: list[str] = []
    stack: list[tuple[object, int]] = [(root, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, _Text):
            out.append(item.text)
            continue
        if depth > MAX_DEPTH:
            return None
        if isinstance(item, ast.AST):
            out.append(type(item).__name__ + "(")
            stack.append((_Text(")"), depth))
            for name, value in reversed(_fields(item)):
                stack.extend(((_Text(";"), depth), (value, depth + 1), (_Text(name + "="), depth)))
        elif isinstance(item, list):
            out.append("[")
            stack.append((_Text("]"), depth))
            for value in reversed(item):
                stack.extend(((_Text(","), depth), (value, depth + 1)))
        else:
            out.append(_constant(item))
    return "".join(out)


class _Text:
    """Text to write as it is (a delimiter), as opposed to a value to encode."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _fields(node: ast.AST) -> list[tuple[str, object]]:
    fields: list[tuple[str, object]] = []
    for name in sorted(node._fields):
        if name in _LEFT_OUT:
            continue
        value = getattr(node, name, None)
        if value is None or (isinstance(value, list) and not value):
            continue
        if name == "values" and isinstance(node, ast.JoinedStr) and isinstance(value, list):
            value = _joined(value)
        fields.append((name, value))
    return fields


def _joined(values: list[ast.expr]) -> list[ast.expr]:
    """An f-string's parts with adjacent literal text joined and empty text dropped."""
    parts: list[ast.expr] = []
    for value in values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            if not value.value:
                continue
            previous = parts[-1] if parts else None
            if isinstance(previous, ast.Constant) and isinstance(previous.value, str):
                parts[-1] = ast.Constant(previous.value + value.value)
                continue
        parts.append(value)
    return parts


def _constant(value: object) -> str:
    """A constant (or a plain field value: a name, a flag) by type and exact value."""
    if value is None or value is Ellipsis or isinstance(value, bool):
        return repr(value)
    if isinstance(value, str):
        return "s" + json.dumps(value)
    if isinstance(value, bytes):
        return "b'" + value.hex()
    if isinstance(value, int):
        return "i" + hex(value)
    if isinstance(value, float):
        return "f" + value.hex()
    if isinstance(value, complex):
        return "j" + value.real.hex() + "," + value.imag.hex()
    if isinstance(value, (tuple, frozenset)):  # never made by the parser; here for completeness
        return type(value).__name__ + "(" + ",".join(sorted(_constant(v) for v in value)) + ")"
    return type(value).__name__ + "?" + json.dumps(str(value))
