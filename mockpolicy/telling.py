"""Which outcomes a mock withholds that the code under test tells apart.

A mock that always returns ``"APPROVED"`` withholds ``"RETRY"`` from its
callers; that matters only when a first-party caller's condition reads the
result (or a name bound from it) and ``"RETRY"`` would take an arm the given
outcomes never take, or, for a withheld exception, when a first-party handler
between the test and the mocked call catches it. (A test expecting it with
``pytest.raises``/``assertRaises`` passes only when it is raised, by some other
source, so withholding it from this mock leaves no arm of the test untaken.) Callers are found by the object their
call resolves to, never by name alone. Everything here is static.

Also here: whether a mock can shape its test's path at all (a spy, a mock the
test asserts is never called, one made in a fixture no test requests or in an
always-skipped test cannot).
"""

from __future__ import annotations

import ast
import builtins
import functools
import json
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TypeVar, cast

from mockpolicy.analysis import Analysis
from mockpolicy.bodies import NOTHING, reading_once
from mockpolicy.deps import CONFLICT, WORDS_DEP, Deps, dep_of, digest, listing_fact, words_index_fact
from mockpolicy.functions import (
    TRY_STATEMENTS,
    FunctionNode,
    child_nodes,
    dotted_parts,
    falls_through,
    own_nodes,
    statements,
    walk,
)
from mockpolicy.index import calls_in, module_functions, module_name_for
from mockpolicy.outcomes import A_MOCK, A_VALUE, AN_EXCEPTION, Outcome, fixed_outcome
from mockpolicy.resolve import Resolver
from mockpolicy.sites import Context, MockSite, root_key
from mockpolicy.source import Lines, segment
from mockpolicy.symbols import UNKNOWN, ClassInfo, Kind, ModuleInfo, Scope, Value
from mockpolicy.vocabulary import (
    ALWAYS_SKIP_MARKERS,
    AUTOUSE_KEYWORD,
    CALLED_ATTRIBUTES,
    CONDITIONAL_SKIP_MARKERS,
    COUNT_ATTRIBUTES,
    FIXTURE_NAME_KEYWORD,
    NEVER_CALLED_ASSERTIONS,
    PATCHER_START,
    PYTESTMARK,
    SETUP_NAMES,
    SKIP_CALLS,
    TEST_PREFIX,
    USEFIXTURES_MARKER,
    callee_name,
    fixture_decorator,
    parametrized_values,
)

_CALLER_DEPTH = 3  # handlers are looked for this many calls up from the mocked call
_CONFTEST = "conftest.py"


@dataclass(frozen=True, order=True)
class Arm:
    """A branch of first-party code: ``caller`` (dotted) and ``if``/``else`` with a
    condition's text, or ``except`` with what the handler names."""

    caller: str
    arm: str
    text: str

    @property
    def entry(self) -> str:
        """The reference to paste after ``untested:``."""
        return f"{self.caller}: {self.arm} {self.text}".rstrip()


@dataclass
class Withheld:
    """An arm the mock keeps its callers from taking, and the withheld outcomes
    that would take it; ``shows`` is what a test taking the arm may observe
    (``arm_shows``)."""

    arm: Arm
    outcomes: list[Outcome] = field(default_factory=list)
    shows: frozenset[str] = frozenset()
    elsewhere: frozenset[str] = frozenset()  # the runs of words of the function's other strings (``arm_elsewhere``)


_FORMAT_FIELD = re.compile(r"%[-#0 +]*[\d.*]*[a-zA-Z]|%\([^)]*\)[-#0 +]*[\d.*]*[a-zA-Z]|\{[^{}]*\}")
_SHOWN_TEXT_LENGTH = 8  # shorter literal text is too common to tell an arm by


def arm_shows(function: FunctionNode, body: Sequence[ast.stmt]) -> frozenset[str]:
    """What a test taking the arm ``body`` of ``function`` may observe, and no
    other part of ``function`` shows: the names of the exceptions it raises,
    and each run of words (``text_runs``) of its strings, log and exception
    messages alike."""
    inside = [node for statement in body for node in walk(statement)]
    kept = {id(node) for node in inside}
    outside = [node for statement in function.body for node in walk(statement) if id(node) not in kept]
    return frozenset((_shown(inside) - _shown(outside)) | _passed_through(function, body, inside))


def arm_elsewhere(function: FunctionNode, body: Sequence[ast.stmt]) -> frozenset[str]:
    """The runs of words (``text_runs``) of ``function``'s strings outside the
    arm ``body``: a test spelling one of them longer than the arm's own run
    (``"already claimed by"`` where the arm says ``already claimed`` and
    another arm ``already claimed by``) shows that other part ran."""
    kept = {id(node) for statement in body for node in walk(statement)}
    return frozenset(
        run for statement in function.body for node in walk(statement)
        if id(node) not in kept and isinstance(node, ast.Constant) and isinstance(node.value, str)
        for run in text_runs(node.value)
    )


def _passed_through(function: FunctionNode, body: Sequence[ast.stmt], inside: list[ast.AST]) -> set[str]:
    """For a handler ``body`` that re-raises (a bare ``raise``) what it catches:
    the names it catches that its ``try`` raises itself, or that no ``raise``
    of the function outside that ``try`` names. Such an exception passes
    through the handler on its way out, so a test expecting it from the caller
    may have seen the handler run (ironic-python-agent's
    ``create_config_drive_partition`` raising ``DeploymentError`` in its own
    ``try``, cleaning up in the handler and raising it again, even if another
    arm raises the name too; nox's ``run`` logging a ``KeyboardInterrupt`` that
    ``popen`` raised in its ``try`` and raising it again). A handler catching
    everything (bare, ``Exception``, ``BaseException``) passes on every name
    its ``try`` raises (urllib3's ``connect`` releasing the connection on any
    error and raising it again)."""
    if not any(isinstance(node, ast.Raise) and node.exc is None for node in inside):
        return set()
    for node in walk(ast.Module(body=list(function.body), type_ignores=[])):
        if not isinstance(node, ast.Try):
            continue
        handler = next((h for h in node.handlers if h.body is body), None)
        if handler is None:
            continue
        types = [] if handler.type is None else handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        caught = {callee_name(t) for t in types} - {""}
        catch_all = handler.type is None or bool(caught & _CATCH_ALL)
        in_try = {id(inner) for statement in node.body for inner in walk(statement)}
        raised_in_try: set[str] = set()
        raised_elsewhere: set[str] = set()
        for statement in function.body:
            for inner in walk(statement):
                if isinstance(inner, ast.Raise) and inner.exc is not None:
                    (raised_in_try if id(inner) in in_try else raised_elsewhere).add(callee_name(inner.exc))
        return caught & raised_in_try | caught - raised_elsewhere | (raised_in_try if catch_all else set())
    return set()


_CATCH_ALL = frozenset({"BaseException", "Exception"})  # a handler of these catches what its ``try`` raises by any name


def _shown(nodes: list[ast.AST]) -> set[str]:
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Raise) and node.exc is not None:
            name = callee_name(node.exc)
            if name:
                found.add(name)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.update(text_runs(node.value))
    return found


def text_runs(text: str) -> list[str]:
    """The runs of literal text of ``text`` between format fields long enough
    to tell it by: words, not a lone name (``"ComputeNode"`` is in every patch
    target naming the class)."""
    runs = (run.strip() for run in _FORMAT_FIELD.split(text))
    return [run for run in runs if len(run) >= _SHOWN_TEXT_LENGTH and " " in run]


@dataclass
class Caller:
    """A first-party function calling the mocked function at ``calls``."""

    qualname: str
    function: FunctionNode
    calls: list[ast.Call]
    lines: Sequence[str]  # the module's lines, for conditions as written
    module: ModuleInfo | None = field(default=None, compare=False)  # where it is defined
    owner: str = ""  # its class (dotted), if a method

    @functools.cached_property
    def tries(self) -> dict[int, tuple[ast.Try, ...]]:
        """The ``try`` statements around each call, by its id (``_tries_around``)."""
        return _tries_around(self.function, self.calls)

    @functools.cached_property
    def conditional(self) -> frozenset[int]:
        """The ids of those of ``calls`` that run on some paths only (``_conditional_calls``)."""
        return _conditional_calls(self.function, self.calls)

    @functools.cached_property
    def conditions(self) -> list[tuple[ast.If | ast.While, set[str | int], str]]:
        """``_reading_conditions`` of this caller, each with its test as written
        (whitespace runs made one space)."""
        return [
            (node, reads, " ".join((segment(self.lines, node.test) or ast.unparse(node.test)).split()))
            for node, reads in _reading_conditions(self)
        ]


# -- can the mock shape the test's path? ----------------------------------------


def shapes_path(analysis: Analysis, site: MockSite) -> bool:
    """False for a spy (``wraps=``), a mock its own test asserts is never called,
    one made in a fixture no test of the file requests, or in an always-skipped test."""
    if site.is_spy:
        return False
    if _asserted_never_called(analysis, site):
        return False
    if _always_skipped(analysis, site.owner):
        return False
    return not _unrequested_fixture(analysis, site.owner)


def configured_out_of_sight(analysis: Analysis, site: MockSite) -> bool:
    """Whether the test may configure the mock where no name we follow shows it:
    the call's value is kept (``with nested(patch(...)) as (a, b)``, a list of
    patchers) but no name is bound to it."""
    if site.decorates is not None or site.injected:
        return False
    parent = _parent_in(site.owner.node, site.call)
    if isinstance(parent, ast.Attribute) and parent.attr == PATCHER_START:  # patch(...).start()
        started = _parent_in(site.owner.node, parent)
        parent = _parent_in(site.owner.node, started) if started is not None else None
    if isinstance(parent, ast.Expr) or (isinstance(parent, ast.withitem) and parent.optional_vars is None):
        return False  # the value is dropped: nobody can configure it
    module = analysis.module
    return not any(site in sites for context in (module.module, *module.contexts) for sites in context.bound.values())


def _parent_in(tree: ast.AST, node: ast.AST) -> ast.AST | None:
    """The parent of ``node`` in ``tree``; None when ``node`` is not in it."""
    for parent in ast.walk(tree):
        for child in ast.iter_child_nodes(parent):
            if child is node:
                return parent
    return None


def _asserted_never_called(analysis: Analysis, site: MockSite) -> bool:
    context = site.owner
    for call in context.calls:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in NEVER_CALLED_ASSERTIONS:
            if site in _sites_named(analysis, context, func.value):
                return True
        if callee_name(func) == "assertFalse" and call.args:
            if _never_called_test(analysis, context, site, call.args[0]):
                return True
        if callee_name(func) == "assertEqual" and len(call.args) >= 2:
            first, second = call.args[0], call.args[1]
            for counted, zero in ((first, second), (second, first)):  # either order: assertEqual(0, m.call_count)
                if _is_zero([zero]) and _never_called_test(analysis, context, site, counted):
                    return True
    for statement in context.asserts:
        if _never_called_test(analysis, context, site, statement.test):
            return True
    return False


