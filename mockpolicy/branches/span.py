"""Where a mock's patch is active in its tests' ``run`` phase, and whether
code of that phase may run the code under test while it is not.

Coverage's per-test contexts hold a set of arcs per test and phase, with no
order: a condition evaluated before the patch started (in ``setUp``, before
``patcher.start()``, before the ``with patch(...)`` block) or after it ended
lands in the same set as one evaluated under the patch. So a test whose run
phase may run project code outside the patch cannot show that the mock made
a condition run: the condition's line and arms in its data may come from
the real function. ``verify`` therefore infers no missing arm from such a
test (an arm it takes still counts as taken).

What runs where, by how the mock is made (pytest's ``setup`` and ``teardown``
phases are never counted, so fixtures and ``setup_method`` are outside the
run phase):

- a decorator on a test or on its class: the test body is patched; a
  unittest class's ``setUp`` and ``tearDown`` (own or inherited) run in the
  run phase without it;
- ``setUp``: the statements of ``setUp`` before the patch starts;
- the test body (``with patch(...)``, ``patcher.start()``, ``mocker.patch``,
  ``monkeypatch.setattr``): the statements before the patch starts (the
  patch's own arguments included), those after its ``with`` block or its
  ``stop()``, and the class's ``setUp``/``tearDown``;
- a fixture, ``setup_method``, ``setUpClass``: nothing (their code runs in
  another phase, and the patch covers the whole run phase).

Project code may run at a call that resolves to a project function or class,
or to nothing known; calls of a library, of a builtin, of a mock, of a
patcher's ``start``/``stop`` or of a pytest built-in fixture do not count.
Statically, never importing the analysed code.
"""

from __future__ import annotations

import ast

from mockpolicy.analysis import Analysis
from mockpolicy.sites import Context, MockSite, root_key
from mockpolicy.symbols import Kind, Value
from mockpolicy.vocabulary import CLASS_SETUP_NAMES, TEST_PREFIX, fixture_decorator

_RUN_PHASE_SETUP = ("setUp", "asyncSetUp")  # unittest calls these inside pytest's run phase
_RUN_PHASE_TEARDOWN = ("tearDown", "asyncTearDown")
_PATCHER_CONTROL = frozenset({"start", "stop", "stopall"})
# pytest's built-in fixtures: calling their methods runs pytest's code, not the project's.
_PYTEST_FIXTURES = frozenset({
    "tmp_path", "tmpdir", "tmp_path_factory", "tmpdir_factory", "monkeypatch", "capsys", "capsysbinary", "capfd",
    "capfdbinary", "caplog", "recwarn", "request", "pytestconfig", "record_property", "mocker",
})

Position = tuple[int, int]


def outside_the_patch(analysis: Analysis, site: MockSite) -> str | None:
    """Where the run phase of the tests ``site``'s mock applies to may run
    project code while the patch is not active (``"setUp"``, ``"the test
    outside the patch"``), or None when it cannot. Call inside an
    ``Engine.inspect`` job."""
    owner = site.owner
    if site.decorates is not None:
        return _class_phases(analysis, owner if isinstance(site.decorates, ast.ClassDef) else _class_of(owner))
    node = owner.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None  # started at import: active for the whole run
    if owner.name in _RUN_PHASE_SETUP:
        return "setUp before the patch starts" if _outside_calls(analysis, owner, site, after=False) else None
    if owner.name in CLASS_SETUP_NAMES or fixture_decorator(node.decorator_list) is not None:
        return None
    if not owner.name.startswith(TEST_PREFIX):
        return "a helper whose callers are not followed"
    if _outside_calls(analysis, owner, site, after=True):
        return "the test outside the patch"
    return _class_phases(analysis, _class_of(owner))


def _class_of(context: Context) -> Context | None:
    parent = context.parent
    return parent if parent is not None and isinstance(parent.node, ast.ClassDef) else None


