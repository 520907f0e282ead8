"""``tautological-mock-assertion``: a test whose only assertions are that
first-party mocks were called asserts that the code calls what the code calls."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from mockpolicy.analysis import MOCK_WORDS, Analysis, Family
from mockpolicy.findings import Finding
from mockpolicy.functions import dotted_parts, own_nodes, walk
from mockpolicy.outcomes import exception_name
from mockpolicy.rules import TAUTOLOGICAL_ASSERTION
from mockpolicy.sites import Context, MockSite, root_key
from mockpolicy.symbols import Kind, Scope, Value
from mockpolicy.telling import Reach, argument_count, calls_unconditionally, reach_of
from mockpolicy.vocabulary import (
    ASSERT_METHODS,
    ASSERTING_CONTEXTS,
    ASSERTION_OPTIONS,
    ASSERTION_PREFIXES,
    CALL_ATTRIBUTES,
    CALL_COUNT_ATTRIBUTES,
    CLASS_SETUP_NAMES,
    MOCK_ROOTS,
    NEGATIVE_ASSERT_METHODS,
    NEUTRAL_MOCK_ATTRIBUTES,
    NEW_CALLABLE,
    NON_CALLABLE_MOCKS,
    RETURN_VALUE,
    SIDE_EFFECT,
    TEST_PREFIX,
    callee_name,
)


def _inspected(analysis: Analysis, context: Context, expr: ast.AST) -> tuple[bool, list[MockSite]]:
    """Whether ``expr`` reads a mock's call record, and the first-party sites of
    those mocks (empty if any of them is not a first-party mock)."""
    reads, sites, all_first_party = False, [], True
    for node in ast.walk(expr):
        if isinstance(node, ast.Attribute) and node.attr in CALL_ATTRIBUTES:
            reads = True
            found = _first_party_mocks(analysis, context, node.value)
            all_first_party = all_first_party and bool(found)
            sites.extend(found)
    return reads, sites if all_first_party else []


def _first_party_mocks(analysis: Analysis, context: Context, expr: ast.expr) -> list[MockSite]:
    """The first-party mock sites ``expr`` is a mock of; what a mock returns
    (``m.return_value...``) stands for whatever the real call returns, not
    for first-party code, so it counts as no first-party mock."""
    if any(isinstance(node, ast.Attribute) and node.attr == RETURN_VALUE for node in ast.walk(expr)):
        return []
    key = root_key(expr)
    sites = analysis.module.mocks_bound(context, key) if key else []
    if sites and all(analysis.first_party_targets(site) for site in sites):
        return sites
    return []


def _assertions(analysis: Analysis, context: Context) -> Iterator[tuple[ast.AST, list[MockSite]]]:
    """Every assertion of a test, each with the first-party mocks whose calls it
    is all about (empty for an assertion on anything else). Context managers
    that expect an exception, patches with a ``NonCallableMock`` (that fail
    when called), and calls of helpers of the test module that assert, are
    assertions on something else."""
    for node in context.asserts:
        yield node, _inspected(analysis, context, node.test)[1]
    for statement in context.statements:
        if isinstance(statement, (ast.With, ast.AsyncWith)):
            for item in statement.items:
                manager = item.context_expr
                if isinstance(manager, ast.Call) and _expects_exception(manager):
                    yield manager, []
    for call in context.calls:  # patch(..., new_callable=NonCallableMock): "this is never called"
        if any(kw.arg == NEW_CALLABLE and callee_name(kw.value) in NON_CALLABLE_MOCKS for kw in call.keywords):
            yield call, []
    helpers = _asserting_helpers(analysis)
    for call in context.calls:
        name = callee_name(call)
        if name in helpers and not name.startswith(ASSERTION_PREFIXES):
            yield call, []
    for call in context.calls:
        func = call.func
        name = callee_name(call)
        if isinstance(func, ast.Attribute) and name in ASSERT_METHODS:
            yield call, _first_party_mocks(analysis, context, func.value)
        elif name.startswith(ASSERTION_PREFIXES) or name in ASSERTING_CONTEXTS:
            sites: list[MockSite] = []
            reads_any = False
            for arg in [*call.args, *(kw.value for kw in call.keywords)]:
                reads, inspected = _inspected(analysis, context, arg)
                if reads and not inspected:
                    sites, reads_any = [], False
                    break
                reads_any = reads_any or reads
                sites.extend(inspected)
            yield call, sites if reads_any else []


def _expects_exception(call: ast.Call) -> bool:
    name = callee_name(call).lower()
    return "raises" in name or "expected" in name or "expect" in name


def _asserting_helpers(analysis: Analysis) -> set[str]:
    """Names of the functions and methods of this module (tests excluded) that make assertions."""
    found = analysis.helpers
    if found is None:
        found = set()
        for context in analysis.module.contexts:
            if not context.is_function or context.name.startswith(TEST_PREFIX):
                continue
            if context.asserts or any(callee_name(c).startswith(ASSERTION_PREFIXES) for c in context.calls):
                found.add(context.name)
        analysis.helpers = found
    return found


def _depends_on_input(node: ast.AST) -> bool:
    """Whether a call assertion checks a decision of the code rather than restating
    a call: that a call was not made (``assert_not_called()``, ``not m.called``,
    ``call_count == 0``), or a call count compared with something the test
    computes or is given (``call_count == len(items)``, ``m.called == expected``)."""
    if isinstance(node, ast.Call) and callee_name(node) in NEGATIVE_ASSERT_METHODS:
        return True
    name = callee_name(node) if isinstance(node, ast.Call) else ""
    if isinstance(node, ast.Call) and name.startswith(ASSERTION_PREFIXES):
        counted = [a for a in node.args if _reads_count(a)]
        others = [a for a in node.args if not _reads_count(a)]
        if counted and ("False" in name or any(_not_restating(o) for o in others)):
            return True
    test = node.test if isinstance(node, ast.Assert) else None
    if test is None:
        return False
    for child in ast.walk(test):
        if isinstance(child, ast.UnaryOp) and isinstance(child.op, ast.Not) and _reads_count(child.operand):
            return True
        if isinstance(child, ast.Compare):
            sides = [child.left, *child.comparators]
            if any(_reads_count(side) for side in sides) and any(
                _not_restating(side) for side in sides if not _reads_count(side)
            ):
                return True
    return False


def _chosen_by_input(context: Context) -> list[tuple[int, int]]:
    """The line ranges of the branches of ``if`` statements of the test that test
    one of its parameters (``if share_proto == "nfs": a.assert_called() else:
    b.assert_called()``): which call is asserted is a decision the input makes."""
    node = context.node
    params = set(context.params) - {context.self_name or ""} - set(context.bound)  # mocks are no input
    if not params or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return []
    found: list[tuple[int, int]] = []
    for statement in walk(node):
        if isinstance(statement, ast.If) and any(
            isinstance(name, ast.Name) and name.id in params for name in ast.walk(statement.test)
        ):
            found.append((statement.lineno, statement.end_lineno or statement.lineno))
    return found


def _inside_lines(node: ast.AST, ranges: list[tuple[int, int]]) -> bool:
    line = getattr(node, "lineno", 0)
    return any(first < line <= last for first, last in ranges)


def _reads_count(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Attribute) and expr.attr in CALL_COUNT_ATTRIBUTES


def _not_restating(expr: ast.expr) -> bool:
    """A side of a count comparison that makes it a decision: zero or False, or
    an expression that reads a name (the test's input or something it computed)."""
    if isinstance(expr, ast.Constant):
        return expr.value is False or (expr.value == 0 and expr.value is not True)
    return any(isinstance(node, ast.Name) for node in ast.walk(expr))


def _expected_arguments(node: ast.AST) -> list[ast.expr]:
    """What a call assertion expects the mock to have been called with: the
    arguments of ``assert_called_with`` and its kin, the other side of a
    comparison with ``call_args``/``call_args_list``/``mock_calls``."""
    if isinstance(node, ast.Call):
        name = callee_name(node)
        if isinstance(node.func, ast.Attribute) and name in ASSERT_METHODS:
            return [*node.args, *(kw.value for kw in node.keywords if kw.arg not in ASSERTION_OPTIONS)]
        if name.startswith(ASSERTION_PREFIXES) and any(_reads_arguments(arg) for arg in node.args):
            return [arg for arg in node.args if not _reads_calls(arg)]
        return []
    if isinstance(node, ast.Assert):
        return [
            side
            for compare in ast.walk(node.test)
            if isinstance(compare, ast.Compare) and any(_reads_arguments(s) for s in (compare.left, *compare.comparators))
            for side in (compare.left, *compare.comparators)
            if not _reads_calls(side)
        ]
    return []


def _reads_calls(expr: ast.expr) -> bool:
    return any(isinstance(node, ast.Attribute) and node.attr in CALL_ATTRIBUTES for node in ast.walk(expr))


def _reads_arguments(expr: ast.expr) -> bool:
    """Whether ``expr`` reads what a mock was called with (not how often)."""
    return any(
        isinstance(node, ast.Attribute) and node.attr in CALL_ATTRIBUTES and node.attr not in CALL_COUNT_ATTRIBUTES
        for node in ast.walk(expr)
    )


@dataclass(frozen=True)
class _Fed:
    """What a test reads outside its call assertions: what it hands to the code
    under test, configures its mocks with, or checks otherwise."""

    names: frozenset[str]
    constants: frozenset[tuple[type, object]]  # (type, value): False is not 0
    dotted: frozenset[str]  # "fields.Level.INFO" and each of its prefixes


def _fed(context: Context, assertions: list[ast.AST]) -> _Fed:
    skipped = {id(node) for node in assertions}
    names: set[str] = set()
    constants: set[tuple[type, object]] = set()
    dotted: set[str] = set()
    stack: list[ast.AST] = list(getattr(context.node, "body", []))
    while stack:
        node = stack.pop()
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.Constant):
            constants.add((type(node.value), node.value))
        elif isinstance(node, ast.Attribute):
            parts = dotted_parts(node)
            if parts is not None:
                dotted.update(".".join(parts[:end]) for end in range(2, len(parts) + 1))
        stack.extend(ast.iter_child_nodes(node))
    return _Fed(frozenset(names), frozenset(constants), frozenset(dotted))


