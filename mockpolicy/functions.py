"""What a function body says about its names and results, read once per def.

``FunctionFacts`` lists, for one ``def``, its parameters, the names it binds by
plain assignment or ``with ... as``, the other names it stores, and the values
it returns and yields. Nested functions, classes and lambdas are not entered:
their names and returns are their own.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from mockpolicy.vocabulary import callee_name

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
CONTEXT_MANAGER_DECORATORS = frozenset({"contextmanager", "asynccontextmanager"})
PROPERTY_DECORATORS = frozenset({"property", "cached_property", "cachedproperty", "lazy_property"})


def dotted_parts(expr: ast.expr) -> list[str] | None:
    """``["a", "b", "c"]`` for the expression ``a.b.c``; None for anything but a dotted name."""
    parts: list[str] = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    parts.append(expr.id)
    parts.reverse()
    return parts


def decorator_names(node: FunctionNode) -> set[str]:
    """The last dotted component of each decorator (``pytest.fixture(...)`` -> ``fixture``)."""
    return {callee_name(decorator) for decorator in node.decorator_list}


@dataclass(eq=False)
class FunctionFacts:
    params: list[str]
    assigns: dict[str, list[ast.expr]] = field(default_factory=dict)
    entered: dict[str, list[ast.expr]] = field(default_factory=dict)  # with CM as name
    stored: set[str] = field(default_factory=set)
    imports: dict[str, tuple[int, str]] = field(default_factory=dict)  # name -> (level, dotted)
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)  # classes defined in the body
    functions: dict[str, FunctionNode] = field(default_factory=dict)  # functions defined in the body
    # a, b = source / with source as (a, b): name -> (source, position, bound by with)
    unpacked: dict[str, tuple[ast.expr, int, bool]] = field(default_factory=dict)
    returns: list[ast.expr | None] = field(default_factory=list)
    yields: list[ast.expr | None] = field(default_factory=list)
    falls_through: bool = True
    # "a.b" -> (C, is an instance) for each ``assert isinstance(a.b, C)`` or
    # ``assert a.b == C`` in the body (see ``asserted_types``)
    narrowed: dict[str, tuple[ast.expr, bool]] = field(default_factory=dict)

    @property
    def is_generator(self) -> bool:
        return bool(self.yields)


def is_none(expr: ast.expr | None) -> bool:
    """Whether ``expr`` is the literal ``None``."""
    return isinstance(expr, ast.Constant) and expr.value is None


def unquoted(annotation: ast.expr) -> ast.expr | None:
    """``annotation`` with a quoted one (``"Client"``) parsed; None when the
    quoted text is no expression."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            return ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return None
    return annotation


def import_bindings(node: ast.Import | ast.ImportFrom) -> list[tuple[str, int, str]]:
    """``(bound name, level, dotted path)`` for each name an import statement binds."""
    if isinstance(node, ast.Import):
        return [
            (alias.asname or alias.name.partition(".")[0], 0,
             alias.name if alias.asname else alias.name.partition(".")[0])
            for alias in node.names
        ]
    return [
        (alias.asname or alias.name, node.level, f"{node.module}.{alias.name}" if node.module else alias.name)
        for alias in node.names if alias.name != "*"
    ]