def _never_called_test(analysis: Analysis, context: Context, site: MockSite, test: ast.expr) -> bool:
    """``not m.called``, ``m.call_count == 0``, or (inside assertFalse) ``m.called``."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
        if _is_zero(test.comparators):
            test = test.left
    if isinstance(test, ast.Attribute) and test.attr in CALLED_ATTRIBUTES | COUNT_ATTRIBUTES:
        return site in _sites_named(analysis, context, test.value)
    return False


def _is_zero(exprs: list[ast.expr]) -> bool:
    return bool(exprs) and isinstance(exprs[0], ast.Constant) and exprs[0].value == 0


def _sites_named(analysis: Analysis, context: Context, expr: ast.expr) -> list[MockSite]:
    key = root_key(expr) if isinstance(expr, (ast.Name, ast.Attribute)) else None
    return analysis.module.mocks_bound(context, key) if key is not None else []


def _always_skipped(analysis: Analysis, context: Context) -> bool:
    """Whether ``context`` (or a class around it, or the module) carries an
    unconditional skip, or its body starts by skipping."""
    current: Context | None = context
    while current is not None:
        node = current.node
        for decorator in getattr(node, "decorator_list", []):
            if _is_skip(decorator):
                return True
        body = getattr(node, "body", None)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and body:
            first = body[1] if len(body) > 1 and _is_docstring(body[0]) else body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Call) and callee_name(first.value) in SKIP_CALLS:
                return True
        current = current.parent
    for statement in analysis.module.module.node.body:  # type: ignore[attr-defined]
        if isinstance(statement, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == PYTESTMARK for t in statement.targets
        ):
            marks = statement.value.elts if isinstance(statement.value, (ast.List, ast.Tuple)) else [statement.value]
            if any(_is_skip(mark) for mark in marks):
                return True
    return False


def _is_docstring(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)


def _is_skip(decorator: ast.expr) -> bool:
    name = callee_name(decorator)
    if name in ALWAYS_SKIP_MARKERS:
        return True
    if name in CONDITIONAL_SKIP_MARKERS and isinstance(decorator, ast.Call) and decorator.args:
        condition = decorator.args[0]
        return isinstance(condition, ast.Constant) and condition.value is True
    return False


def _unrequested_fixture(analysis: Analysis, context: Context) -> bool:
    """A fixture of a test module (not a conftest) that is not autouse and that no
    function of the module requests, by parameter or ``usefixtures``."""
    node = context.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    decorator = fixture_decorator(node.decorator_list)
    if decorator is None or Path(analysis.path).name == _CONFTEST:
        return False
    name = node.name
    if isinstance(decorator, ast.Call):
        for keyword in decorator.keywords:
            if keyword.arg == AUTOUSE_KEYWORD and not (isinstance(keyword.value, ast.Constant) and not keyword.value.value):
                return False
            if keyword.arg == FIXTURE_NAME_KEYWORD and isinstance(keyword.value, ast.Constant):
                name = str(keyword.value.value)
    for other in ast.walk(analysis.module.module.node):
        if isinstance(other, (ast.FunctionDef, ast.AsyncFunctionDef)) and other is not node:
            arguments = other.args
            if any(a.arg == name for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]):
                return False
        elif isinstance(other, ast.Call) and callee_name(other) == USEFIXTURES_MARKER:
            if any(isinstance(a, ast.Constant) and a.value == name for a in other.args):
                return False
        elif isinstance(other, ast.Name) and other.id == name and not isinstance(other.ctx, ast.Store):
            return False  # used some other way (passed to a helper, getfixturevalue): keep judging it
    return True


# -- values a test parametrizes -------------------------------------------------


def parametrized_outcomes(context: Context, expr: ast.expr) -> set[Outcome] | None:
    """The outcomes of ``expr`` when it reads a parameter of the function making
    the mock: every value a ``parametrize`` mark gives it; None when a parameter
    it reads has values this cannot list (a fixture's params, a helper's callers)."""
    node = context.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return {fixed_outcome(expr)}
    arguments = node.args
    parameters = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
    read = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name)} & parameters
    if not read:
        return {fixed_outcome(expr)}
    if not (isinstance(expr, ast.Name) and len(read) == 1):
        return None
    values = parametrized_values(node, expr.id)
    return None if values is None else {fixed_outcome(item) for item in values}


# -- callers of the mocked function ---------------------------------------------


def callers(analysis: Analysis, function: Value, dotted: frozenset[str]) -> list[Caller]:
    """The first-party (non-test) functions whose calls resolve to ``function``
    (or, for a library function, to one of the ``dotted`` names it is patched as).
    Remembered per engine with what the search read (every source file's text,
    the list of source files), so a cached finding is never served after a
    caller changed; and kept in the summary store with the facts of what it
    read, where a later run finds it while they all hold."""
    memory = cast("dict[object, tuple[list[Caller], Deps]]", analysis.memo.extra.setdefault("callers", {}))
    key = (function.module, function.qualname, dotted)
    return analysis.memo.tracker.remembered(memory, key, lambda: _kept_or_found_callers(analysis, function, dotted))


def _kept_or_found_callers(analysis: Analysis, function: Value, dotted: frozenset[str]) -> list[Caller]:
    return _kept_or_computed(
        analysis, "callers", [function.module, function.qualname, sorted(dotted)],
        lambda: _find_callers(analysis, function, dotted),
        lambda found: [_caller_record(caller) for caller in found], lambda record: _kept_callers(analysis, record),
    )


T = TypeVar("T")


def _kept_or_computed(
    analysis: Analysis, kind: str, key: list[object], compute: Callable[[], T],
    encode: Callable[[T], object], decode: Callable[[object], T | None],
) -> T:
    """``compute()``, or what the summary store kept of it under ``kind`` and
    ``key`` (plain JSON values) while every fact it was computed from holds:
    those facts are then this computation's dependencies. ``decode`` gives
    None for a record that does not fit this run's index."""
    store = analysis.resolver.index.store
    if store is None:
        return compute()
    tracker = analysis.memo.tracker
    named = digest(json.dumps(key).encode("utf-8", "surrogateescape"))
    kept = store.load_derived(kind, named)
    if kept is not None:
        record, facts = kept
        for name, fact in facts.items():
            dep = dep_of(name)
            if dep is not None:
                tracker.observe(dep, fact)  # what the record was computed from, as this run sees it
        served = decode(record)
        if served is not None:
            return served
    found, deps = tracker.collect(compute)
    if tracker.enabled:
        store.save_derived(kind, named, encode(found), tracker.facts_of(deps))
    return found


def _caller_record(caller: Caller) -> list[object]:
    """What the summary store keeps of ``caller``: its module, name, class and
    where its calls are (a call is known by where it starts and ends)."""
    module = caller.module.name if caller.module is not None else ""
    return [module, caller.qualname, caller.owner, [_span(call) for call in caller.calls]]


def _span(node: ast.expr) -> list[int | None]:
    return [node.lineno, node.col_offset, node.end_lineno, node.end_col_offset]


def _kept_callers(analysis: Analysis, record: object) -> list[Caller] | None:
    """The callers a record of ``_caller_record``s names, found in this run's
    index; None when one of them is not where the record says."""
    if not isinstance(record, list):
        return None
    found: list[Caller] = []
    for row in record:
        if not (isinstance(row, list) and len(row) == 4 and all(isinstance(item, str) for item in row[:3])
                and isinstance(row[3], list)):
            return None
        module, qualname, owner, spans = row
        info = analysis.resolver.index.get(module)
        if info is None or info.path is None:
            return None
        node = _functions_by_name(analysis, info).get(qualname)
        if node is None:
            return None
        calls_at = {tuple(_span(n)): n for n in own_nodes(node) if isinstance(n, ast.Call)}
        calls = [calls_at.get(tuple(span)) for span in spans if isinstance(span, list)]
        if not calls or len(calls) != len(spans) or any(call is None for call in calls):
            return None
        found.append(Caller(qualname, node, cast("list[ast.Call]", calls),
                            analysis.memo.lines(info.path) or Lines(""), info, owner))
    return found


def _functions_by_name(analysis: Analysis, info: ModuleInfo) -> dict[str, FunctionNode]:
    """The functions and methods of the module ``info`` by their dotted names, once per engine."""
    key = ("functions", info.name)
    known = analysis.memo.extra.get(key)
    if known is None:
        known = analysis.memo.extra[key] = {qualname: node for qualname, node, _ in module_functions(info)}
    return cast("dict[str, FunctionNode]", known)


def _find_callers(analysis: Analysis, function: Value, dotted: frozenset[str]) -> list[Caller]:
    found: list[Caller] = []
    short = function.qualname.rpartition(".")[2]
    resolver = analysis.resolver
    for path in _files_calling(analysis, short):
        info = resolver.index.get(_module_of(analysis, path))
        if info is None:
            continue
        calling = _calls_by_name(analysis, path, info).get(short)
        if not calling:
            continue
        for qualname, node, owner in calling:
            values = _callee_values(analysis, info, node, owner, short)
            if not any(_calls(value, function, dotted) for value in values):
                continue
            calls = _named_calls(analysis, node, short)  # a caller: its body stays parsed
            hits = [call for call, value in zip(calls, values) if _calls(value, function, dotted)]
            # (unreadable since it was indexed: conditions are shown unparsed)
            found.append(Caller(qualname, node, hits, analysis.memo.lines(path) or Lines(""), info, owner))
    return found + _dispatching_callers(analysis, function)


def _dispatching_callers(analysis: Analysis, function: Value) -> list[Caller]:
    """The methods of the method ``function``'s own class that call a method of
    ``self`` by a name they compute, which ``function``'s name fits:
    ``getattr(self, f"_send_{self.mode}_notification")(body)`` (apprise's
    ``NotifyMatrix.send``) may run ``_send_server_notification``."""
    cls = function.owner
    if cls is None or function.function is None:
        return []
    info = analysis.resolver.index.get(cls.module)
    if info is None or info.path is None:
        return []
    name = function.qualname.rpartition(".")[2]
    owner = f"{cls.module}.{cls.qualname}"
    found: list[Caller] = []
    for qualname, node, method_owner in _calls_by_name(analysis, info.path, info).get("getattr", []):
        arguments = [*node.args.posonlyargs, *node.args.args]
        if method_owner != owner or node is function.function or not arguments:
            continue
        this = arguments[0].arg
        if not any(re.fullmatch(pattern, name) for pattern in _dispatch_patterns(analysis, node, this)):
            continue
        calls = [  # a caller: its body stays parsed
            call for call in own_nodes(node)
            if isinstance(call, ast.Call) and _dispatches_to(call.func, this, name)
        ]
        found.append(Caller(qualname, node, calls, analysis.memo.lines(info.path) or Lines(""), info, owner))
    return found


def _dispatch_patterns(analysis: Analysis, node: FunctionNode, this: str) -> list[str]:
    """``_dispatch_pattern`` of each call in ``node``'s own body that has one;
    read once per engine (from the body alone, which a walk here does not keep:
    every method of a class is searched for each of its mocked methods)."""
    memory = cast("dict[int, list[str]]", analysis.memo.extra.setdefault("dispatch patterns", {}))
    known = memory.get(id(node))  # the index holds ``node``: its id stays
    if known is None:
        done = reading_once(node)
        known = memory[id(node)] = [
            pattern for call in own_nodes(node)
            if isinstance(call, ast.Call) and (pattern := _dispatch_pattern(call.func, this)) is not None
        ]
        done()
    return known


def _dispatches_to(func: ast.expr, this: str, name: str) -> bool:
    """Whether ``func`` is ``getattr(this, <a name computed from constants and
    values>)`` and ``name`` fits the constants."""
    pattern = _dispatch_pattern(func, this)
    return pattern is not None and re.fullmatch(pattern, name) is not None


def _dispatch_pattern(func: ast.expr, this: str) -> str | None:
    """For ``func`` spelling ``getattr(this, <a name computed from constants and
    values>)``, the regular expression of the names it may get (``_name_pattern``)."""
    if not (isinstance(func, ast.Call) and callee_name(func) == "getattr" and len(func.args) >= 2):
        return None
    if not (isinstance(func.args[0], ast.Name) and func.args[0].id == this):
        return None
    return _name_pattern(func.args[1])


def _name_pattern(expr: ast.expr) -> str | None:
    """A regular expression for the names ``expr`` may spell: its constants as
    they are, anything else a run of word characters; None for a plain
    constant (a fixed name is a call of that name) or a shape not read."""
    parts: list[str | None] = []  # a constant, or None for a computed piece
    if isinstance(expr, ast.JoinedStr):
        for value in expr.values:
            parts.append(value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) else None)
    elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "format" \
            and isinstance(expr.func.value, ast.Constant) and isinstance(expr.func.value.value, str):
        for index, piece in enumerate(re.split(r"\{[^{}]*\}", expr.func.value.value)):
            if index:
                parts.append(None)
            parts.append(piece)
    elif isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        added = _name_pattern_parts(expr)
        if added is None:
            return None
        parts = added
    else:
        return None
    if None not in parts:
        return None
    return "".join(r"\w+" if part is None else re.escape(part) for part in parts)