def _class_phases(analysis: Analysis, cls: Context | None) -> str | None:
    """The class's ``setUp``/``tearDown`` when they may run project code."""
    if cls is None or cls.class_info is None:
        return None
    own = {child.name: child for child in cls.children if child.is_function}
    info = cls.class_info
    this = Value(Kind.CLASS, module=info.module, qualname=info.qualname, cls=info)
    for name in (*_RUN_PHASE_SETUP, *_RUN_PHASE_TEARDOWN):
        method = own.get(name)
        if method is not None:
            if _may_run_project_code(analysis, method, method.calls):
                return name
            continue
        try:
            inherited = analysis.resolver.attribute(this, name)
        except RecursionError:
            return name
        if inherited.kind not in (Kind.EXTERNAL, Kind.MISSING):
            return f"{name} (inherited)"
    return None


def _outside_calls(analysis: Analysis, context: Context, site: MockSite, after: bool) -> bool:
    """Whether ``context`` (the function making the mock) may run project code
    before the patch starts or, with ``after``, after it ends."""
    written = site.written
    start: ast.Call = written
    stop: Position | None = None
    keys = site.patcher_keys
    controls = [call for call in context.calls if _controls(call, keys)] if keys else []
    begun = [call for call in controls if isinstance(call.func, ast.Attribute) and call.func.attr == "start"
             and _position(call) >= _position(written)]
    if begun:
        start = begun[0]
        ends = [call for call in controls if _position(call) > _end(start) and
                isinstance(call.func, ast.Attribute) and call.func.attr != "start"]
        stop = _position(ends[0]) if ends else None
    if stop is None:
        block = _with_holding(context.node, written)
        stop = _end(block) if block is not None else None
    outside = [
        call for call in context.calls
        if call is not start and (_end(call) <= _end(start) or (after and stop is not None and _position(call) >= stop))
    ]
    return _may_run_project_code(analysis, context, outside)


def _controls(call: ast.Call, keys: set[str]) -> bool:
    func = call.func
    return isinstance(func, ast.Attribute) and func.attr in _PATCHER_CONTROL and root_key(func.value) in keys


def _with_holding(function: ast.AST, call: ast.Call) -> ast.With | ast.AsyncWith | None:
    for node in ast.walk(function):
        if isinstance(node, (ast.With, ast.AsyncWith)):
            if any(inner is call for item in node.items for inner in ast.walk(item.context_expr)):
                return node
    return None


def _may_run_project_code(analysis: Analysis, context: Context, calls: list[ast.Call]) -> bool:
    module = analysis.module
    scope = None
    for call in calls:
        if module.site_of(call) is not None:
            continue
        func = call.func
        key = root_key(func)
        if key is not None:
            if module.mocks_bound(context, key):
                continue
            if key in _PYTEST_FIXTURES and key in context.params:
                continue
            if isinstance(func, ast.Attribute) and func.attr in _PATCHER_CONTROL:
                continue
        if _calls_super(func):
            if _super_may_run(analysis, context, func):
                return True
            continue
        scope = module.scope(context) if scope is None else scope
        try:
            value = analysis.resolver.evaluate(func, scope)
        except RecursionError:
            return True
        if value.kind not in (Kind.EXTERNAL, Kind.MISSING, Kind.CONSTANT):
            return True
    return False


def _calls_super(func: ast.expr) -> bool:
    return (
        isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call)
        and isinstance(func.value.func, ast.Name) and func.value.func.id == "super"
    )


def _super_may_run(analysis: Analysis, context: Context, func: ast.expr) -> bool:
    """Whether ``super().name(...)`` in a method of ``context``'s class may run project code."""
    assert isinstance(func, ast.Attribute)
    cls = _class_of(context)
    if cls is None or cls.class_info is None:
        return True
    scope = analysis.module.scope(cls.parent) if cls.parent is not None else analysis.module.scope(analysis.module.module)
    for base in cls.class_info.bases:
        try:
            value = analysis.resolver.evaluate(base, scope)
            if value.kind is Kind.EXTERNAL:
                continue
            if value.kind is not Kind.CLASS:
                return True
            if analysis.resolver.attribute(value, func.attr).kind not in (Kind.EXTERNAL, Kind.MISSING):
                return True
        except RecursionError:
            return True
    return False


def _position(node: ast.expr | ast.stmt) -> Position:
    return (node.lineno, node.col_offset)


def _end(node: ast.expr | ast.stmt) -> Position:
    return (node.end_lineno or node.lineno, node.end_col_offset or 0)