def function_facts(node: FunctionNode) -> FunctionFacts:
    arguments = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
    if node.args.vararg:
        arguments.append(node.args.vararg)
    if node.args.kwarg:
        arguments.append(node.args.kwarg)
    assigns: dict[str, list[ast.expr]] = {}
    stored: set[str] = set()
    imports: dict[str, tuple[int, str]] = {}
    statements: list[ast.stmt] = []
    classes: dict[str, ast.ClassDef] = {}
    functions: dict[str, FunctionNode] = {}
    stack: list[ast.AST] = list(node.body)
    pop, extend = stack.pop, stack.extend
    while stack:  # no generators, no context or operator nodes (``child_nodes``)
        current: Any = pop()
        kind = type(current)
        if kind is ast.Name:
            if type(current.ctx) is ast.Store:
                stored.add(current.id)
            continue
        if kind is ast.Constant:
            continue
        if kind in _NESTED:
            if kind is ast.ClassDef:
                classes.setdefault(current.name, current)
            elif kind is not ast.Lambda:
                functions.setdefault(current.name, current)
            continue
        if kind is ast.Assign:
            statements.append(current)
            if len(current.targets) == 1 and type(current.targets[0]) is ast.Name:
                assigns.setdefault(current.targets[0].id, []).append(current.value)
        elif kind is ast.AnnAssign:
            if type(current.target) is ast.Name and current.value:
                assigns.setdefault(current.target.id, []).append(current.value)
        elif kind is ast.With or kind is ast.AsyncWith or kind is ast.Return:
            statements.append(current)
        elif kind is ast.Yield or kind is ast.YieldFrom:
            statements.append(ast.Expr(current, lineno=current.lineno, col_offset=current.col_offset))
        elif kind is ast.Import or kind is ast.ImportFrom:
            imports.update((name, (level, dotted)) for name, level, dotted in import_bindings(current))
        extend(child_nodes(current))
    statements.sort(key=lambda statement: (statement.lineno, statement.col_offset))
    facts = facts_from_statements([a.arg for a in arguments], assigns, stored, statements, imports, classes)
    facts.functions = {name: f for name, f in functions.items() if name not in facts.assigns}
    facts.falls_through = falls_through(node.body)
    facts.narrowed = asserted_types(node.body)
    return facts


def asserted_types(body: list[ast.stmt]) -> dict[str, tuple[ast.expr, bool]]:
    """``{"a.b": (C, True)}`` for each ``assert isinstance(a.b, C)`` among
    ``body``'s own statements (not inside a branch or a nested block): a test
    that goes on past it holds a ``C`` there, as a type checker narrows it; and
    ``{"a.b": (C, False)}`` for ``assert a.b == C`` or ``assert a.b is C`` with
    ``C`` a dotted name: ``a.b`` is ``C`` itself (the resolver keeps this only
    for a class or function). A tuple of classes, or two asserts naming
    different things, narrow nothing."""
    found: dict[str, tuple[ast.expr, bool]] = {}
    conflicting: set[str] = set()
    for statement in body:
        if not isinstance(statement, ast.Assert):
            continue
        test = statement.test
        if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance" \
                and len(test.args) == 2 and not test.keywords:
            subject, cls = test.args
            instance = True
        elif isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.Is)):
            subject, cls = test.left, test.comparators[0]
            instance = False
        else:
            continue
        parts = dotted_parts(subject)
        if parts is None or dotted_parts(cls) is None:
            continue
        key = ".".join(parts)
        if key in found and (ast.unparse(found[key][0]), found[key][1]) != (ast.unparse(cls), instance):
            conflicting.add(key)
        found[key] = (cls, instance)
    return {key: asserted for key, asserted in found.items() if key not in conflicting}


def rebound_attributes(body: list[ast.stmt]) -> dict[str, tuple[ast.expr, bool]]:
    """``{"self.client": (Client, True)}`` for a test that sets an attribute
    once among its own statements (the body of a loop of it included) to an
    object it makes (``self.client = Client(conf)``): the test
    holds that object there, whatever its set-up put in the attribute before.
    An attribute set twice narrows nothing."""
    found: dict[str, tuple[ast.expr, bool]] = {}
    seen: set[str] = set()
    for statement in _unconditional_statements(body):
        if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
            continue
        parts = dotted_parts(statement.targets[0])
        if parts is None or len(parts) < 2:
            continue
        key = ".".join(parts)
        value = statement.value
        if key in seen:
            found.pop(key, None)
        elif isinstance(value, ast.Call) and dotted_parts(value.func) is not None:
            found[key] = (value.func, True)
        seen.add(key)
    return found


_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def _unconditional_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """``body``'s statements, and those of the loops in it (a branch of an
    ``if`` or a ``try`` arm may not run; what a ``with`` block makes may be
    made under the patch it enters)."""
    for statement in body:
        yield statement
        if isinstance(statement, _LOOPS):
            yield from _unconditional_statements(statement.body)