def _names_a_constant_not_fed(expr: ast.expr, local: set[str], fed: _Fed) -> bool:
    """Whether ``expr`` is a dotted name of the module's imports (``fields.Level.INFO``,
    ``objects.NodePayload``) that the test reads nowhere outside its call
    assertions: the code under test chose it, the test did not hand it over."""
    parts = dotted_parts(expr)
    if parts is None or len(parts) < 2 or parts[0] in local or parts[0] in MOCK_ROOTS:
        return False
    if any(part in NEUTRAL_MOCK_ATTRIBUTES for part in parts):
        return False  # mock.ANY, mock.sentinel.x: what the test handed in, or anything
    return ".".join(parts) not in fed.dotted


def _expects_computed_value(context: Context, node: ast.AST, fed: _Fed) -> bool:
    """Whether a call assertion expects an argument the test did not hand to the
    code: a parameter (``expected_url`` from ``parametrize``, a fixture), a value
    the test computes itself (also by a method of a value of its own:
    ``method.upper()``), or a literal, read nowhere but in the assertion.
    The code had to derive that argument (a default URL, a stripped prefix, a
    path built from the configuration), so the assertion checks a result of its
    logic; passing the test's own input along is restating the call."""
    local = (set(context.params) | set(context.assigns) | context.stored) - set(context.bound)
    local.discard(context.self_name or "")
    test_owned = local | set(context.bound) | {context.self_name or "self"}  # roots of objects the test holds
    class_constants = _class_constants(context)
    for expected in _expected_arguments(node):
        for part in ast.walk(expected):
            if isinstance(part, ast.Name) and part.id in local and part.id not in fed.names:
                return True
            if isinstance(part, ast.Attribute) and _names_a_constant_not_fed(part, test_owned, fed):
                return True
            if isinstance(part, ast.Attribute) and isinstance(part.value, ast.Name) \
                    and part.value.id == context.self_name and part.attr in class_constants \
                    and f"{part.value.id}.{part.attr}" not in fed.dotted:
                return True  # a constant of the test's class (``MAX_RATE = esw.RATE``) the code had to pick
            if isinstance(part, ast.Constant) and part.value is not Ellipsis \
                    and (type(part.value), part.value) not in fed.constants:
                return True
            if isinstance(part, ast.Call) and isinstance(part.func, ast.Attribute) \
                    and _root_name(part.func.value) in local:
                return True  # derived by the test from its own value (``method.upper()``)
    return False