def _name_pattern_parts(expr: ast.expr) -> list[str | None] | None:
    """The pieces of a name added up with ``+``: constants, None for a computed one."""
    if isinstance(expr, ast.Constant):
        return [expr.value] if isinstance(expr.value, str) else None
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        left, right = _name_pattern_parts(expr.left), _name_pattern_parts(expr.right)
        return None if left is None or right is None else [*left, *right]
    return [None]


def fills_itself(analysis: Analysis, module: str) -> bool:
    """Whether code in the first-party ``module`` or a module under it adds
    names to ``module`` at run time: a function calling ``setattr(objects,
    cls.obj_name(), cls)`` on the module it imported (oslo.versionedobjects'
    registration hooks fill the ``objects`` package so). Only the package's own
    files are read, so the answer depends on them alone; once per engine."""
    memory = cast("dict[object, tuple[bool, Deps]]", analysis.memo.extra.setdefault("fills itself", {}))
    return analysis.memo.tracker.remembered(memory, module, lambda: _fills_itself(analysis, module))


def _fills_itself(analysis: Analysis, module: str) -> bool:
    inside = module + "."
    for path in _source_files(analysis):
        name = _module_of(analysis, path)
        if name != module and not name.startswith(inside):
            continue
        lines = analysis.memo.lines(path)
        if lines is None or "setattr" not in lines.text:
            continue
        info = analysis.resolver.index.get(name)
        if info is None:
            continue
        for _, node, _ in _calls_by_name(analysis, path, info).get("setattr", []):
            for call in _named_calls(analysis, node, "setattr"):
                if len(call.args) < 2 or not isinstance(call.args[0], ast.Name) or isinstance(call.args[1], ast.Constant):
                    continue
                binding = info.bindings.get(call.args[0].id)
                if binding is not None and binding.kind == "import" and binding.target == module:
                    return True
    return False


def _module_of(analysis: Analysis, path: Path) -> str:
    """The dotted name of the code-under-test file ``path``, once per engine."""
    names = cast("dict[Path, str]", analysis.memo.extra.setdefault("module names", {}))
    name = names.get(path)
    if name is None:
        name = names[path] = module_name_for(path)[0]
    return name


def _named_calls(analysis: Analysis, node: FunctionNode, name: str) -> list[ast.Call]:
    """The calls in ``node``'s own body whose callee's last name is ``name``,
    from one walk per function (the index keeps the node, and a body parsed
    here stays parsed, so the calls keep their identity)."""
    memory = cast("dict[int, dict[str, list[ast.Call]]]", analysis.memo.extra.setdefault("named calls", {}))
    by_name = memory.get(id(node))
    if by_name is None:
        by_name = memory[id(node)] = calls_in(node)
    return by_name.get(name, [])


def _callee_values(analysis: Analysis, info: ModuleInfo, node: FunctionNode, owner: str, name: str) -> list[Value]:
    """What each call of ``name`` in ``node``'s own body calls, in the order of
    ``_named_calls``, resolved in the function with ``self`` an instance of its
    class. Remembered per engine with what resolving read: many mocked
    functions share a name (nova's tests mock dozens of ``save`` methods), and
    a body parsed for this alone is dropped again (``reading_once``)."""
    memory = cast("dict[object, tuple[list[Value], Deps]]", analysis.memo.extra.setdefault("callee values", {}))
    resolver = analysis.resolver

    def resolve() -> list[Value]:
        done = reading_once(node)
        calls = calls_in(node).get(name, []) if done is not NOTHING else _named_calls(analysis, node, name)
        try:
            cls = resolver.resolve_dotted(owner).cls if owner else None
            scope = resolver.function_scope(node, info, cls)
            return [resolver.evaluate(call.func, scope) for call in calls]
        except RecursionError:
            return [UNKNOWN] * len(calls)
        finally:
            if done is not NOTHING:
                resolver.forget_facts(node)  # read from the nodes about to go
                done()

    return analysis.memo.tracker.remembered(memory, (id(node), name), resolve)  # the index holds ``node``: its id stays


def _files_calling(analysis: Analysis, name: str) -> list[Path]:
    """The code-under-test files whose text may call ``name``: the word followed
    by an opening parenthesis (``name(``, ``obj.name (``, ``(obj.name)(``; in
    code, comments or strings alike: a superset of the files calling it), from
    an index of every file's called words built once per engine (it read them
    all). A file that only mentions the name is neither parsed nor indexed."""
    memory = cast("dict[str, tuple[dict[str, list[Path]], Deps]]", analysis.memo.extra.setdefault("called words", {}))
    return analysis.memo.tracker.remembered(memory, "", lambda: _call_index(analysis)).get(name, [])


def _call_index(analysis: Analysis) -> dict[str, list[Path]]:
    """The called words of every source file, found again only when one of
    the files changed since the summary store last saw them all. Texts are
    read one at a time and not kept (a second time only to find the words)."""
    memo = analysis.memo
    read = memo.tracker.hidden(
        lambda: [path for path in _source_files(analysis) if memo.lines(path, keep=False) is not None])
    digests = [memo.digest(path) or "" for path in read]
    key = words_index_fact(zip(read, digests))
    memo.tracker.observe(WORDS_DEP, key)  # the files' own dependencies are hidden: this one stands for them
    store = analysis.resolver.index.store
    found = store.load("called words", key) if store is not None else None
    if not (isinstance(found, list) and len(found) == len(read)
            and all(isinstance(words, list) and all(isinstance(word, str) for word in words) for words in found)):
        found = memo.tracker.hidden(lambda: [
            sorted(set(_CALLED_WORD.findall((memo.lines(path, keep=False) or Lines("")).text))) for path in read])
        if [memo.digest(path) or "" for path in read] != digests:  # changed between the reads
            memo.tracker.observe(WORDS_DEP, CONFLICT)
        elif store is not None:
            store.save("called words", key, found)
    index: dict[str, list[Path]] = {}
    for path, words in zip(read, found):
        for word in words:
            index.setdefault(word, []).append(path)
    return index


# A word before "(", across spaces, line continuations and closing parentheses
# (possessive, from a word's start: no backtracking over every word).
_CALLED_WORD = re.compile(r"(?<!\w)(\w++)[\s\\)]*+\(")
_Calling = list[tuple[str, FunctionNode, str]]


def _calls_by_name(analysis: Analysis, path: Path, info: ModuleInfo) -> dict[str, _Calling]:
    """The names the functions and methods of the module ``info`` (at ``path``)
    call (a callee's last name): for each name, (qualified name, function,
    owner class) of every function calling it. Built once per file and engine
    from the nodes the symbol index holds anyway, so looking for the callers of
    many mocked functions walks each file once and parses none again: the
    record the index read while it parsed the module whole (``ModuleInfo.calls``)
    or the summary store's, else a walk (a body the index defers is parsed for
    it and dropped after)."""
    key = ("calls", path)
    known = analysis.memo.extra.get(key)
    if known is not None:
        return cast("dict[str, _Calling]", known)
    functions = list(module_functions(info))
    store = analysis.resolver.index.store
    record: object = info.calls
    info.calls = None  # read while the index parsed the module whole; needed once
    if record is None and store is not None and info.summary_key:
        record = store.load("calls", info.summary_key)
    index = _stored_calls(record, functions) if record is not None else None
    if index is None:
        numbers: dict[str, list[int]] = {}
        named = cast("dict[int, dict[str, list[ast.Call]]]", analysis.memo.extra.setdefault("named calls", {}))
        for number, (_, node, _) in enumerate(functions):
            done = reading_once(node)
            by_name = calls_in(node)
            if done is NOTHING:  # the body stays: keep its calls for ``_named_calls``
                named[id(node)] = by_name
            done()
            for name in by_name:
                numbers.setdefault(name, []).append(number)
        if store is not None and info.summary_key:
            store.save("calls", info.summary_key, numbers)
        index = _stored_calls(numbers, functions) or {}
    analysis.memo.extra[key] = index
    return index


def _stored_calls(record: object, functions: list[tuple[str, FunctionNode, str]]) -> dict[str, _Calling] | None:
    """``_calls_by_name`` from a stored record (name -> the numbers of the
    functions calling it, in ``module_functions`` order); None when it does not fit."""
    if not isinstance(record, dict):
        return None
    index: dict[str, _Calling] = {}
    for name, numbers in record.items():
        if not (isinstance(name, str) and isinstance(numbers, list)):
            return None
        if not all(isinstance(number, int) and 0 <= number < len(functions) for number in numbers):
            return None
        index[name] = [functions[number] for number in numbers]
    return index


def _calls(value: Value, function: Value, dotted: frozenset[str]) -> bool:
    if value.kind is Kind.FUNCTION:
        return (value.module, value.qualname) == (function.module, function.qualname)
    if value.kind is Kind.EXTERNAL:
        return value.qualname in dotted
    return False


def _source_files(analysis: Analysis) -> list[Path]:
    """``Project.code_under_test``, listed once per engine; a search using it
    depends on the listing."""
    memo = analysis.memo
    dep = ("s", "", "")
    cached = memo.extra.get("source files")
    if cached is None:
        cached = memo.extra["source files"] = analysis.resolver.project.code_under_test()
        memo.tracker.observe(dep, listing_fact(cached))
    else:
        memo.tracker.note(dep)
    return cast("list[Path]", cached)


# -- which withheld outcomes take another arm -----------------------------------


def told_apart(
    analysis: Analysis, site: MockSite, function: Value, dotted: frozenset[str],
    given: frozenset[Outcome], missing: list[Outcome], reach: Reach, replaced: frozenset[str] = frozenset(),
    raised_by_others: frozenset[Outcome] = frozenset(), fixed_answers: frozenset[tuple[str, Outcome]] = frozenset(),
    raised_nearby: frozenset[tuple[str, str]] = frozenset(), patched_on: Value | None = None,
    patched_in: str | None = None,
) -> list[Withheld]:
    """The arms of first-party code that only the ``missing`` outcomes would take,
    each with those outcomes; empty when the code under test cannot tell them apart.
    Callers in ``replaced`` (mocked by the same test) do not run, so have no arms;
    a handler that catches an exception another mock of the test raises
    (``raised_by_others``) may be taken by it, so is no arm withheld; a condition
    after a statement that always leaves the caller, given what other mocks of
    the test always answer (``fixed_answers``: a function's name, its one
    outcome), is never reached (``_cut_off``); a handler
    whose ``try`` calls a function (by name) that a mock of a sibling test raises
    a caught exception from (``raised_nearby``: name, exception) is taken there.
    A method inherited by the class the patch replaces it on (``patched_on``)
    is replaced for that class and its subclasses only: calls on other
    subclasses of the defining class keep the real method. A module-level
    function replaced in the module ``patched_in`` is replaced there only: a
    caller in another module calling it by a bare name imported it by value
    (``from app.base import run_default``) and keeps the real one."""
    found: dict[Arm, Withheld] = {}

    def add(arm: Arm, outcome: Outcome, where: tuple[FunctionNode, Sequence[ast.stmt]]) -> None:
        withheld = found.get(arm)
        if withheld is None:
            withheld = found[arm] = Withheld(arm, shows=arm_shows(*where), elsewhere=arm_elsewhere(*where))
        if outcome not in withheld.outcomes:
            withheld.outcomes.append(outcome)

    values = [o for o in missing if o.kind == "returns"]
    exceptions = [o for o in missing if o.kind == "raises" and o.value != AN_EXCEPTION]  # only named ones
    skipped = replaced | {function.qualname}
    for caller in callers(analysis, function, dotted):
        if caller.qualname in skipped:
            continue  # the mocked function calling itself, or a caller mocked too: its body does not run
        if patched_in is not None and caller.module is not None and caller.module.name != patched_in:
            kept = [call for call in caller.calls if not isinstance(call.func, ast.Name)]
            if not kept:
                continue  # every call reads its own module's binding, which the patch left alone
            if len(kept) != len(caller.calls):
                caller = Caller(caller.qualname, caller.function, kept, caller.lines, caller.module, caller.owner)
        if patched_on is not None:
            on_class = _calls_on(analysis, caller, patched_on)
            if on_class is None:
                continue
            caller = on_class
        if not _reached(analysis, caller, reach, function, 0, skipped):
            continue  # no path from the test to this caller that we can see
        if values:
            for condition, reads, text in caller.conditions:
                if _cut_off(caller, condition, fixed_answers):
                    continue
                taken: set[str] = set()
                for outcome in [*given, *_handled_values(caller, given, reads)]:
                    taken |= _arms(condition.test, reads, outcome)
                for outcome in values:
                    for side in sorted(_arms(condition.test, reads, outcome, left_out=True) - taken):
                        body = condition.body if side == "if" else condition.orelse
                        add(Arm(caller.qualname, side, text), outcome, (caller.function, body))
        for outcome in exceptions:
            caught = [o for o in given if o.kind == "raises"] + sorted(raised_by_others)
            for arm, where in _handlers(
                analysis, caller, outcome.value, caught, reach, function, 0, skipped, raised_nearby,
            ).items():
                add(arm, outcome, where)
    return sorted(found.values(), key=lambda w: w.arm)