def facts_from_statements(
    params: list[str],
    assigns: dict[str, list[ast.expr]],
    stored: set[str],
    statements: list[ast.stmt],
    imports: dict[str, tuple[int, str]],
    classes: dict[str, ast.ClassDef] | None = None,
) -> FunctionFacts:
    """``FunctionFacts`` from what a walk already gathered (assignments, stored
    names, and the ``Assign``/``With``/``Return``/``Expr`` statements)."""
    facts = FunctionFacts(list(params), dict(assigns), imports=dict(imports), classes=dict(classes or {}))
    for statement in statements:
        if isinstance(statement, ast.Assign):
            if len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Tuple):
                _unpack(facts, statement.targets[0], statement.value, False)
        elif isinstance(statement, (ast.With, ast.AsyncWith)):
            for item in statement.items:
                if isinstance(item.optional_vars, ast.Name):
                    facts.entered.setdefault(item.optional_vars.id, []).append(item.context_expr)
                elif isinstance(item.optional_vars, ast.Tuple):
                    _unpack(facts, item.optional_vars, item.context_expr, True)
        elif isinstance(statement, ast.Return):
            facts.returns.append(statement.value)
        elif isinstance(statement, ast.Expr) and isinstance(statement.value, (ast.Yield, ast.YieldFrom)):
            facts.yields.append(statement.value.value if isinstance(statement.value, ast.Yield) else None)
    bound = facts.assigns.keys() | facts.entered.keys() | facts.unpacked.keys() | facts.classes.keys()
    facts.stored = {name for name in stored if name not in bound}
    return facts


def _unpack(facts: FunctionFacts, target: ast.Tuple, source: ast.expr, entered: bool) -> None:
    if any(isinstance(element, ast.Starred) for element in target.elts):
        return
    for position, element in enumerate(target.elts):
        if isinstance(element, ast.Name):
            if element.id in facts.unpacked:
                facts.assigns.setdefault(element.id, []).append(source)  # bound twice: unknown
            facts.unpacked[element.id] = (source, position, entered)


def own_nodes(function: FunctionNode) -> Iterator[ast.AST]:
    """Every node of ``function``'s body outside nested definitions and lambdas."""
    stack: list[ast.AST] = list(reversed(function.body))
    pop, extend = stack.pop, stack.extend
    while stack:
        node = pop()
        yield node
        if isinstance(node, _DEFINITIONS):
            continue
        children = child_nodes(node)
        children.reverse()
        extend(children)


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
LEAVES = (ast.expr_context, ast.boolop, ast.operator, ast.unaryop, ast.cmpop)  # nothing to look at inside
TRY_STATEMENTS: tuple[type[ast.Try], ...] = (ast.Try, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()))  # try/except* (3.11+)

# ASDL types whose values hold no node worth visiting: plain values, and the
# context and operator nodes (``LEAVES``).
_NO_NODES = frozenset({"identifier", "int", "string", "constant", "expr_context", "boolop", "operator", "unaryop", "cmpop"})
_SIGNATURE = re.compile(r"\w+\((.*)\)")
_FIELD = re.compile(r"(\w+)([*?]?) (\w+)")


def _child_fields(kind: type) -> tuple[tuple[str, bool], ...] | None:
    """(name, holds a list) of the fields of the node class ``kind`` that may
    hold nodes other than ``LEAVES``, in ``_fields`` order, read from the
    class's ASDL signature (its docstring: ``Call(expr func, expr* args, ...)``);
    None when the signature cannot be read."""
    fields: tuple[str, ...] = getattr(kind, "_fields", ())
    if not fields:
        return ()
    signature = _SIGNATURE.fullmatch((kind.__doc__ or "").partition("\n")[0].strip())
    typed = {} if signature is None else {
        match.group(3): (match.group(1), match.group(2) == "*") for match in _FIELD.finditer(signature.group(1))
    }
    if set(typed) != set(fields):
        return None
    return tuple((name, typed[name][1]) for name in fields if typed[name][0] not in _NO_NODES)