def _class_constants(context: Context) -> set[str]:
    """The names the body of the test's class binds to a constant or a dotted
    name (``SLOT = "0000:06:00.1"``, ``MAX_RATE = esw.RATE``)."""
    owner = context.parent
    if owner is None or not isinstance(owner.node, ast.ClassDef):
        return set()
    found: set[str] = set()
    for statement in owner.node.body:
        if isinstance(statement, ast.Assign) and (
            isinstance(statement.value, ast.Constant) or dotted_parts(statement.value) is not None
        ):
            found.update(target.id for target in statement.targets if isinstance(target, ast.Name))
    return found


def _root_name(expr: ast.expr) -> str | None:
    while isinstance(expr, (ast.Attribute, ast.Subscript)):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def _counts_follow_the_sequence(assertions: list[ast.AST]) -> bool:
    """Whether the test asserts one mock's call count at different values
    (``== 1`` after the first run, ``== 2`` after the second): how often the
    code calls depends on what the test did before, a decision of the code."""
    seen: dict[str, set[object]] = {}
    for node in assertions:
        for compare in ast.walk(node):
            if not isinstance(compare, (ast.Compare, ast.Call)):
                continue
            sides = (
                [compare.left, *compare.comparators] if isinstance(compare, ast.Compare) else list(compare.args)
            )
            counts = [side for side in sides if _reads_count(side)]
            values = [side.value for side in sides if isinstance(side, ast.Constant)]
            for count in counts:
                seen.setdefault(ast.unparse(count), set()).update(values)
    return any(len(values) > 1 for values in seen.values())


