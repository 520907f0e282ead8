"""The outcomes a function can give its caller, read from its source, and the
outcomes a mock gives in its place.

An outcome is a kind of result the caller can branch on: a distinct literal
return value (``"APPROVED"``, ``0``, ``[]``), ``None``, ``True``/``False``,
"a value" (any other returned expression), or raising a named exception. A
mock is partial when it yields fewer of its target's outcomes than the target
can produce. Everything here is static: nothing is imported or run.
"""

from __future__ import annotations

import ast
import builtins
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from mockpolicy.functions import FunctionNode, falls_through
from mockpolicy.vocabulary import callee_name

A_VALUE = "a value"
A_MOCK = "a MagicMock"
AN_EXCEPTION = "an exception"

# Calls whose result is True or False whatever their arguments.
_BOOLEAN_CALLS = frozenset(
    {"isinstance", "issubclass", "hasattr", "callable", "bool", "all", "any", "startswith", "endswith",
     "isdigit", "isalpha", "isalnum", "isspace", "islower", "isupper", "exists", "isfile", "isdir",
     "is_file", "is_dir", "match_hostname"}
)
# ... and these when called on ``os`` or ``os.path`` (``os.access(path, os.W_OK)``:
# psutil's ``is_storage_device``); other code may give the names other meanings.
_OS_PREDICATES = frozenset({"access", "islink", "ismount", "isabs", "samefile", "lexists"})
_EXCEPTION_SUFFIXES = ("Error", "Exception", "Exit", "Interrupt", "Warning", "Timeout", "Failure")
_NESTED_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_LEAVES = (ast.expr_context, ast.operator, ast.cmpop, ast.unaryop, ast.boolop, ast.Constant, ast.Name)
_PROPERTY_DECORATORS = frozenset({"property", "cached_property", "setter", "getter", "deleter", "overload"})


OutcomeKind = Literal["returns", "raises"]


@dataclass(frozen=True, order=True)
class Outcome:
    """``kind`` is ``returns`` or ``raises``; ``value`` a literal's repr, ``None``,
    ``a value``, ``a MagicMock`` (what an unconfigured mock returns) or an
    exception name."""

    kind: OutcomeKind
    value: str

    def __str__(self) -> str:
        return f"{self.kind} {self.value}"


NONE = Outcome("returns", "None")
TRUE, FALSE = Outcome("returns", "True"), Outcome("returns", "False")
VALUE = Outcome("returns", A_VALUE)
MOCK_VALUE = Outcome("returns", A_MOCK)


# coverage.py's default exclusion: code the project itself marks as never run in tests.
_NO_COVER = re.compile(r"#\s*(pragma|PRAGMA)[:\s]?\s*(no|NO)\s*(cover|COVER)")


def function_outcomes(function: FunctionNode, lines: Sequence[str] | None = None) -> frozenset[Outcome] | None:
    """What calling ``function`` can give the caller; None when that cannot be
    told (a generator, a property). ``lines`` (the module's source lines) let
    code marked ``# pragma: no cover`` be left out. Not remembered here: the
    engine's ``Memo`` keeps the outcomes of long-lived modules' functions."""
    excluded = _excluded(function, lines) if lines is not None else set()
    return _function_outcomes(function, excluded)


def _excluded(function: FunctionNode, lines: Sequence[str]) -> set[int]:
    """ids of the statements of ``function`` that ``# pragma: no cover`` excludes:
    a statement whose first line carries it, or every statement of an ``else:``
    or ``except`` clause whose line carries it."""
    end = function.end_lineno or function.lineno
    if not any(_NO_COVER.search(line) for line in lines[function.lineno - 1 : end]):
        return set()

    def marked(line: int) -> bool:
        return 1 <= line <= len(lines) and _NO_COVER.search(lines[line - 1]) is not None

    excluded: set[int] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.stmt) and node is not function and marked(node.lineno):
            excluded.add(id(node))
        if isinstance(node, ast.ExceptHandler) and marked(node.lineno):
            excluded.update(id(statement) for statement in node.body)
        orelse = getattr(node, "orelse", None)
        if isinstance(node, (ast.If, ast.For, ast.While, ast.Try)) and orelse:
            first = orelse[0].lineno
            for number in range(first - 1, max(node.lineno, first - 6), -1):  # the `else:` line above it
                text = lines[number - 1].strip() if number <= len(lines) else ""
                if text.startswith("else"):
                    if marked(number):
                        excluded.update(id(statement) for statement in orelse)
                    break
    return excluded