def _node_classes() -> Iterator[type]:
    pending: list[type] = [ast.AST]
    while pending:
        kind = pending.pop()
        yield kind
        pending.extend(kind.__subclasses__())


# The child fields of every node class of this Python's ``ast``, read once at
# import (a fixed table, not state: ``child_nodes`` checks the fields of any
# class missing from it, or without a readable signature, by value).
CHILD_FIELDS: Mapping[type, tuple[tuple[str, bool], ...] | None] = MappingProxyType(
    {kind: _child_fields(kind) for kind in _node_classes()}
)


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """``ast.iter_child_nodes(node)`` as a list, without its generators, leaving
    out the context and operator nodes, which hold nothing (``CHILD_FIELDS``).
    A deferred body (``LazyBody``) is parsed and entered, as a body is."""
    fields = CHILD_FIELDS.get(type(node))
    if fields is None:
        return _checked_child_nodes(node)
    found: list[ast.AST] = []
    for name, many in fields:
        value = getattr(node, name, None)
        if value is None:
            continue
        if many:
            if isinstance(value, list):
                found.extend([item for item in value if item is not None])  # a dict's ``**`` has no key
        else:
            found.append(value)
    return found


def _checked_child_nodes(node: ast.AST) -> list[ast.AST]:
    found: list[ast.AST] = []
    append = found.append
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, list):
            for item in value:
                if isinstance(item, ast.AST) and not isinstance(item, LEAVES):
                    append(item)
        elif isinstance(value, ast.AST) and not isinstance(value, LEAVES):
            append(value)
    return found


def walk(root: ast.AST) -> list[ast.AST]:
    """``ast.walk(root)`` as a list, in the same breadth-first order, leaving out
    the context and operator nodes (``child_nodes``): a third of the cost."""
    found = [root]
    position = 0
    while position < len(found):
        found.extend(child_nodes(found[position]))
        position += 1
    return found


def falls_through(body: list[ast.stmt]) -> bool:
    """Whether running ``body`` can reach its end (approximately, erring towards no)."""
    if not body:
        return True
    last = body[-1]
    if isinstance(last, (ast.Return, ast.Raise, ast.Continue, ast.Break)):
        return False
    if isinstance(last, ast.If):
        return falls_through(last.body) or falls_through(last.orelse)
    if isinstance(last, ast.While) and isinstance(last.test, ast.Constant) and last.test.value:
        return any(isinstance(node, ast.Break) for node in ast.walk(last))
    if isinstance(last, ast.For) and isinstance(last.iter, ast.Call) and callee_name(last.iter.func) in ("count", "cycle", "repeat"):
        if not (callee_name(last.iter.func) == "repeat" and len(last.iter.args) > 1):
            return any(isinstance(node, ast.Break) for node in ast.walk(last))  # an endless iterator
    if isinstance(last, (ast.With, ast.AsyncWith)):
        return falls_through(last.body)
    if isinstance(last, ast.Try):
        normal = falls_through(last.orelse) if last.orelse else falls_through(last.body)
        return (normal or any(falls_through(h.body) for h in last.handlers)) and (
            not last.finalbody or falls_through(last.finalbody)
        )
    if isinstance(last, ast.Match):
        return True
    if isinstance(last, ast.Expr) and isinstance(last.value, ast.Call) and callee_name(last.value.func) in (
        "exit", "_exit", "abort", "fail", "skip", "xfail", "exit_json", "fail_json",
    ):
        return False
    return True


def statements(tree: ast.AST) -> Iterator[ast.AST]:
    """Every statement in ``tree``'s blocks at any depth, nested definitions
    included (expressions are not entered: no statement lies inside one)."""
    stack: list[ast.AST] = list(getattr(tree, "body", []))
    while stack:
        node = stack.pop()
        yield node
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(node, name, None)
            if isinstance(block, list):
                stack.extend(block)