def _feeds_changing_answers(context: Context) -> bool:
    """Whether the test gives a mock a sequence of different answers
    (``side_effect=[True, False]``, in its call, its decorator or assigned
    later): the code under test meets a different case on each call."""
    for node in walk(context.node):
        values: list[ast.expr] = []
        if isinstance(node, ast.keyword) and node.arg == SIDE_EFFECT:
            values = [node.value]
        elif isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Attribute) and target.attr == SIDE_EFFECT for target in node.targets
        ):
            values = [node.value]
        for value in values:
            if isinstance(value, (ast.List, ast.Tuple)) and len({ast.unparse(e) for e in value.elts}) > 1:
                return True
    return False


def _asserts_a_count(node: ast.AST) -> bool:
    """Whether a call assertion checks how often (``call_count``, ``called``,
    ``assert_called_once...``), not only with what."""
    if isinstance(node, ast.Call) and "_once" in callee_name(node):
        return True
    return any(isinstance(child, ast.Attribute) and _reads_count(child) for child in ast.walk(node))


@dataclass(frozen=True)
class _Verdict:
    first: ast.AST  # the test's first assertion
    mocks: list[MockSite]  # the first-party mocks it asserts calls of
    calls_them_itself: bool  # the test calls every one of the mocked functions itself


def _tautological(analysis: Analysis, context: Context) -> _Verdict | None:
    """The verdict on a test whose every assertion only checks calls of
    first-party mocks, none of them a decision that depends on the test's
    input, each call seen made on every path; else None."""
    first: ast.AST | None = None
    mocks: list[MockSite] = []
    chosen = _chosen_by_input(context)
    assertions = list(_assertions(analysis, context))
    nodes = [node for node, _ in assertions]
    if any(not sites for _, sites in assertions) or _counts_follow_the_sequence(nodes):
        return None
    if _feeds_changing_answers(context) and any(_asserts_a_count(node) for node in nodes):
        return None
    if _makes_a_mock_raise(context):
        return None
    fed = _fed(context, nodes)
    for node, sites in assertions:
        if _depends_on_input(node) or _inside_lines(node, chosen) or _expects_computed_value(context, node, fed):
            return None
        mocks.extend(sites)
        if first is None or _position(node) < _position(first):
            first = node
    if first is None:
        return None
    seen = _seen_unconditional(analysis, context, mocks, nodes)
    return None if seen is None else _Verdict(first, mocks, seen)