def _function_outcomes(function: FunctionNode, excluded: set[int]) -> frozenset[Outcome] | None:
    if any(callee_name(d) in _PROPERTY_DECORATORS for d in function.decorator_list):
        return None
    found: set[Outcome] = set()
    stack: list[ast.AST] = list(function.body)
    while stack:  # the function's own nodes, in any order
        node = stack.pop()
        kind = type(node)
        if kind is ast.Yield or kind is ast.YieldFrom:
            return None
        if id(node) in excluded:
            continue
        if kind is ast.Return:
            found.update(returned(node.value))  # type: ignore[attr-defined]
        elif kind in _NESTED_SCOPES:
            continue
        for name in node._fields:  # ast.iter_child_nodes, without its generator
            value = getattr(node, name, None)
            if type(value) is list:
                stack.extend(item for item in value if isinstance(item, ast.AST) and not isinstance(item, _LEAVES))
            elif isinstance(value, ast.AST) and not isinstance(value, _LEAVES):
                stack.append(value)
    found.update(o for o in _raised(function, excluded))
    if falls_through(function.body):
        found.add(NONE)
    return frozenset(found)


def returned(expr: ast.expr | None) -> set[Outcome]:
    """The outcomes of ``return expr`` in real code: a comparison gives both
    ``True`` and ``False``."""
    if expr is None:
        return {NONE}
    literal = literal_outcome(expr)
    if literal is not None:
        return {literal}
    if _is_boolean(expr):
        return {TRUE, FALSE}
    if isinstance(expr, ast.IfExp):
        return returned(expr.body) | returned(expr.orelse)
    return {VALUE}


def literal_outcome(expr: ast.expr) -> Outcome | None:
    """The outcome of a literal expression (``"x"``, ``-1``, ``None``, ``[]``), or None."""
    if isinstance(expr, ast.Constant):
        if expr.value is Ellipsis:
            return None
        if isinstance(expr.value, str):
            return Outcome("returns", json.dumps(expr.value, ensure_ascii=False))
        return Outcome("returns", repr(expr.value))
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub) and isinstance(expr.operand, ast.Constant):
        if isinstance(expr.operand.value, (int, float)) and not isinstance(expr.operand.value, bool):
            return Outcome("returns", repr(-expr.operand.value))
    if isinstance(expr, (ast.List, ast.Tuple, ast.Set)) and not expr.elts:
        return Outcome("returns", {ast.List: "[]", ast.Tuple: "()", ast.Set: "set()"}[type(expr)])
    if isinstance(expr, ast.Dict) and not expr.keys:
        return Outcome("returns", "{}")
    return None


def fixed_outcome(expr: ast.expr) -> Outcome:
    """What a mock configured to return ``expr`` gives every time: a literal, or a value."""
    literal = literal_outcome(expr)
    return literal if literal is not None else VALUE


def _is_boolean(expr: ast.expr) -> bool:
    if isinstance(expr, ast.Compare):
        return True
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        return True
    if isinstance(expr, ast.BoolOp):
        return all(_is_boolean(value) for value in expr.values)
    if isinstance(expr, ast.Call):
        name = callee_name(expr.func)
        return name in _BOOLEAN_CALLS or (
            name in _OS_PREDICATES and isinstance(expr.func, ast.Attribute) and callee_name(expr.func.value) in ("os", "path")
        )
    return False