_ANCESTRY_DEPTH = 8  # how many bases up a class's ancestry is followed


def _calls_on(analysis: Analysis, caller: Caller, cls: Value) -> Caller | None:
    """``caller`` with only its calls made on ``cls`` or a subclass of it
    (``self.l7policy_repo.get``, not ``self.amphora_repo.get`` where both
    inherit ``get``), and those on ``self`` in a method of a base of ``cls``
    (it may run on an instance of ``cls``); None when none is."""
    if caller.module is None:
        return caller
    resolver = analysis.resolver
    owner = resolver.resolve_dotted(caller.owner).cls if caller.owner else None
    try:
        scope = resolver.function_scope(caller.function, caller.module, owner)
        receivers = [
            resolver.evaluate(call.func.value, scope) if isinstance(call.func, ast.Attribute) else UNKNOWN
            for call in caller.calls
        ]
    except RecursionError:
        return caller
    arguments = caller.function.args.posonlyargs + caller.function.args.args
    own = arguments[0].arg if arguments and caller.owner else None
    kept = [
        call for call, receiver in zip(caller.calls, receivers)
        if receiver.cls is None or _inherits(analysis, receiver.cls, cls, 0)
        or (own is not None and isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
            and call.func.value.id == own and cls.cls is not None and _inherits(analysis, cls.cls, receiver, 0))
    ]
    if not kept:
        return None
    return caller if len(kept) == len(caller.calls) else Caller(
        caller.qualname, caller.function, kept, caller.lines, caller.module, caller.owner,
    )


def _inherits(analysis: Analysis, cls: ClassInfo, ancestor: Value, depth: int) -> bool:
    """Whether ``cls`` is ``ancestor`` or has it among its bases (followed ``_ANCESTRY_DEPTH`` deep)."""
    if ancestor.cls is None or (cls.module, cls.qualname) == (ancestor.cls.module, ancestor.cls.qualname):
        return True
    if depth >= _ANCESTRY_DEPTH:
        return True  # too deep to tell: keep the call
    scope = cls.bases_scope or analysis.resolver.module_scope(cls.module)
    if scope is None:
        return True
    for base in cls.bases:
        value = analysis.resolver.evaluate(base, scope)
        if value.kind is Kind.EXTERNAL:
            continue  # ``object``, a library's class: not a project class, nor derived from one
        if value.cls is None or _inherits(analysis, value.cls, ancestor, depth + 1):
            return True  # an unknown base may be it
    return False


def _cut_off(caller: Caller, condition: ast.If | ast.While, answers: frozenset[tuple[str, Outcome]]) -> bool:
    """Whether a statement before ``condition`` in its own block of ``caller``
    always leaves, given ``answers`` (what other mocks of the test always give,
    by the function's name): a simple statement calling one that raises
    (``validate(spec)``), or a guard clause whose test reads one that returns
    (``if not can_migrate(): return``, with ``can_migrate`` returning False)."""
    if not answers:
        return False
    raising = {name for name, outcome in answers if outcome.kind == "raises"}
    returning = {name: outcome for name, outcome in answers if outcome.kind == "returns"}
    for block in _blocks(caller.function):
        if not any(statement is condition for statement in block):
            continue
        for statement in block:
            if statement is condition:
                return False
            if isinstance(statement, _SIMPLE_STATEMENTS) and any(
                isinstance(node, ast.Call) and callee_name(node) in raising for node in ast.walk(statement)
            ):
                return True
            if isinstance(statement, ast.If) and _guard_taken(statement, returning):
                return True
    return False


def _guard_taken(statement: ast.If, returning: dict[str, Outcome]) -> bool:
    """Whether the ``if`` reads one of ``returning`` and, with its answer,
    takes an arm that ends in ``return``/``raise``/``continue``/``break``."""
    calls = [node for node in ast.walk(statement.test) if isinstance(node, ast.Call) and callee_name(node) in returning]
    names = {callee_name(call) for call in calls}
    if len(names) != 1:
        return False
    arms = _arms(statement.test, {id(call) for call in calls}, returning[names.pop()])
    exits = {arm for arm, body in (("if", statement.body), ("else", statement.orelse)) if body and isinstance(body[-1], _EXITS)}
    return len(arms) == 1 and arms <= exits


_SIMPLE_STATEMENTS = (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign)


def _blocks(function: FunctionNode) -> Iterator[list[ast.stmt]]:
    """Every statement list in ``function``'s own code (bodies, arms, handlers)."""
    for node in own_nodes(function):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield block
    yield list(function.body)


@dataclass(frozen=True)
class Reach:
    """What a test can reach code under test by: the names it reads, and the
    modules its file imports (a name counts only for a function of one of them)."""

    names: frozenset[str]
    imports: frozenset[str]
    # what the tests use, mock targets aside (``usage``), made when first needed
    used: Callable[[], Usage] = field(default=lambda: Usage(frozenset(), False), compare=False, hash=False)
    # every name and attribute the test file reads, made when first needed
    file_words: Callable[[], frozenset[str]] = field(default=frozenset, compare=False, hash=False)
    # _reached's answers for this test: (caller, the mocked function's class, depth, skipped) -> reached
    known: dict[tuple[str, str, int, frozenset[str]], bool] = field(default_factory=dict, compare=False, hash=False)
    # the code the mock applies to (``_applying``): the tests' own calls are read there
    applying: Sequence[Context] = field(default=(), compare=False, hash=False)

    def imported(self, module: str) -> bool:
        """Whether ``module`` is imported, or a member of it, or it is inside an
        imported package; a bare top-level ``import pkg`` names no module in particular."""
        return any(
            module == dotted or dotted.startswith(module + ".") or (module.startswith(dotted + ".") and "." in dotted)
            for dotted in self.imports
        )


def reach_of(analysis: Analysis, context: Context, words: dict[int, frozenset[str]]) -> Reach:
    """What the tests a mock made in ``context`` applies to can reach code by
    (``words`` remembers each context's words for the file's other mocks)."""
    if analysis.imports is None:
        analysis.imports = file_imports(analysis)
    return Reach(
        test_words(analysis, context, words), analysis.imports,
        functools.cache(functools.partial(usage, analysis, context)),
        functools.cache(functools.partial(_words, analysis.module.module, words)),
        applying=_applying(analysis, context),
    )


def file_imports(analysis: Analysis) -> frozenset[str]:
    """What the test file imports: ``a.b`` for ``import a.b``, ``a.b.c`` for ``from a.b import c``."""
    imports: set[str] = set()
    for node in statements(analysis.module.module.node):
        if isinstance(node, ast.Import):
            imports.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imports.update(f"{node.module}.{alias.name}" for alias in node.names)
    return frozenset(imports)


def test_words(analysis: Analysis, context: Context, known: dict[int, frozenset[str]]) -> frozenset[str]:
    """The names the tests a mock applies to may reach code under test by: every
    name and attribute read in the test making it (or the test a helper making it
    is nested in); for a mock made in a set-up method or a helper of a class, in
    the whole class, or, for a helper method some tests of the class call, in
    those tests; for one made anywhere else (a module-level fixture or
    helper), in the whole file. Strings do not count. ``known`` remembers the
    words of each context, for the other mocks of the file."""
    return frozenset().union(*(_words(c, known) for c in _applying(analysis, context)))


@dataclass(frozen=True)
class Usage:
    """What the tests a mock applies to use, mock targets aside: the names they
    read (a class named only as ``patch.object(Mount, "is_mounted")`` is not
    one they use, nor is ``patch`` or ``object``, nor a method named only in
    what a mock assertion expects, ``m.assert_called_once_with(obj.reset)``),
    and whether they enter a ``with`` block of something that is not a patch
    (``with mount:`` runs ``__enter__`` and ``__exit__``)."""

    names: frozenset[str]
    enters: bool


def usage(analysis: Analysis, context: Context) -> Usage:
    if analysis.mocking_nodes is None:
        every = analysis.module.sites
        analysis.mocking_nodes = (
            frozenset(id(site.call) for site in every),
            frozenset(id(site.call.args[0]) for site in every if site.call.args and site.kind == "patch.object")
            | {id(site.call.func) for site in every},  # mock.patch.object: no use of a `patch`
        )
    sites, targets = analysis.mocking_nodes
    found: set[str] = set()
    enters = False
    for applying in _applying(analysis, context):
        stack: list[ast.AST] = [applying.node]
        while stack:
            node = stack.pop()
            if id(node) in targets:
                continue
            if isinstance(node, ast.Name):
                found.add(node.id)
            elif isinstance(node, ast.Attribute):
                found.add(node.attr)
            elif isinstance(node, ast.withitem) and id(node.context_expr) not in sites:
                enters = True
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr.startswith(MOCK_ASSERTION_PREFIX):
                stack.append(node.func)  # what a mock was called with is not run by the test
                continue
            stack.extend(child_nodes(node))
    return Usage(frozenset(found), enters)


MOCK_ASSERTION_PREFIX = "assert_"  # assert_called_once_with(fake, fake.reset_in_progress)


def _applying(analysis: Analysis, context: Context) -> list[Context]:
    """The code whose words count for a mock made in ``context`` (``test_words``)."""
    current: Context | None = context
    while current is not None and not _is_test(current.node):  # a helper nested in a test: the test
        current = current.parent
    if current is None:  # set-up, a helper or a fixture: the class, else the file
        current = context
        while current is not None and not isinstance(current.node, ast.ClassDef):
            current = current.parent
        if current is not None and context.is_function and context.name not in SETUP_NAMES:
            callers = [
                child for child in current.children
                if _is_test(child.node) and context.name in child.names
            ]
            if callers:  # a helper of the class: the tests that call it
                return [context, *callers]
    return [current if current is not None else analysis.module.module]


def _words(context: Context, known: dict[int, frozenset[str]]) -> frozenset[str]:
    """The names and attributes in ``context``'s code and its nested functions and classes."""
    words = known.get(id(context))
    if words is None:
        gathered = set(context.names)
        for child in context.children:
            gathered |= _words(child, known)
        words = known[id(context)] = frozenset(gathered)
    return words


def _is_test(node: ast.AST) -> bool:
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith(TEST_PREFIX)


