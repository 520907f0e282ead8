"""Function bodies of indexed modules, parsed when first used.

Nine tenths of a syntax tree's memory is function bodies, and the symbol index
needs few of them (the functions a mock replaces, the factories it follows).
``defer_bodies`` replaces each body of a module's functions and methods with a
``LazyBody``: a list that parses its function's lines again the first time it
is read, giving nodes equal to the originals (same fields, same positions).
Code reading a body sees a list of statements either way, and a walk enters
it. It costs a second parse of each body that is read, so engines living in
another program's process (the pylint plugin) use it to save memory; and a
module whose ``skeleton`` (its text without the bodies) the summary cache
kept is parsed as that skeleton, its bodies parsed when read.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Iterator
from typing import Any

from mockpolicy.functions import FunctionNode, child_nodes
from mockpolicy.source import Lines


class LazyBody(list):  # type: ignore[type-arg]
    """A function's body, parsed from its source lines on first use. It holds
    plain values (the lines and where the function lies, no closure and no
    link back to the function): an engine keeps thousands, and a host's
    garbage collector walks each object it holds."""

    __slots__ = ("_lines", "_first", "_last", "_indented", "loaded", "keep")

    def __init__(self, lines: Lines, function: FunctionNode, keep: bool = False) -> None:
        """``keep``: once parsed, the body stays (``reading_once`` never drops it)."""
        super().__init__()
        self._lines = lines
        self._first, self._last = function.lineno, function.end_lineno or function.lineno
        self._indented = function.col_offset > 0
        self.loaded = False
        self.keep = keep

    def _loaded(self) -> LazyBody:
        if not self.loaded:
            self.loaded = True
            list.extend(self, _parsed_body(self._lines, self._first, self._last, self._indented))
        return self

    def unload(self) -> None:
        """Drop the parsed statements; the next use parses them again (new nodes)."""
        list.clear(self)
        self.loaded = False


def reading_once(function: FunctionNode) -> Callable[[], None]:
    """For a walk of ``function``'s body that keeps none of its nodes: what to
    call after it to drop a deferred body that the walk parsed (nothing for a
    body that is not deferred, or that was parsed before: ``NOTHING``)."""
    body = function.body
    if isinstance(body, LazyBody) and not body.loaded and not body.keep:
        return body.unload
    return NOTHING


def NOTHING() -> None:  # noqa: N802 (a constant: what ``reading_once`` gives when there is nothing to drop)
    return None


def _materialising(name: str) -> Callable[..., Any]:
    method = getattr(list, name)

    def call(self: LazyBody, *args: Any, **kwargs: Any) -> Any:
        return method(self._loaded(), *args, **kwargs)

    call.__name__ = name
    return call


for _name in (
    "__iter__", "__len__", "__getitem__", "__setitem__", "__delitem__", "__reversed__", "__contains__",
    "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__add__", "__iadd__", "__mul__", "__rmul__",
    "__imul__", "__repr__", "__bool__", "append", "extend", "insert", "pop", "remove", "index", "count",
    "copy", "sort", "reverse", "clear",
):
    if hasattr(list, _name):
        setattr(LazyBody, _name, _materialising(_name))


def defer_bodies(
    tree: ast.Module, text: str | Lines, keep: bool = False, only: Collection[int] | None = None,
) -> None:
    """Replace the bodies of the functions and methods of ``tree`` (parsed from
    ``text``, or from its ``skeleton``) with lazy ones, parsed from ``text``;
    nested functions go with their enclosing body, and a body deferred
    already stays. ``keep``: see ``LazyBody``; ``only``: just the functions
    ending on these lines."""
    lines = text if isinstance(text, Lines) else None
    for function in _functions(tree.body):
        if function.end_lineno is None or type(function.body) is not list:
            continue
        if only is not None and function.end_lineno not in only:
            continue
        if lines is None:
            lines = Lines(text)  # type: ignore[arg-type]
        function.body = LazyBody(lines, function, keep)


# -- skeletons: a module's text without its function bodies ---------------------

Span = tuple[int, int, str]  # a body's first and last line, and the indentation of its first statement


def function_lines(tree: ast.Module) -> list[tuple[int, int]]:
    """The first and last line of each function ``defer_bodies`` defers: a
    skeleton's tree has the same as the module's."""
    return [(function.lineno, function.end_lineno or 0) for function in _functions(tree.body)]


def body_spans(tree: ast.Module, lines: Lines, kept: Callable[[FunctionNode, bool], bool]) -> list[Span]:
    """The bodies ``defer_bodies`` would defer in ``tree`` (parsed from
    ``lines``) that start on a line of their own: what ``skeleton`` leaves
    out, but for those ``kept(function, is_method)`` keeps (what a summary reads)."""
    spans: list[Span] = []
    for function, is_method in _functions_placed(tree.body, False):
        first, last = function.body[0], function.end_lineno
        if last is None or kept(function, is_method):
            continue
        decorators = getattr(first, "decorator_list", None) or []  # above the def or class they decorate
        start = min([first.lineno, *(decorator.lineno for decorator in decorators)])
        indentation = lines[start - 1].encode("utf-8", "surrogatepass")[: first.col_offset]
        if indentation.strip(b" \t\f") == b"":  # nothing of the signature on the body's first line
            spans.append((start, last, indentation.decode()))
    return spans


def skeleton(lines: Lines, spans: list[Span]) -> str:
    """The text of ``lines`` with each body of ``spans`` (from ``body_spans``)
    replaced by ``...`` on its last line: every other node keeps its place,
    and each function its first and last line, so ``defer_bodies`` on the
    skeleton's tree loads the bodies from ``lines``. Parsing it costs a
    fraction of parsing the text. Raises ``ValueError`` for spans that do not
    fit the text."""
    text = lines.text
    count = len(lines)
    pieces: list[str] = []
    done = 0  # offset in ``text`` copied so far
    previous = 0
    for first, last, indentation in spans:
        if not previous < first <= last <= count:
            raise ValueError("the spans do not fit the text")
        start, end = lines.start(first), lines.end(last)
        brk = text[lines.end(first - 1):start] if first > 1 else "\n"  # the text's own (a CR then LF would be one)
        pieces += [text[done:start], brk * (last - first), indentation, "..."]
        done, previous = end, last
    pieces.append(text[done:])
    return "".join(pieces)


def _functions(statements: list[ast.stmt]) -> Iterator[FunctionNode]:
    """The functions of ``statements`` outside any function: top level, in class
    bodies and in compound statements (``if``, ``try``, ``with``...)."""
    return (function for function, _ in _functions_placed(statements, False))


def _functions_placed(statements: list[ast.stmt], in_class: bool) -> Iterator[tuple[FunctionNode, bool]]:
    """``_functions`` with, for each, whether a class body holds it."""
    for statement in statements:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield statement, in_class
            continue
        inside = in_class or isinstance(statement, ast.ClassDef)
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            inner = getattr(statement, field, None)
            if not isinstance(inner, list):
                continue
            for item in inner:
                if isinstance(item, (ast.ExceptHandler, ast.match_case)):
                    yield from _functions_placed(item.body, inside)
                elif isinstance(item, ast.stmt):
                    yield from _functions_placed([item], inside)


def _parsed_body(lines: Lines, first: int, last: int, indented: bool) -> list[ast.stmt]:
    """The body of the function on lines ``first`` to ``last`` of ``lines``."""
    segment = lines.with_breaks(first, last)
    # An indented def parses inside an `if` block; empty lines before it put
    # it on its own line numbers (cheaper than shifting every node after).
    above = first - 2 if indented else first - 1
    if above < 0:
        tree = ast.parse("if 1:\n" + segment)  # the def shares the file's first line
        node = tree.body[0].body[0]  # type: ignore[attr-defined]
        _shift_lines(node.body, above)
    else:
        tree = ast.parse("\n" * above + ("if 1:\n" + segment if indented else segment))
        node = tree.body[0].body[0] if indented else tree.body[0]  # type: ignore[attr-defined]
    assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    return node.body


def _shift_lines(statements: list[ast.stmt], by: int) -> None:
    """``ast.increment_lineno`` for each of ``statements``, in one walk that
    skips the context and operator nodes (a third of the cost)."""
    stack: list[ast.AST] = list(statements)
    pop, extend = stack.pop, stack.extend
    while stack:
        node = pop()
        if "lineno" in node._attributes:
            node.lineno += by  # type: ignore[attr-defined]
            if node.end_lineno is not None:  # type: ignore[attr-defined]
                node.end_lineno += by  # type: ignore[attr-defined]
        extend(child_nodes(node))