def _seen_unconditional(
    analysis: Analysis, context: Context, mocks: list[MockSite], assertions: list[ast.AST],
) -> bool | None:
    """Whether, for every asserted mock of a project function, the engine sees
    the test make the call on every path: the test calls the mocked function
    itself (then True), or ``calls_unconditionally`` holds (then False).
    Without that evidence (None) a guard, a loop or a decorator the engine
    cannot see may decide the call, and the assertion may check that decision."""
    reach: Reach | None = None
    itself = True
    scope = analysis.module.scope(context)
    arguments_matter = any(_checks_arguments(node) for node in assertions)
    counts = {_asserted_count(node) for node in assertions} - {_NOT_WITH}
    asserted_count = next(iter(counts)) if len(counts) == 1 and len({id(site) for site in mocks}) == 1 else None
    mocked: frozenset[str] | None = None
    # a lambda's calls run when something calls it (a side effect calling the saved original), not in the test
    in_lambdas = {id(node) for lam in walk(context.node) if isinstance(lam, ast.Lambda) for node in walk(lam.body)}
    for site in mocks:
        for target in analysis.first_party_targets(site):
            function = target.value
            if function.kind is not Kind.FUNCTION or function.function is None:
                return None
            short = function.qualname.rpartition(".")[2]
            own_calls = [
                call for call in context.calls
                if callee_name(call) == short and id(call) not in in_lambdas
                and _same_function(analysis.resolver.evaluate(call.func, scope), function)
            ]
            if own_calls and _may_run_an_override(analysis, function, own_calls, scope):
                return None
            if own_calls:
                continue
            itself = False
            reach = reach_of(analysis, context, {}) if reach is None else reach
            mocked = _mocked_by(analysis, context) if mocked is None else mocked
            if not calls_unconditionally(analysis, function, reach, arguments_matter, asserted_count, mocked):
                return None
    return itself


def _may_run_an_override(analysis: Analysis, function: Value, calls: list[ast.Call], scope: Scope) -> bool:
    """Whether a call of the method ``function`` on an instance may run a
    subclass's override instead: a known subclass of the instance's class
    defines it, and the object is not built in the call itself
    (``self.config``, typed ``ApacheConfigurator`` by a helper's annotation,
    may be a ``DebianConfigurator`` whose ``enable_site`` decides whether to
    call the parent's)."""
    name = function.qualname.rpartition(".")[2]
    for call in calls:
        if not isinstance(call.func, ast.Attribute) or isinstance(call.func.value, ast.Call):
            continue
        receiver = analysis.resolver.evaluate(call.func.value, scope)
        if receiver.kind is Kind.INSTANCE and receiver.cls is not None \
                and analysis.known_subclasses().override(receiver.cls, name, function):
            return True
    return False