def _reached(
    analysis: Analysis, caller: Caller, reach: Reach, function: Value, depth: int, skipped: frozenset[str],
) -> bool:
    """Whether the test may run ``caller``: the test names it (a dunder method by
    its class or the mocked function's class) and its file imports its module, or
    the same holds for a first-party function calling it, up to ``_CALLER_DEPTH``
    calls above, other than one in ``skipped`` (mocked by the test: its body does
    not run). Remembered in ``reach`` for the test's other mocks."""
    key = (caller.qualname, function.owner.qualname if function.owner is not None else "", depth, skipped)
    known = reach.known.get(key)
    if known is None:
        known = reach.known[key] = _reaches(analysis, caller, reach, function, depth, skipped)
    return known


CONTEXT_DUNDERS = frozenset({"__enter__", "__exit__", "__aenter__", "__aexit__"})


def _may_name_a_caller(analysis: Analysis, function: Value, reach: Reach) -> bool:
    """Whether some function calling ``function``'s name (read by name alone,
    before any call is resolved) is one ``_reaches`` could find named by the
    test at once: a dunder method, or a name the test reads. A cheap test for
    the last level of callers, which are searched only to be named."""
    names = _calling_names(analysis, function)
    return names is None or not names.isdisjoint(reach.names)


def _calling_names(analysis: Analysis, function: Value) -> frozenset[str] | None:
    """The names of the functions that may call ``function`` (by its name, and
    the methods of its class dispatching to it by ``getattr``); None when one is
    a dunder method (named by its class). Once per function and engine."""
    memory = cast("dict[object, tuple[frozenset[str] | None, Deps]]", analysis.memo.extra.setdefault("calling names", {}))

    def gather() -> frozenset[str] | None:
        short = function.qualname.rpartition(".")[2]
        found: set[str] = set()
        for path in _files_calling(analysis, short):
            info = analysis.resolver.index.get(_module_of(analysis, path))
            if info is not None:
                found.update(qualname.rpartition(".")[2] for qualname, _, _ in _calls_by_name(analysis, path, info).get(short, []))
        found.update(caller.qualname.rpartition(".")[2] for caller in _dispatching_callers(analysis, function))
        return None if any(name.startswith("__") for name in found) else frozenset(found)

    def decode(record: object) -> frozenset[str] | None:
        if isinstance(record, list) and all(isinstance(name, str) for name in record):
            return frozenset(record)
        return None  # a dunder among them (kept as null): looked for again, as a record not kept is

    return analysis.memo.tracker.remembered(memory, (function.module, function.qualname), lambda: _kept_or_computed(
        analysis, "calling names", [function.module, function.qualname], gather,
        lambda found: sorted(found) if found is not None else None, decode,
    ))


def _reaches(
    analysis: Analysis, caller: Caller, reach: Reach, function: Value, depth: int, skipped: frozenset[str],
) -> bool:
    parts = caller.qualname.split(".")
    name = parts[-1]
    used_checked = False  # what the test uses (``reach.used()``, a walk of its code) is read last
    if name.startswith("__") and len(parts) > 1:
        used = reach.used()
        used_checked = True
        named = name in reach.names and name in used.names
        if not named:
            owner = function.owner.qualname.rpartition(".")[2] if function.owner is not None else ""
            # naming the class as a mock's target is not using its instances
            named = parts[-2] in used.names or owner in used.names
            if not named and name in CONTEXT_DUNDERS and used.enters:
                named = parts[-2] in reach.names or owner in reach.names
    else:
        named = name in reach.names
        if named and caller.owner and not name.startswith("__"):
            named = _class_named_in_file(analysis, caller.owner, reach) \
                and not _called_on_other_classes_only(analysis, caller, reach)
            if not named and _called_on_an_heir(analysis, caller, reach):
                return True  # on an object whose class the engine knows: reached, wherever the class is imported from
        elif named and not caller.owner:
            named = not _named_as_methods_only(analysis, name, reach)
    if named:
        value = analysis.resolver.resolve_dotted(caller.qualname)
        if reach.imported(value.module or caller.qualname.rpartition(".")[0]) and (
            used_checked or name in reach.used().names
        ):
            return True
    if depth + 1 >= _CALLER_DEPTH:
        return False
    value = analysis.resolver.resolve_dotted(caller.qualname)
    if value.kind is not Kind.FUNCTION or value.function is None:
        return False
    if depth + 2 >= _CALLER_DEPTH and not _may_name_a_caller(analysis, value, reach):
        return False  # the callers found would be the last looked at, and none can be named
    return any(
        _reached(analysis, upper, reach, function, depth + 1, skipped)
        for upper in callers(analysis, value, frozenset({caller.qualname})) if upper.qualname not in skipped
    )


def runs_caller(analysis: Analysis, test: Context, caller: str, function: Value, words: dict[int, frozenset[str]]) -> bool:
    """Whether ``test`` may run the first-party function ``caller`` (dotted)
    with ``function`` left real: it names it, or a function up to
    ``_CALLER_DEPTH`` calls above it (a constructor by its class, as
    ``Parser()`` runs ``Parser.__init__``), as a mock's own test is judged
    to reach a caller (``_reached``)."""
    return reaches_caller(analysis, reach_of(analysis, test, words), caller, function)


def reaches_caller(analysis: Analysis, reach: Reach, caller: str, function: Value) -> bool:
    """Whether code reaching what ``reach`` holds may run ``caller`` (dotted)
    with ``function`` left real (``runs_caller``)."""
    value = analysis.resolver.resolve_dotted(caller)
    if value.kind is not Kind.FUNCTION or value.function is None:
        return False
    info = analysis.resolver.index.get(value.module)
    owner = f"{value.owner.module}.{value.owner.qualname}" if value.owner is not None else ""
    found = Caller(caller, value.function, [], Lines(""), info, owner)
    return _reached(analysis, found, reach, function, 0, frozenset({function.qualname}))


_SET_UP_DEPTH = 2  # calls down from a set-up into the tests' own helpers


def set_up_reach(analysis: Analysis, set_ups: Sequence[tuple[FunctionNode, Scope]], mocked: str) -> Reach | None:
    """What set-up code (each with the scope its names are looked up in)
    reaches code by: what it calls, also inside the tests' own helpers it
    calls, ``_SET_UP_DEPTH`` calls down (certbot's ``setUp`` ->
    ``util.get_apache_configurator`` -> ``config.prepare()``), the names and
    attributes it reads (a class it builds), and what it and their modules
    import. None when that code names the function ``mocked`` in a string
    (``patch("pkg.mod.mocked")``, ``patch.object(C, "mocked")``): it may
    mock it, and the function is not real there."""
    called: set[str] = set()
    read: set[str] = set()
    imports: set[str] = set()
    seen: set[int] = set()
    helpers = analysis.module.helpers
    todo = [(node, scope, 0) for node, scope in set_ups]
    while todo:
        node, scope, depth = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        imports.update(b.target for b in scope.module.bindings.values() if b.kind == "import")
        for sub in ast.walk(node):
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                if sub.value == mocked or sub.value.endswith("." + mocked):
                    return None
            elif isinstance(sub, ast.Name):
                read.add(sub.id)
            elif isinstance(sub, ast.Attribute):
                read.add(sub.attr)
            elif isinstance(sub, ast.Import):
                imports.update(alias.name for alias in sub.names)
            elif isinstance(sub, ast.ImportFrom) and sub.module and not sub.level:
                imports.update(f"{sub.module}.{alias.name}" for alias in sub.names)
            elif isinstance(sub, ast.Call):
                called.add(callee_name(sub))
                if depth < _SET_UP_DEPTH and helpers is not None:
                    value = analysis.resolver.evaluate(sub.func, scope)
                    own = analysis.resolver.module_scope(value.module) if value.kind is Kind.FUNCTION else None
                    if value.function is not None and own is not None and helpers.of_the_tests(value.module):
                        todo.append((value.function, own, depth + 1))
    names = frozenset(called - {""})
    words = frozenset(read)
    return Reach(names, frozenset(imports), lambda: Usage(names, False), file_words=lambda: words)


def _class_named_in_file(analysis: Analysis, owner: str, reach: Reach) -> bool:
    """Whether the test file names the class ``owner`` (dotted) anywhere: a
    method name alone (``execute``, ``get``) is shared by many classes of a
    module the file imports. A file naming only a subclass does not count
    (finding subclasses reads every module naming the class: on nova's suite
    that search cost a third of the run)."""
    words = reach.file_words()
    if owner.rpartition(".")[2] in words:
        return True
    cls = analysis.resolver.resolve_dotted(owner).cls
    return cls is None  # cannot tell: count it


def _called_on_other_classes_only(analysis: Analysis, caller: Caller, reach: Reach) -> bool:
    """Whether every call the tests make of a method named like ``caller`` (or
    every such method they hand on: ``assertRaises(E, self.cmd.take_action,
    ...)``) is on an object of another class defining a method of that name, and none names
    the caller's own class: ``driver.Local().attach(v)`` does not run
    ``Cinder.attach``, nor ``cluster = cm.Cluster(...); cluster._load(c)``
    ``Node._load``; naming the caller's class only as a mock's target
    (``patch.object(Node, "get_all")``) does not name it. A call on an object
    the engine cannot type (``self.controller.update``) may run it."""
    if caller.owner.rpartition(".")[2] in reach.used().names:  # named other than as a mock's target
        return False
    name = caller.qualname.rpartition(".")[2]
    methods = _methods_named(reach, name)
    if not methods:
        return False
    for method, context in methods:
        receiver = analysis.resolver.evaluate(method.value, analysis.module.scope(context))
        cls = receiver.cls if receiver.kind in (Kind.INSTANCE, Kind.CLASS) else None
        if cls is None or f"{cls.module}.{cls.qualname}" == caller.owner:
            return False
        if getattr(cls.members.get(name), "kind", "") != "def":
            return False  # inherited: maybe the caller's own method
    return True


def _called_on_an_heir(analysis: Analysis, caller: Caller, reach: Reach) -> bool:
    """Whether the tests call the method ``caller`` (or hand it on) on an
    object of a class that inherits it: docker 6.1.3's ``self.client.push(...)``
    on an ``APIClient`` built of mixins runs ``ImageApiMixin.push``, though the
    file never names the mixin (``_class_named_in_file``)."""
    name = caller.qualname.rpartition(".")[2]
    for method, context in _methods_named(reach, name):
        receiver = analysis.resolver.evaluate(method.value, analysis.module.scope(context))
        if receiver.kind in (Kind.INSTANCE, Kind.CLASS) and receiver.cls is not None \
                and analysis.resolver.attribute(receiver, name).function is caller.function:
            return True
    return False


def _methods_named(reach: Reach, name: str) -> list[tuple[ast.Attribute, Context]]:
    """Each ``obj.name(...)``, or ``obj.name`` handed to a call, in the code
    ``reach`` applies to (nested functions too), with the context it is in."""
    methods: list[tuple[ast.Attribute, Context]] = []
    stack = list(reach.applying)
    while stack:
        context = stack.pop()
        stack.extend(context.children)
        for call in context.calls:
            methods += [
                (method, context) for method in (call.func, *call.args)
                if isinstance(method, ast.Attribute) and method.attr == name
            ]
    return methods


def _named_as_methods_only(analysis: Analysis, name: str, reach: Reach) -> bool:
    """Whether the tests name ``name`` only as a method of objects of known
    classes that define (or inherit) a method of that name, called or handed
    on (``shell.Shell().main(argv)``, ``assertRaises(E, shell.main, argv)``
    with ``shell`` such an object), or as a module of that name (``from
    mkdocs.commands import gh_deploy`` ... ``gh_deploy._get_current_sha()``):
    that does not run a module's function of the same name (glanceclient's
    ``shell.main``, whose ``except Exception`` is above the method the tests
    enter at; mkdocs's ``gh_deploy.gh_deploy``). Any other use of the name, or
    one on an object the engine cannot type, may run it."""
    uses = 0
    stack = list(reach.applying)
    while stack:
        context = stack.pop()
        stack.extend(context.children)
        if name not in context.names:
            continue
        node = context.node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False  # named in a class or module body: not read here
        scope = analysis.module.scope(context)
        for named in [*own_nodes(node), *(inner for decorator in node.decorator_list for inner in walk(decorator))]:
            if isinstance(named, ast.Name) and named.id == name:
                if analysis.resolver.evaluate(named, scope).kind is Kind.MODULE:
                    uses += 1  # the module of that name, not its function
                    continue
                return False  # the function itself, imported by name, or a local of that name
            if not (isinstance(named, ast.Attribute) and named.attr == name):
                continue
            receiver = analysis.resolver.evaluate(named.value, scope)
            if receiver.kind not in (Kind.INSTANCE, Kind.CLASS) or receiver.cls is None:
                return False
            method = analysis.resolver.attribute(receiver, name)
            if method.kind is not Kind.FUNCTION or method.owner is None:
                return False  # not a method of the class (``self.door = gates.door`` holds the function itself)
            uses += 1
    return uses > 0