def exception_name(expr: ast.expr, raised: bool = True) -> str | None:
    """The exception a ``raise``/``side_effect`` expression names: ``KeyError``
    for ``KeyError``, ``KeyError("x")`` or ``errors.KeyError``; None when the
    expression does not look like an exception. What ``raise`` is given is
    an exception whatever its name (``raise Abort``); a ``side_effect``
    (``raised=False``) may be any object, so only a builtin exception or a
    name ending like one (``...Error``) counts there."""
    name = callee_name(expr)
    if not name:
        return None
    if named_like_an_exception(name) or (raised and _class_name(name)):
        return name
    return None


def named_like_an_exception(name: str) -> bool:
    """Whether the class name ``name`` is a builtin exception's, or ends like
    one (``...Error``, ``...Exception``)."""
    builtin = getattr(builtins, name, None)
    return (isinstance(builtin, type) and issubclass(builtin, BaseException)) or name.endswith(_EXCEPTION_SUFFIXES)


def looks_like_a_class(expr: ast.expr) -> bool:
    """Whether ``expr`` names a class by naming convention (``FakeResponse``,
    ``FakeResponse(500)``, ``errors.Conflict``)."""
    return _class_name(callee_name(expr))


def _class_name(name: str) -> bool:
    return bool(name) and name[0].isupper() and not name.isupper()


def parameter_names(arguments: ast.arguments) -> set[str]:
    """Every name a function or lambda binds from its arguments."""
    names = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
    names.update(a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None)
    return names


def _raised(function: FunctionNode, excluded: set[int]) -> Iterator[Outcome]:
    """The exceptions ``function`` raises itself and does not catch itself."""
    parameters = parameter_names(function.args)
    body = [statement for statement in function.body if id(statement) not in excluded]
    for outcome in _raised_in(body, caught=(), excluded=excluded):
        if outcome.value not in parameters:  # `except catch: raise` re-raises what the caller chose
            yield outcome


def _raised_in(
    body: Iterable[ast.stmt], caught: tuple[str, ...], handling: tuple[str, ...] = (), excluded: set[int] | None = None
) -> Iterator[Outcome]:
    excluded = excluded or set()
    for statement in body:
        if id(statement) in excluded:
            continue
        if isinstance(statement, ast.Raise):
            if statement.exc is None:
                for handled in handling:  # a bare re-raise inside a handler
                    yield Outcome("raises", handled)
                continue
            name = exception_name(statement.exc)
            if name is None:
                yield Outcome("raises", AN_EXCEPTION)
            elif name not in caught and "*" not in caught:
                yield Outcome("raises", name)
        elif isinstance(statement, ast.Try) or type(statement).__name__ == "TryStar":
            handlers: list[ast.ExceptHandler] = getattr(statement, "handlers", [])
            names: list[str] = []
            for handler in handlers:
                names.extend(_caught(handler))
            yield from _raised_in(getattr(statement, "body", []), (*caught, *names), handling, excluded)
            yield from _raised_in(getattr(statement, "orelse", []), caught, handling, excluded)
            yield from _raised_in(getattr(statement, "finalbody", []), caught, handling, excluded)
            for handler in handlers:
                reraised = tuple(AN_EXCEPTION if n == "*" else n for n in _caught(handler))
                yield from _raised_in(handler.body, caught, reraised, excluded)
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        else:
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(statement, field, None)
                if isinstance(inner, list):
                    yield from _raised_in(inner, caught, handling, excluded)
            for case in getattr(statement, "cases", []):
                yield from _raised_in(case.body, caught, handling, excluded)


def _caught(handler: ast.ExceptHandler) -> list[str]:
    """What a handler catches, by last name; ``*`` for everything."""
    if handler.type is None:
        return ["*"]
    items = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    names = [callee_name(item) for item in items]
    return ["*" if name in ("Exception", "BaseException") else name for name in names]