def _makes_a_mock_raise(context: Context) -> bool:
    """Whether the test (its body or its patch decorators) makes a mock raise:
    ``m.side_effect = Error(...)``, ``side_effect=Error`` in a patch, or an
    exception among a ``side_effect`` list. It then checks that the code copes
    with the failure (cyborg's ``init_host`` logging a failed migration), which
    fails when the handler breaks."""
    node = context.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    for sub in [*walk(node), *(n for d in node.decorator_list for n in walk(d))]:
        if isinstance(sub, ast.Assign) and any(
            isinstance(t, ast.Attribute) and t.attr == "side_effect" for t in sub.targets
        ):
            effect: ast.expr | None = sub.value
        elif isinstance(sub, ast.keyword) and sub.arg == "side_effect":
            effect = sub.value
        else:
            continue
        effects = effect.elts if isinstance(effect, (ast.List, ast.Tuple)) else [effect]
        if any(item is not None and exception_name(item, raised=False) for item in effects):
            return True
        if isinstance(effect, ast.Name) and _raises_or_yields(context.functions.get(effect.id)):
            return True
    return False


def _raises_or_yields(function: ast.AST | None) -> bool:
    """Whether a function of the test put in as a side effect raises, or is a
    generator (whose end raises ``StopIteration`` into the code iterating it:
    Django's ``test_run_loop_catches_stopiteration``)."""
    return isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
        isinstance(node, (ast.Raise, ast.Yield, ast.YieldFrom)) for node in own_nodes(function)
    )


def _checks_arguments(node: ast.AST) -> bool:
    """Whether a call assertion checks an argument (anything but ``mock.ANY``)."""
    return any(
        not (isinstance(expected, (ast.Attribute, ast.Name)) and callee_name(expected) in NEUTRAL_MOCK_ATTRIBUTES)
        for expected in _expected_arguments(node)
    )


def _mocked_by(analysis: Analysis, context: Context) -> frozenset[str]:
    """The first-party functions replaced for the test ``context``: by its own
    mocks (decorators included), its class's decorators and its set-up."""
    parent = context.parent
    return frozenset(
        target.value.qualname
        for site in analysis.module.sites
        if site.owner is context or (parent is not None and (
            site.owner is parent or (site.owner.parent is parent and site.owner.name in CLASS_SETUP_NAMES)))
        for target in analysis.first_party_targets(site)
    )


_CALL_ASSERTIONS = frozenset({
    "assert_called_once_with", "assert_called_with", "assert_any_call",
    "assert_awaited_once_with", "assert_awaited_with", "assert_any_await",
})
_NOT_WITH = -1  # an assertion that names no call of its own


def _asserted_count(node: ast.AST) -> int | None:
    """How many arguments a ``mock.assert_called_with(...)``-style assertion
    expects (None when it unpacks some); ``_NOT_WITH`` for other assertions."""
    call = node.value if isinstance(node, ast.Expr) else node
    if not isinstance(call, ast.Call) or callee_name(call) not in _CALL_ASSERTIONS:
        return _NOT_WITH
    return argument_count(call)


def _same_function(value: Value, function: Value) -> bool:
    return value.kind is Kind.FUNCTION and (value.module, value.qualname) == (function.module, function.qualname)


def _position(node: ast.AST) -> tuple[int, int]:
    return getattr(node, "lineno", 0), getattr(node, "col_offset", 0)


def check(analysis: Analysis) -> Iterator[Finding]:
    module = analysis.module
    for context in module.contexts:
        if not context.is_function or not context.name.startswith(TEST_PREFIX):
            continue
        if not module.has_bound_mocks(context):
            continue
        verdict = _tautological(analysis, context)
        if verdict is None:
            continue
        names = sorted({analysis.first_party_targets(site)[0].text for site in verdict.mocks})
        shown = ", ".join(f"'{name}'" for name in names[:3]) + (" ..." if len(names) > 3 else "")
        if verdict.calls_them_itself:
            message = (
                f"'{context.name}' calls the first-party code it mocked ({shown}) itself and only asserts "
                "those calls: no real code runs. Call the real code and assert on its result instead."
            )
        else:
            message = (
                f"'{context.name}' only asserts calls on mocks of first-party code ({shown}): it "
                "passes whatever the real code does. Assert on an observable result of the real "
                "code instead."
            )
        yield analysis.finding(verdict.first, TAUTOLOGICAL_ASSERTION.symbol, message, context.qualname)


FAMILY = Family("tautology", (TAUTOLOGICAL_ASSERTION,), check, MOCK_WORDS)