def _reading_conditions(caller: Caller) -> Iterator[tuple[ast.If | ast.While, set[str | int]]]:
    """The ``if``/``while`` tests of ``caller`` that read the mocked call, with what
    stands for its result: the call nodes' ids and names assigned the call itself.
    A name is read from the call only by a test that can run after the
    assignment: below it, or in a loop around both (``wheel = None; if
    download and wheel is None: wheel = download()`` tests the earlier value)."""
    call_ids = {id(call) for call in caller.calls}
    reads: set[str | int] = set(call_ids)
    assigned: dict[str, list[ast.stmt | ast.expr]] = {}
    stores: list[ast.Name] = []  # every binding of a name, to find those made after the call's
    handlers: list[ast.ExceptHandler] = []
    loops: list[ast.stmt] = []
    for node in own_nodes(caller.function):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
            value = node.value.value if isinstance(node.value, ast.Await) else node.value
            if id(value) in call_ids:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        reads.add(target.id)
                        assigned.setdefault(target.id, []).append(node)
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            loops.append(node)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stores.append(node)
        elif isinstance(node, ast.ExceptHandler):
            handlers.append(node)
    for node in own_nodes(caller.function):
        if not isinstance(node, (ast.If, ast.While)):
            continue
        for inner in ast.walk(node.test):
            if id(inner) in reads or (
                isinstance(inner, ast.Name) and inner.id in reads
                and any(
                    _runs_after(node.test, assignment, loops)
                    and not _rebound_between(assignment, node.test, inner.id, stores, handlers)
                    for assignment in assigned[inner.id]
                )
            ):
                yield node, reads
                break


def _rebound_between(
    assignment: ast.stmt | ast.expr, test: ast.expr, name: str, stores: list[ast.Name], handlers: list[ast.ExceptHandler],
) -> bool:
    """Whether ``name`` is bound again below ``assignment`` and above ``test``,
    on the path where the call returned: the test may read that value instead
    (``if not value: value = default`` before ``if value == "latest"``, as
    python-ironicclient's plugin does). A binding in an ``except`` handler
    runs only when something raised, so it does not count."""
    after = (assignment.end_lineno or assignment.lineno, assignment.end_col_offset or 0)
    before = (test.lineno, test.col_offset)
    raised_only = [handler for handler in handlers if not _holds(handler, assignment)]
    return any(
        store.id == name and after < (store.lineno, store.col_offset) < before
        and not any(_holds(handler, store) for handler in raised_only)
        for store in stores
    )


def _runs_after(test: ast.expr, assignment: ast.stmt | ast.expr, loops: list[ast.stmt]) -> bool:
    """Whether ``test`` may be evaluated after ``assignment`` ran (by position
    in one function): it stands below, or a loop holds both."""
    if (test.lineno, test.col_offset) > (assignment.end_lineno or assignment.lineno, assignment.end_col_offset or 0):
        return True
    return any(_holds(loop, test) and _holds(loop, assignment) for loop in loops)


def _holds(outer: ast.stmt | ast.ExceptHandler, inner: ast.stmt | ast.expr) -> bool:
    """Whether ``inner`` lies inside ``outer``, by position."""
    start, end = (outer.lineno, outer.col_offset), (outer.end_lineno or outer.lineno, outer.end_col_offset or 0)
    return start <= (inner.lineno, inner.col_offset) and (inner.end_lineno or inner.lineno, inner.end_col_offset or 0) <= end


class _Unknown(Exception):
    """The value cannot be told statically."""


class _Elsewhere(_Unknown):
    """The truth depends on a part of the condition that does not read the call."""


_MOCK = object()  # a MagicMock: truthy, equal to nothing else, not None
_ANY = object()  # some other value: not None, anything else unknown


def _arms(test: ast.expr, reads: set[str | int], outcome: Outcome, left_out: bool = False) -> set[str]:
    """The arms (``if``/``else``) ``test`` can take when the mocked call gives
    ``outcome``. For a ``left_out`` outcome, none when the arm depends on a
    part of the condition that does not read the call (``if self.convergence
    and not updated``): such an outcome is not told apart."""
    if outcome.kind == "raises":
        return set()  # the condition is never reached
    if outcome.value == A_MOCK:
        result: object = _MOCK
    elif outcome.value == A_VALUE:
        result = _ANY
    else:
        try:
            result = ast.literal_eval(outcome.value)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return {"if", "else"}
    try:
        truth = _truth(test, reads, result)
    except _Elsewhere:
        return set() if left_out else {"if", "else"}
    except _Unknown:
        return {"if", "else"}
    return {"if" if truth else "else"}


def _truth(expr: ast.expr, reads: set[str | int], result: object) -> bool:
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        return not _truth(expr.operand, reads, result)
    if isinstance(expr, ast.BoolOp):
        truths: list[bool | None] = []
        elsewhere = False
        for value in expr.values:
            try:
                truths.append(_truth(value, reads, result))
            except _Elsewhere:
                truths.append(None)
                elsewhere = True
            except _Unknown:
                truths.append(None)
                elsewhere = elsewhere or not _reads_call(value, reads)
        deciding = False if isinstance(expr.op, ast.And) else True
        if deciding in truths:
            return deciding
        if None in truths:
            raise _Elsewhere if elsewhere else _Unknown
        return not deciding
    evaluated = _value(expr, reads, result)
    if evaluated is _MOCK:
        return True
    if evaluated is _ANY:
        raise _Unknown
    try:
        return bool(evaluated)
    except Exception as error:  # a literal whose truth cannot be told
        raise _Unknown from error


def _is_read(node: ast.AST, reads: set[str | int]) -> bool:
    """Whether ``node`` stands for the mocked call's result: the call, or a name assigned it."""
    return id(node) in reads or (isinstance(node, ast.Name) and node.id in reads)


def _reads_call(expr: ast.expr, reads: set[str | int]) -> bool:
    return any(_is_read(node, reads) for node in ast.walk(expr))


def _value(expr: ast.expr, reads: set[str | int], result: object) -> object:
    if _is_read(expr, reads):
        return result
    if isinstance(expr, ast.Await):
        return _value(expr.value, reads, result)
    if isinstance(expr, ast.Constant):
        return expr.value
    if isinstance(expr, ast.Compare):
        left = _value(expr.left, reads, result)
        for op, comparator in zip(expr.ops, expr.comparators):
            right = _value(comparator, reads, result)
            if not _compare(op, left, right):
                return False
            left = right
        return True
    raise _Unknown


def _compare(op: ast.cmpop, left: object, right: object) -> bool:
    special = {left, right} & {_MOCK, _ANY} if all(_hashable(x) for x in (left, right)) else set()
    if special:
        if isinstance(op, (ast.Is, ast.IsNot)) and (left is None or right is None):
            return isinstance(op, ast.IsNot)
        if _MOCK in special and isinstance(op, (ast.Eq, ast.NotEq)) and left is not right:
            return isinstance(op, ast.NotEq)
        raise _Unknown
    operations = {
        ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Is: lambda a, b: a is b,
        ast.IsNot: lambda a, b: a is not b, ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b,
        ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b, ast.In: lambda a, b: a in b,
        ast.NotIn: lambda a, b: a not in b,
    }
    operation = operations.get(type(op))
    if operation is None:
        raise _Unknown
    try:
        return bool(operation(left, right))  # type: ignore[no-untyped-call]
    except Exception as error:
        raise _Unknown from error


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


# -- which handlers catch a withheld exception ----------------------------------


def _handlers(
    analysis: Analysis, caller: Caller, exception: str, given: list[Outcome],
    reach: Reach, function: Value, depth: int, skipped: frozenset[str],
    nearby: frozenset[tuple[str, str]] = frozenset(),
) -> dict[Arm, tuple[FunctionNode, list[ast.stmt]]]:
    """The first-party handlers that catch ``exception`` raised at ``calls`` in
    ``caller``, or further up when it propagates (up to ``_CALLER_DEPTH`` calls),
    minus those an exception the mocks do raise (``given``) already takes, and
    those whose ``try`` calls a function that raises a caught exception in a
    sibling test (``nearby``: the function's name, the exception).
    Functions in ``skipped`` (the mocked function, and others the test mocks)
    do not run, so the search does not climb through them. Each handler
    comes with the function holding it and its body."""
    found: dict[Arm, tuple[FunctionNode, list[ast.stmt]]] = {}
    propagates = False
    for call in caller.calls:
        handler = _handler_taking(analysis, caller, call, exception, function.module)
        if handler == "unknown":
            continue  # a handler of a class that may be a base of the exception: which one runs is not known
        if handler is None:
            propagates = True
            continue
        if any(_handler_taking(analysis, caller, call, o.value, function.module) is handler for o in given):
            continue  # the mock's own exception (or another mock's) takes this handler already
        if nearby and _taken_nearby(analysis, caller, call, handler, nearby):
            continue
        if _answer_may_raise_into(caller, call, handler):
            continue
        names = [ast.unparse(handler.type)] if handler.type is not None else []
        derived = [item for item, verdict in _relations(analysis, caller, handler, exception, function.module) if verdict]
        names[:0] = [callee_name(derived[0])] if derived else []
        text = next((n for n in _caught_names(handler) if _catches(n, exception)), names[0] if names else "")
        found.setdefault(Arm(caller.qualname, "except", text), (caller.function, handler.body))
    if propagates and depth + 1 < _CALLER_DEPTH:
        value = analysis.resolver.resolve_dotted(caller.qualname)
        if value.kind is Kind.FUNCTION and value.function is not None:
            for upper in callers(analysis, value, frozenset({caller.qualname})):
                if upper.qualname in skipped or not _reached(analysis, upper, reach, function, depth + 1, skipped):
                    continue
                for arm, where in _handlers(
                    analysis, upper, exception, given, reach, function, depth + 1, skipped, nearby,
                ).items():
                    found.setdefault(arm, where)
    return found


# What reading a value of the wrong shape raises: unpacking it, converting it,
# indexing it, or reading an attribute it lacks.
_UNPACKING_ERRORS = frozenset({"ValueError", "TypeError"})
_INDEXING_ERRORS = frozenset({"KeyError", "IndexError", "LookupError", "TypeError"})
_CONVERTING_CALLS = frozenset({"int", "float", "complex", "Decimal", "UUID", "loads", "fromisoformat", "strptime"})


def _answer_may_raise_into(caller: Caller, call: ast.Call, handler: ast.ExceptHandler) -> bool:
    """Whether ``handler`` catches, by name, a builtin error that its ``try``
    raises on the call's answer itself: unpacking it (``major, minor =
    out.split()``), converting it (``int(out)``), indexing it or reading its
    attributes. Then the mock's own answer may take the handler (nox's fake
    ``subprocess.run`` giving ``stdout=""``), and which answers do cannot be
    told statically."""
    caught = set(_caught_names(handler)) & (_UNPACKING_ERRORS | _INDEXING_ERRORS | {"AttributeError"})
    owner = next((statement for statement in caller.tries.get(id(call), ()) if handler in statement.handlers), None)
    if not caught or owner is None:
        return False
    nodes = [node for statement in owner.body for node in ast.walk(statement)]
    derived: set[str] = set()
    call_id = id(call)

    def reads_answer(expr: ast.AST) -> bool:
        return any(id(node) == call_id or (isinstance(node, ast.Name) and node.id in derived) for node in ast.walk(expr))

    for _ in range(2):  # the answer, and what is computed from it
        for node in nodes:
            if isinstance(node, ast.Assign) and reads_answer(node.value):
                derived.update(t.id for t in node.targets if isinstance(t, ast.Name))
    raised: set[str] = set()
    for node in nodes:
        if isinstance(node, (ast.Assign, ast.For)) and reads_answer(node.value if isinstance(node, ast.Assign) else node.iter):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(target, (ast.Tuple, ast.List)) for target in targets):
                raised |= _UNPACKING_ERRORS
        elif isinstance(node, ast.Call) and callee_name(node.func) in _CONVERTING_CALLS and any(
            reads_answer(argument) for argument in node.args
        ):
            raised |= _UNPACKING_ERRORS
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and reads_answer(node.value):
            raised |= _INDEXING_ERRORS
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in derived:
            raised.add("AttributeError")
    return bool(caught & raised)


def _taken_nearby(
    analysis: Analysis, caller: Caller, call: ast.Call, handler: ast.ExceptHandler,
    nearby: frozenset[tuple[str, str]],
) -> bool:
    """Whether the ``try`` that ``handler`` belongs to calls, in its body or in
    the body of a function of the caller's own class or module that its body
    calls (``self._mount()`` calling ``do_mount``), a function named in
    ``nearby`` whose exception ``handler`` catches."""
    owner = next((statement for statement in caller.tries.get(id(call), ()) if handler in statement.handlers), None)
    if owner is None:
        return False
    calls = [node for statement in owner.body for node in ast.walk(statement) if isinstance(node, ast.Call)]
    called = {callee_name(node) for node in calls}
    for node in calls:
        callee = _own_callee(analysis, caller, node.func)
        if callee is not None:
            done = reading_once(callee)
            called.update(callee_name(inner) for inner in own_nodes(callee) if isinstance(inner, ast.Call))
            done()
    caught = _caught_names(handler)
    return any(name in called and any(_catches(c, exception) for c in caught) for name, exception in nearby)


def _own_callee(analysis: Analysis, caller: Caller, func: ast.expr) -> FunctionNode | None:
    """The function of ``caller``'s own class (``self.name``/``cls.name``) or
    module (a bare ``name``) that a call of ``func`` there runs; None for
    anything else."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in {"self", "cls"}:
        if not caller.owner:
            return None
        dotted = f"{caller.owner}.{func.attr}"
    elif isinstance(func, ast.Name) and caller.module is not None:
        dotted = f"{caller.module.name}.{func.id}"
    else:
        return None
    value = analysis.resolver.resolve_dotted(dotted)
    return value.function if value.kind is Kind.FUNCTION and value.function is not caller.function else None


def _handled_values(caller: Caller, given: frozenset[Outcome], reads: set[str | int]) -> list[Outcome]:
    """What the names standing for the call's result hold when an exception the
    mock raises is caught around the call by a handler assigning them a literal
    (``except Exception: latest = None``): the code then goes on with that value."""
    found: list[Outcome] = []
    for outcome in given:
        if outcome.kind != "raises":
            continue
        for call in caller.calls:
            handler = _enclosing_handler(caller, call, outcome.value)
            if handler is None:
                continue
            for statement in handler.body:
                if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Constant) and any(
                    isinstance(target, ast.Name) and target.id in reads for target in statement.targets
                ):
                    found.append(Outcome("returns", repr(statement.value.value)))
    return found


_PLAIN_DECORATORS = frozenset({"staticmethod", "classmethod", "property", "abstractmethod", "override", "wraps"})
_EVIDENCE_DEPTH = 2  # a chain of this many first-party calls from the test to the mocked call


def calls_unconditionally(
    analysis: Analysis, function: Value, reach: Reach, arguments_matter: bool, asserted_count: int | None = None,
    mocked: frozenset[str] = frozenset(),
) -> bool:
    """Whether the engine sees the test's own call reach ``function`` on every
    path: a first-party function the test names (whose module its file
    imports) makes all its calls of it outside any ``if``, loop, ``except`` arm
    or guard clause, directly or through one more such function, none of them
    decorated with anything but ``staticmethod``/``classmethod``/``property``
    and their kin (a decorator may guard, retry or swallow the call). Only
    calls resolved to ``function`` count: a call of its name on an object the
    engine cannot type may be another class's method. When ``arguments_matter``
    (the test asserts the arguments), every call on the chain must pass on
    its arguments as they came (``passes_arguments_through``): arguments the
    code derives are a result of its logic. With ``asserted_count`` (how many
    arguments the test's assertion expects), a call passing another number
    (or, for the instance an autospec method records, one fewer) does not
    count: the assertion fails against it, whatever else the code does
    (blazar's ``lease_list(None)`` asserted as ``assert_called_once_with()``).
    ``mocked``: the functions the test replaces (they do not run, so decide
    nothing). False when no such chain is seen."""
    return _unconditional_chain(
        analysis, function, reach, 0, frozenset({function.qualname}), arguments_matter, asserted_count, mocked,
    )


def _unconditional_chain(
    analysis: Analysis, function: Value, reach: Reach, depth: int, skipped: frozenset[str], arguments_matter: bool,
    asserted_count: int | None = None, mocked: frozenset[str] = frozenset(),
) -> bool:
    for caller in callers(analysis, function, frozenset({function.qualname})):
        if caller.qualname in skipped or caller.conditional:
            continue
        if asserted_count is not None and not any(
            argument_count(call) in (asserted_count, asserted_count - 1, None) for call in caller.calls
        ):
            continue  # the code's call cannot be the asserted one (an autospec method's records its instance too)
        if any(callee_name(d) not in _PLAIN_DECORATORS for d in caller.function.decorator_list):
            continue
        if arguments_matter and not all(passes_arguments_through(caller.function, call) for call in caller.calls):
            continue
        if _may_raise_after(caller.function, caller.calls) or _checks_before(analysis, caller, mocked):
            continue  # a test passing through it checks that the code did not raise
        value = analysis.resolver.resolve_dotted(caller.qualname)
        name = caller.qualname.rpartition(".")[2]
        if name in reach.names and reach.imported(value.module or caller.qualname.rpartition(".")[0]) \
                and name in reach.used().names:  # not only as a mocking call's name (``mock.patch`` is no ``patch``)
            return True
        if depth + 1 < _EVIDENCE_DEPTH and value.kind is Kind.FUNCTION and value.function is not None:
            if _unconditional_chain(
                analysis, value, reach, depth + 1, skipped | {caller.qualname}, arguments_matter, mocked=mocked,
            ):
                return True
    return False


def _may_raise_after(function: FunctionNode, calls: list[ast.Call]) -> bool:
    """Whether ``function`` has a ``raise`` (outside an ``except`` arm) or an
    ``assert`` after the first of ``calls``: it may decide to fail on what the
    call gave (cyborg's
    ``_check_if_already_bound`` raises ``PatchError`` when the ARQs it listed
    are bound already), and a test running it without expecting a failure
    checks that decision."""
    first = min((call.lineno, call.col_offset) for call in calls)
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Raise, ast.Assert)) and (node.lineno, node.col_offset) > first:
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ExceptHandler)):
            continue  # a handler's raise passes a failure on: no decision on what the call gave
        stack.extend(child_nodes(node))
    return False


def _checks_before(analysis: Analysis, caller: Caller, mocked: frozenset[str]) -> bool:
    """Whether ``caller``, before the first of its calls, calls a first-party
    function of its module, its class or a module it imports that may fail on
    its own (``_may_raise_after`` from its start): a guard such as
    ironic-inspector's ``ironic.check_provision_state(node)``, raising for a
    state it does not allow, or one passing a failure on from a handler
    (freezer's ``_create_tempdir``: ``try: mkdtemp() except: ... raise``, the
    guard ``_conditional_calls`` reads when it is written in the caller). A test running the caller without expecting a
    failure checks that guard's decision; one the test mocks (a function of
    ``mocked``) does not run, so decides nothing."""
    first = min((call.lineno, call.col_offset) for call in caller.calls)
    for node in own_nodes(caller.function):
        if not isinstance(node, ast.Call) or (node.lineno, node.col_offset) >= first:
            continue
        found = _checked_callee(analysis, caller, node.func)
        if found is None or found.qualname in mocked or found.function is None:
            continue
        callee = found.function
        done = reading_once(callee)
        fails = _may_raise_after(callee, [_START]) or _passes_a_failure_on(callee)
        done()
        if fails:
            return True
    return False


def _passes_a_failure_on(function: FunctionNode) -> bool:
    """Whether ``function``'s own code has a ``try`` with a handler ending in
    ``raise``: it fails when what it tries fails."""
    return any(
        isinstance(node, ast.Try) and any(handler.body and isinstance(handler.body[-1], ast.Raise)
                                          for handler in node.handlers)
        for node in own_nodes(function)
    )


_START = ast.Call(func=ast.Name(id=""), args=[], keywords=[], lineno=0, col_offset=-1)  # before any node


def _checked_callee(analysis: Analysis, caller: Caller, func: ast.expr) -> Value | None:
    """The function a call of ``func`` in ``caller`` runs: one of the caller's
    own class (``self.name``) or module (a bare ``name``), or one a dotted call
    of a module the caller's module imports (``ironic.check_provision_state``)
    names; None for anything else."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in {"self", "cls"}:
        dotted = f"{caller.owner}.{func.attr}" if caller.owner else None
    elif caller.module is not None and (parts := dotted_parts(func)) is not None:
        dotted = ".".join([caller.module.name, *parts])
    else:
        dotted = None
    value = analysis.resolver.resolve_dotted(dotted) if dotted else None
    if value is None or value.kind is not Kind.FUNCTION or value.function is caller.function:
        return None
    return value


def argument_count(call: ast.Call) -> int | None:
    """How many arguments ``call`` passes, positional and keyword; None when
    it unpacks some (``*args``, ``**kwargs``)."""
    if any(isinstance(arg, ast.Starred) for arg in call.args) or any(k.arg is None for k in call.keywords):
        return None
    return len(call.args) + len(call.keywords)


_PASS_THROUGH_DEPTH = 3  # how many local assignments a passed-on argument is followed through


def passes_arguments_through(function: FunctionNode, call: ast.Call) -> bool:
    """Whether every argument of ``call`` (made in ``function``) is what
    ``function`` was given, unchanged: a literal, a parameter or other name, an
    attribute or a constant-keyed item of one, a container of such, or a local
    assigned once from one. A call, an operator, a conditional or ``or`` (a
    fallback), a comprehension, an f-string, a loop variable or an attribute of
    ``self``/``cls`` (state made elsewhere, maybe derived) derives it."""
    arguments = function.args.posonlyargs + function.args.args
    owners = {arguments[0].arg} & {"self", "cls"} if arguments else set()
    assigned: dict[str, list[ast.expr | None]] = {}
    for node in own_nodes(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        assigned.setdefault(name.id, []).append(node.value if target is name else None)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.NamedExpr)) and isinstance(node.target, ast.Name):
            assigned.setdefault(node.target.id, []).extend([None, None])
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension, ast.With, ast.AsyncWith)):
            bound: list[ast.expr] = (
                [node.target] if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension))
                else [item.optional_vars for item in node.items if item.optional_vars is not None]
            )
            for name in (n for each in bound for n in ast.walk(each)):
                if isinstance(name, ast.Name):
                    assigned.setdefault(name.id, []).extend([None, None])  # a loop variable or a managed value

    return all(_plain(arg, 0, assigned, owners) for arg in [*call.args, *(keyword.value for keyword in call.keywords)])


def _plain(expr: ast.expr, depth: int, assigned: dict[str, list[ast.expr | None]], owners: set[str]) -> bool:
    """``passes_arguments_through`` for one argument (``assigned``: the
    function's locals, each with what it is assigned; ``owners``: ``self``/``cls``)."""
    if isinstance(expr, ast.Constant):
        return True
    if isinstance(expr, ast.Name):
        values = assigned.get(expr.id)
        if values is None:
            return True  # a parameter, a global or a builtin, as given
        value = values[0]
        return len(values) == 1 and value is not None and depth < _PASS_THROUGH_DEPTH and _plain(value, depth + 1, assigned, owners)
    if isinstance(expr, ast.Attribute):
        root = expr.value
        while isinstance(root, (ast.Attribute, ast.Subscript)):
            root = root.value
        if isinstance(root, ast.Name) and root.id in owners:
            return False  # the object's state: set up, maybe derived, elsewhere
        return _plain(expr.value, depth, assigned, owners)
    if isinstance(expr, ast.Subscript):
        return isinstance(expr.slice, ast.Constant) and _plain(expr.value, depth, assigned, owners)
    if isinstance(expr, ast.Starred):
        return _plain(expr.value, depth, assigned, owners)
    if isinstance(expr, (ast.Tuple, ast.List, ast.Set)):
        return all(_plain(element, depth, assigned, owners) for element in expr.elts)
    if isinstance(expr, ast.Dict):
        return all(_plain(part, depth, assigned, owners) for part in [*expr.values, *(k for k in expr.keys if k is not None)])
    return False


_EXITS = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def _conditional_calls(function: FunctionNode, calls: list[ast.Call]) -> frozenset[int]:
    """The ids of those of ``calls`` (in ``function``'s own body) that run on
    some paths only: in an arm of an ``if``, a conditional expression or a
    ``match``, a loop body, an ``except`` or ``else`` arm, a later operand of
    ``and``/``or``, a comprehension, after an ``if`` with an arm that cannot
    reach its end (``return``, ``raise``, ``continue``, ``break``,
    ``sys.exit()``: ``falls_through``) or a ``try`` with such a handler earlier
    in an enclosing block, or after the first statement of a ``try`` with a
    handler that does not re-raise (an earlier statement failing skips it)."""
    wanted = {id(call) for call in calls}
    found: set[int] = set()

    def expression(node: ast.AST, conditional: bool) -> None:
        if isinstance(node, ast.Lambda):
            return
        if id(node) in wanted and conditional:
            found.add(id(node))
        if isinstance(node, ast.IfExp):
            expression(node.test, conditional)
            expression(node.body, True)
            expression(node.orelse, True)
        elif isinstance(node, ast.BoolOp):
            expression(node.values[0], conditional)
            for value in node.values[1:]:
                expression(value, True)
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            expression(node.generators[0].iter, conditional)
            for child in ast.iter_child_nodes(node):
                if child is not node.generators[0].iter:
                    expression(child, True)
        else:
            for child in ast.iter_child_nodes(node):
                expression(child, conditional)

    def block(statements: list[ast.stmt], conditional: bool) -> None:
        for statement in statements:
            one(statement, conditional)
            if isinstance(statement, ast.If) and any(
                arm and not falls_through(arm) for arm in (statement.body, statement.orelse)
            ):
                conditional = True  # a guard clause: what follows runs only when it lets through
            elif isinstance(statement, ast.Try) and any(not falls_through(h.body) for h in statement.handlers):
                conditional = True  # a handler leaving early: what follows runs only when the ``try`` succeeds

    def one(statement: ast.stmt, conditional: bool) -> None:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return  # its own code
        if isinstance(statement, (ast.If, ast.While)):
            expression(statement.test, conditional)
            block(statement.body, True)
            block(statement.orelse, True)
        elif isinstance(statement, (ast.For, ast.AsyncFor)):
            expression(statement.iter, conditional)
            block(statement.body, True)
            block(statement.orelse, True)
        elif isinstance(statement, TRY_STATEMENTS):
            if statement.body and any(not _reraises(handler) for handler in statement.handlers):
                one(statement.body[0], conditional)  # what follows runs only if it did not raise
                block(statement.body[1:], True)
            else:
                block(statement.body, conditional)
            for handler in statement.handlers:
                block(handler.body, True)
            block(statement.orelse, True)
            block(statement.finalbody, conditional)
        elif isinstance(statement, (ast.With, ast.AsyncWith)):
            for item in statement.items:
                expression(item.context_expr, conditional)
            block(statement.body, conditional)
        elif isinstance(statement, ast.Match):
            expression(statement.subject, conditional)
            for case in statement.cases:
                block(case.body, True)
        else:
            expression(statement, conditional)

    block(list(function.body), False)
    return frozenset(found)


def _reraises(handler: ast.ExceptHandler) -> bool:
    return bool(handler.body) and isinstance(handler.body[-1], ast.Raise)


def _enclosing_handler(caller: Caller, call: ast.Call, exception: str) -> ast.ExceptHandler | None:
    """The innermost handler around ``call`` in ``caller`` that catches ``exception``, by name."""
    for statement in reversed(caller.tries.get(id(call), ())):
        for handler in statement.handlers:
            if any(_catches(name, exception) for name in _caught_names(handler)):
                return handler
    return None


def _handler_taking(
    analysis: Analysis, caller: Caller, call: ast.Call, exception: str, raised_in: str,
) -> ast.ExceptHandler | None | Literal["unknown"]:
    """``_enclosing_handler``, where a handler naming a class other than
    ``exception`` also catches it when the class named ``exception`` derives
    from it (``_derives``: gnocchiclient's ``BadRequest`` from
    ``ClientException``; ``JSONDecodeError`` from ``ValueError``); ``"unknown"``
    when it may, as far as the engine can tell, and no later handler of the
    same ``try`` names the exception (nobody writes a handler that never runs)."""
    for statement in reversed(caller.tries.get(id(call), ())):
        for position, handler in enumerate(statement.handlers):
            if any(_catches(name, exception) for name in _caught_names(handler)):
                return handler
            relations = [verdict for _, verdict in _relations(analysis, caller, handler, exception, raised_in)]
            if True in relations:
                return handler
            if None in relations and not any(
                exception in _caught_names(later) for later in statement.handlers[position + 1:]
            ):
                return "unknown"
    return None


def _relations(
    analysis: Analysis, caller: Caller, handler: ast.ExceptHandler, exception: str, raised_in: str,
) -> list[tuple[ast.expr, bool | None]]:
    """Each class ``handler`` names, with whether the class named ``exception``
    derives from it (``_derives``)."""
    if handler.type is None:
        return []
    items = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return [(item, _derives(analysis, caller, item, exception, raised_in)) for item in items]


def _derives(analysis: Analysis, caller: Caller, caught: ast.expr, exception: str, raised_in: str) -> bool | None:
    """Whether the class named ``exception`` (raised in module ``raised_in``)
    derives from the class ``caught`` names in ``caller``'s module, read from
    the source of the project or an installed library (``_raised_ancestry``).
    None when that cannot be told: the raised class is not found, or a class
    on its way up cannot be read and the handler's class is not known to be
    none of them. A builtin handler catches what is known to derive from it
    (nothing known: it does not catch it, as by name)."""
    if exception == AN_EXCEPTION or caller.module is None:
        return False
    builtin = getattr(builtins, callee_name(caught) or "", None)
    if isinstance(builtin, type):
        ancestry = _raised_ancestry(analysis, caller, exception, [raised_in])
        return ancestry is not None and any(issubclass(base, builtin) for base in ancestry[1])
    parts = dotted_parts(caught)
    handled = _class_named(analysis, ".".join([caller.module.name, *parts])) if parts else None
    ancestry = _raised_ancestry(analysis, caller, exception, [raised_in, *([handled[0].module] if handled else [])])
    if ancestry is None:
        return None
    classes, _, complete = ancestry
    if handled is not None:
        return True if (handled[0].module, handled[0].qualname) in classes else (False if complete else None)
    named = callee_name(caught)
    return None if not complete or any(qualname.rpartition(".")[2] == named for _, qualname in classes) else False


def _raised_ancestry(
    analysis: Analysis, caller: Caller, exception: str, homes: list[str],
) -> tuple[set[tuple[str, str]], set[type], bool] | None:
    """The class named ``exception`` and its bases, as (module, qualname)
    pairs, the builtin classes among them, and whether every base could be
    read; None when the class is not found (looked up in ``homes``, the
    caller's module, and the modules these import). A builtin is its own."""
    builtin = getattr(builtins, exception, None)
    if isinstance(builtin, type):
        return set(), {builtin}, True
    assert caller.module is not None
    homes = [*homes, caller.module.name]
    for home in list(homes):
        info = analysis.resolver.index.get(home)
        homes.extend(b.target for b in (info.bindings.values() if info else ()) if b.kind == "import" and b.target)
    raised = next((found for home in homes if (found := _class_named(analysis, f"{home}.{exception}"))), None)
    if raised is None:
        return None
    classes: set[tuple[str, str]] = set()
    builtin_bases: set[type] = set()
    complete = True
    pending = [(raised, 0)]
    while pending:
        (cls, resolver), depth = pending.pop()
        if (cls.module, cls.qualname) in classes:
            continue
        classes.add((cls.module, cls.qualname))
        scope = cls.bases_scope or resolver.module_scope(cls.module)
        if depth >= _ANCESTRY_DEPTH or scope is None:
            complete = False
            continue
        for base in cls.bases:
            named = getattr(builtins, base.id, None) if isinstance(base, ast.Name) else None
            if isinstance(named, type):
                builtin_bases.add(named)
                continue
            value, reading = resolver.evaluate(base, scope), resolver
            if value.kind is Kind.EXTERNAL:
                reading = analysis.libraries.resolver
                value = reading.resolve_dotted(value.qualname)
            if value.kind is Kind.CLASS and value.cls is not None:
                pending.append(((value.cls, reading), depth + 1))
            else:
                complete = False
    return classes, builtin_bases, complete


def _class_named(analysis: Analysis, dotted: str) -> tuple[ClassInfo, Resolver] | None:
    """The class ``dotted`` names, in the project or an installed library, with
    the resolver that reads its module."""
    value = analysis.resolver.resolve_dotted(dotted)
    resolver = analysis.resolver
    if value.kind is Kind.EXTERNAL:
        resolver = analysis.libraries.resolver
        value = resolver.resolve_dotted(value.qualname)
    return (value.cls, resolver) if value.kind is Kind.CLASS and value.cls is not None else None


def _tries_around(function: FunctionNode, calls: list[ast.Call]) -> dict[int, tuple[ast.Try, ...]]:
    """For each of ``calls`` (by id), the ``try`` statements of ``function`` whose
    body holds it, outermost first (nested definitions are their own code)."""
    wanted = {id(call) for call in calls}
    found: dict[int, tuple[ast.Try, ...]] = {}
    stack: list[tuple[ast.AST, tuple[ast.Try, ...]]] = [(statement, ()) for statement in function.body]
    while stack and len(found) < len(wanted):
        node, around = stack.pop()
        if id(node) in wanted:
            found[id(node)] = around
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, TRY_STATEMENTS):
            inside = (*around, node)
            stack.extend((statement, inside) for statement in node.body)
            stack.extend((other, around) for other in [*node.handlers, *node.orelse, *node.finalbody])
        else:
            stack.extend((child, around) for child in child_nodes(node))
    return found




def _caught_names(handler: ast.ExceptHandler) -> list[str]:
    if handler.type is None:
        return ["*"]
    items = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return [callee_name(item) or ast.unparse(item) for item in items]


def _catches(handler_name: str, exception: str) -> bool:
    if handler_name in ("*", "Exception", "BaseException"):
        return exception not in ("KeyboardInterrupt", "SystemExit", "GeneratorExit") or handler_name != "Exception"
    if handler_name == exception:
        return True
    if exception == AN_EXCEPTION:
        return False
    caught, raised = getattr(builtins, handler_name, None), getattr(builtins, exception, None)
    return isinstance(caught, type) and isinstance(raised, type) and issubclass(raised, caught)
