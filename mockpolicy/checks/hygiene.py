"""``leaked-patcher`` and the ``unrestored-*`` rules: what a test changes
outside itself must be put back even when the test fails.

Put back means: in a ``finally`` block, after the ``yield`` of a fixture, in a
tear-down method of the test's class or module, or in a callable registered
with ``addCleanup``/``addfinalizer``/``ExitStack.callback``. Changes made inside
``with patch.dict(...)`` (or under its decorator) are put back by it.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from mockpolicy.analysis import Analysis, Family, set_ups_of
from mockpolicy.bodies import reading_once
from mockpolicy.findings import Finding
from mockpolicy.fixtures import fixture_name, is_autouse
from mockpolicy.functions import FunctionNode, dotted_parts, own_nodes, walk
from mockpolicy.index import is_file
from mockpolicy.project import resolved
from mockpolicy.resolve import Resolver
from mockpolicy.rules import LEAKED_PATCHER, UNRESTORED_ATTRIBUTE, UNRESTORED_ENVIRON, UNRESTORED_SYS_MODULES
from mockpolicy.sites import Context, MockSite, Target, root_key
from mockpolicy.symbols import ClassInfo, Kind, ModuleInfo, Scope, Value
from mockpolicy.vocabulary import (
    CLASS_TEARDOWN_NAMES,
    CLEANUP_REGISTRARS,
    EXPECTING_CONTEXTS,
    MOCKER_FIXTURES,
    MODULE_RELOADERS,
    PATCHER_START,
    PATCHER_STOP,
    PATCHER_STOP_ALL,
    PYTEST_HOOK_PREFIX,
    PYTESTMARK,
    SETUP_NAMES,
    SYS_MODULES_RESTORING_FIXTURES,
    TEARDOWN_NAMES,
    TEST_PREFIX,
    UNITTEST_TEST_CASES,
    USEFIXTURES_MARKER,
    callee_name,
    is_fixture,
)

# What the message of a change put back only on the passing path says: a run that
# passed shows nothing about the failing one (``mockpolicy.runtime.merge`` keeps such findings).
ONLY_IF_IT_PASSES = "only if the test passes"
EXIT_METHODS = frozenset({"__exit__", "__aexit__"})  # what leaving a with block runs: restoring code
ENTER_METHODS = frozenset({"__enter__", "__aenter__"})
CONTAINER_METHODS = frozenset({"pop", "update", "setdefault", "clear", "popitem", "__setitem__", "__delitem__"})


@dataclass(eq=False)
class Cleanup:
    """Where one function (with its class and module) puts things back."""

    nodes: list[ast.AST] = field(default_factory=list)  # statements that run on the way out
    registered: list[ast.expr] = field(default_factory=list)  # callables registered to run later
    guarded: list[tuple[int, int, ast.expr]] = field(default_factory=list)  # (first, last line, patched dict)


def _is_test_module(analysis: Analysis) -> bool:
    """Named as pytest collects it, or under the project's test folders and no
    runner script (``_is_runner_script``)."""
    path = Path(analysis.path)
    if path.name.startswith("test_") or path.name.endswith("_test.py") or path.name == "conftest.py":
        return True
    project = analysis.resolver.project
    absolute = resolved(path)
    under_tests = any(root in absolute.parents for root in project.test_paths if root != project.root)
    return under_tests and not _is_runner_script(analysis.module.module.node)


def _is_runner_script(tree: ast.AST) -> bool:
    """A module run as a script (``if __name__ == "__main__":``) that defines no
    test: a runner such as Django's ``tests/runtests.py``, whose set-up and
    tear-down run once around the whole suite, not inside a test."""
    body = getattr(tree, "body", [])
    runs_as_script = any(
        isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Compare) and isinstance(stmt.test.left, ast.Name)
        and stmt.test.left.id == "__name__" for stmt in body
    )
    if not runs_as_script:
        return False
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name.startswith(TEST_PREFIX):
            return False
        if isinstance(stmt, ast.ClassDef) and any(
            isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)) and member.name.startswith(TEST_PREFIX)
            for member in stmt.body
        ):
            return False
    return True


def _function_cleanup(node: ast.AST) -> Cleanup:
    """What ``node`` runs on the way out: ``finally`` blocks, a fixture's code
    after its ``yield``, the functions it defines and registers as cleanups
    (``def cleanup(): ...`` then ``self.addCleanup(cleanup)`` in a set-up),
    and what it registers."""
    cleanup = Cleanup()
    yield_line: int | None = None
    nested: dict[str, ast.AST] = {}
    for child in ast.walk(node):
        if isinstance(child, ast.Try) or type(child).__name__ == "TryStar":
            cleanup.nodes.extend(getattr(child, "finalbody", []))
        elif isinstance(child, (ast.Yield, ast.YieldFrom)):
            yield_line = child.lineno if yield_line is None else min(yield_line, child.lineno)
        elif isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute) and child.func.attr in CLEANUP_REGISTRARS:
            cleanup.registered.extend(child.args)
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and child is not node:
            nested.setdefault(child.name, child)
    cleanup.nodes.extend(
        nested[registered.id] for registered in cleanup.registered
        if isinstance(registered, ast.Name) and registered.id in nested
    )
    if yield_line is not None and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        cleanup.nodes.extend(stmt for stmt in ast.walk(node) if isinstance(stmt, ast.stmt) and stmt.lineno > yield_line)
    return cleanup


class _Cleanups:
    """Cleanup regions per context, computed once per file."""

    def __init__(self, hooks: Callable[[ClassInfo], FixtureHooks] | None = None) -> None:
        """``hooks``: what the autouse fixtures of a class's lineage call (``_fixture_hooks``)."""
        self._hooks = hooks
        self._visible: dict[int, Cleanup] = {}
        self._shared: dict[int, Cleanup] = {}
        self._registered: dict[int, set[str]] = {}
        self._of_helpers: dict[int, list[ast.expr]] = {}  # id(method) -> what it registers
        self._of_tear_downs: dict[int, set[str]] = {}  # id(module context) -> methods tear-downs call
        self._methods: dict[int, dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]]] = {}  # id(module context) -> ...
        self._fixtures: dict[int, dict[str, ast.FunctionDef | ast.AsyncFunctionDef]] = {}  # id(class or module) -> not autouse

    def hooks(self, cls: ClassInfo) -> FixtureHooks:
        """``FixtureHooks`` of ``cls`` (none when the file gave no way to read them)."""
        return self._hooks(cls) if self._hooks is not None else FixtureHooks()

    def visible(self, context: Context) -> Cleanup:
        """The cleanups that cover code in ``context``: its own, and those its
        class and module share (tear-down methods, fixtures, set-up cleanups)."""
        found = self._visible.get(id(context))
        if found is None:
            found = Cleanup()
            if isinstance(context.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                own = _function_cleanup(context.node)
                found.nodes += own.nodes
                found.registered += own.registered
                found.registered += self._registered_by_called_methods(context)
            current: Context | None = context
            while current is not None:
                if current is not context or not context.is_function:
                    shared = self._shared_by(current)
                    found.nodes += shared.nodes
                    found.registered += shared.registered
                for decorator in getattr(current.node, "decorator_list", []):
                    found.guarded.append((0, 10**9, decorator))
                current = current.parent
            self._add_requested_fixtures(context, found)
            found.nodes += self._registered_methods(context, found.registered)
            for statement in context.statements:
                if isinstance(statement, (ast.With, ast.AsyncWith)):
                    for item in statement.items:
                        found.guarded.append(
                            (statement.lineno, statement.end_lineno or statement.lineno, item.context_expr)
                        )
            self._visible[id(context)] = found
        return found

    def _add_requested_fixtures(self, context: Context, found: Cleanup) -> None:
        """Add to ``found`` the ways out of the fixtures of the file (not autouse:
        those are shared) that ``context`` requests, by a parameter or a
        ``usefixtures`` mark, and of the fixtures they request, ``_FIXTURE_DEPTH``
        deep: a fixture no test asks for restores nothing for them."""
        chain: list[Context] = []
        current: Context | None = context.parent if context.is_function else context
        while current is not None:
            chain.append(current)
            current = current.parent

        def find(name: str) -> tuple[FunctionNode, None] | None:
            fixture = next((self._fixtures[id(owner)][name] for owner in chain
                            if name in self._fixtures.get(id(owner), {})), None)
            return None if fixture is None else (fixture, None)

        for fixture, _ in _requested_closure(context, find):
            own = _function_cleanup(fixture)
            found.nodes += own.nodes
            found.registered += own.registered

    def registered_as_cleanup(self, context: Context) -> bool:
        """Whether ``context`` is a method its class registers as a cleanup
        (``self.addCleanup(self._restore_modules, saved)``), or a function of the
        module some test registers (``self.addCleanup(_reset_uwsgi)``) or that
        runs only on the way out of tests (``_cleanup_helpers``): restoring code."""
        owner = context.parent
        if owner is None:
            return False
        names = self._registered.get(id(owner))
        if names is None:
            if isinstance(owner.node, ast.ClassDef):
                names = {
                    _own_method(call.args[0]) for method in owner.children for call in method.calls
                    if isinstance(call.func, ast.Attribute) and call.func.attr in CLEANUP_REGISTRARS and call.args
                } | self._called_by_tear_downs(owner)
            elif isinstance(owner.node, ast.Module):
                names = {
                    call.args[0].id for call in ast.walk(owner.node) if isinstance(call, ast.Call) and call.args
                    and isinstance(call.func, ast.Attribute) and call.func.attr in CLEANUP_REGISTRARS
                    and isinstance(call.args[0], ast.Name)
                } | _cleanup_helpers(owner.node)
            else:  # a function registering a function of its own (Twisted's ``replaceHome``)
                names = {
                    call.args[0].id for call in owner.calls if call.args and isinstance(call.args[0], ast.Name)
                    and isinstance(call.func, ast.Attribute) and call.func.attr in CLEANUP_REGISTRARS
                }
            self._registered[id(owner)] = names
        return context.name in names

    def _called_by_tear_downs(self, context: Context) -> set[str]:
        """The names of the methods a tear-down method of any class of the file
        calls on its own instance (``self._replace_env_vars()`` in a subclass's
        ``tearDown``): restoring code, read once per file."""
        root = _file_of(context)
        found = self._of_tear_downs.get(id(root))
        if found is None:
            found = self._of_tear_downs[id(root)] = {
                _own_method(call.func) for tear_down in _contexts_under(root)
                if tear_down.is_function and tear_down.name in CLASS_TEARDOWN_NAMES for call in tear_down.calls
            } - {""}
        return found

    def _methods_of_the_file(self, context: Context) -> dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]]:
        """The methods of every class of ``context``'s file, by name; once per file."""
        root = _file_of(context)
        found = self._methods.get(id(root))
        if found is None:
            found = self._methods[id(root)] = {}
            for owner in _contexts_under(root):
                if isinstance(owner.node, ast.ClassDef):
                    for method in owner.node.body:
                        if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
                            found.setdefault(method.name, []).append(method)
        return found

    def restored_around_every_call(
        self, analysis: Analysis, context: Context, shared: _Shared, node: ast.AST,
    ) -> bool:
        """Whether ``context`` is a helper method of a class that the file calls
        only on an instance of its own (``self._remove_env_vars()``), and every
        caller has ``shared`` put back on its way out: by what its class runs
        after each test (its tear-down: python-swiftclient's set-ups and tear-downs
        pairing ``_remove_swift_env_vars`` with ``_replace_swift_env_vars``),
        or by a fixture it requests (pypa/distutils' tests of
        ``_try_compile_deployment_target``, marked ``usefixtures('save_env')``)."""
        owner = context.parent
        if not context.is_function or owner is None or not isinstance(owner.node, ast.ClassDef) \
                or context.name in SETUP_NAMES or context.name.startswith(TEST_PREFIX):
            return False
        callers = [
            caller for caller in analysis.module.contexts
            if caller.is_function and caller is not context and any(_own_method(call.func) == context.name for call in caller.calls)
        ]
        return bool(callers) and all(
            caller.parent is not None and _restores_shared(
                analysis, shared, self._shared_by(caller.parent), analysis.module.scope(caller), node,
            ) or _restored_by_a_requested_fixture(analysis, caller, shared.qualname)
            for caller in callers
        )

    def _registered_by_called_methods(self, context: Context) -> list[ast.expr]:
        """The callables that methods of the class of the function ``context``
        register as cleanups when it calls them as ``self.name(...)`` (Twisted's
        ``self._stdoutCleanup()`` registering ``setattr, sys, "stdout", sys.stdout``);
        each method read once per file."""
        owner = context.parent
        if owner is None or not isinstance(owner.node, ast.ClassDef):
            return []
        methods = {child.name: child.node for child in owner.children if child.is_function and child is not context}
        registered: list[ast.expr] = []
        for name in dict.fromkeys(_own_method(call.func) for call in context.calls):
            method = methods.get(name)
            if method is not None:
                known = self._of_helpers.get(id(method))
                if known is None:
                    known = self._of_helpers[id(method)] = _function_cleanup(method).registered
                registered += known
        return registered

    @staticmethod
    def _registered_methods(context: Context, registered: list[ast.expr]) -> list[ast.AST]:
        """The bodies of the methods of ``context``'s class that ``registered``
        names as ``self.<method>``, and of the module's functions it names
        bare (``_reset_uwsgi``): what those cleanups run."""
        found: list[ast.AST] = []
        current: Context | None = context
        while current is not None:
            defined = {
                s.name: s for s in getattr(current.node, "body", []) if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
            }
            if isinstance(current.node, ast.ClassDef):
                found += [defined[name] for name in map(_own_method, registered) if name in defined]
            else:  # the module's functions, or the function's own (``self.addCleanup(cleanupHome)``)
                found += [defined[e.id] for e in registered if isinstance(e, ast.Name) and e.id in defined]
            current = current.parent
        return found

    def _shared_by(self, context: Context) -> Cleanup:
        """What a class or module runs on the way out of each of its tests."""
        found = self._shared.get(id(context))
        if found is None:
            found = Cleanup()
            methods = {
                s.name: s for s in getattr(context.node, "body", []) if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
            }
            info = context.class_info if isinstance(context.node, ast.ClassDef) else None
            hooked = self.hooks(info).tear_down if info is not None else frozenset()
            for statement in methods.values():
                if statement.name in TEARDOWN_NAMES or statement.name in hooked:
                    found.nodes.append(statement)
                    for call in ast.walk(statement):  # helpers the tear-down calls: self._reset_x()
                        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                                and call.func.attr not in TEARDOWN_NAMES:
                            if call.func.attr in methods:
                                found.nodes.append(methods[call.func.attr])
                            elif _own_method(call.func):  # inherited: a method of that name in another class of the file
                                found.nodes += self._methods_of_the_file(context).get(call.func.attr, [])
                elif is_fixture(statement.decorator_list) and not is_autouse(statement):
                    self._fixtures.setdefault(id(context), {})[statement.name] = statement  # for the tests requesting it
                elif is_fixture(statement.decorator_list) or statement.name in SETUP_NAMES:
                    shared = _function_cleanup(statement)
                    found.nodes += shared.nodes
                    found.registered += shared.registered
            self._shared[id(context)] = found
        return found


def _file_of(context: Context) -> Context:
    """The module context ``context`` is in."""
    while context.parent is not None:
        context = context.parent
    return context


def _contexts_under(root: Context) -> Iterator[Context]:
    """``root`` and every function and class defined in it, at any depth."""
    pending = [root]
    while pending:
        context = pending.pop()
        yield context
        pending.extend(context.children)


def _own_method(expr: ast.expr) -> str:
    """``"x"`` for ``self.x`` or ``cls.x`` (a method of the class itself), else ``""``."""
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id in ("self", "cls"):
        return expr.attr
    return ""


def _inside(node: ast.AST, regions: list[ast.AST]) -> bool:
    line = getattr(node, "lineno", 0)
    return any(getattr(r, "lineno", 0) <= line <= (getattr(r, "end_lineno", 0) or 0) for r in regions)


@dataclass(frozen=True)
class FixtureHooks:
    """The methods the autouse fixtures of a class (or of its project bases)
    call on the instance before their ``yield`` (set-up hooks: beets'
    ``setup_beets``) and after it or in a ``finally`` (tear-down hooks)."""

    set_up: frozenset[str] = frozenset()
    tear_down: frozenset[str] = frozenset()


def _fixture_hooks(analysis: Analysis, cls: ClassInfo) -> FixtureHooks:
    """``FixtureHooks`` of ``cls``, read from the autouse generator fixtures
    among the methods of ``cls`` and its project bases."""
    set_up: set[str] = set()
    tear_down: set[str] = set()
    for known in analysis.resolver.project_lineage(cls):
        for binding in known.members.values():
            function = binding.function if binding.kind == "def" else None
            if function is None or not is_fixture(function.decorator_list) or not is_autouse(function):
                continue
            nodes = walk(function)
            yields = [node.lineno for node in nodes if isinstance(node, (ast.Yield, ast.YieldFrom))]
            arguments = function.args.posonlyargs + function.args.args
            if not yields or not arguments:
                continue
            instance = arguments[0].arg
            finally_lines = {
                line for node in nodes if isinstance(node, ast.Try)
                for statement in node.finalbody for line in range(statement.lineno, (statement.end_lineno or 0) + 1)
            }
            for call in nodes:
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                        and isinstance(call.func.value, ast.Name) and call.func.value.id == instance:
                    after = call.lineno > min(yields) or call.lineno in finally_lines
                    (tear_down if after else set_up).add(call.func.attr)
    return FixtureHooks(frozenset(set_up), frozenset(tear_down))


def _restored_by_hooked_patcher(
    analysis: Analysis, context: Context, shared: _Shared, hooks: Callable[[ClassInfo], FixtureHooks],
) -> bool:
    """Whether a set-up hook of the test's class (or of a base) starts a
    ``patch.dict`` of ``shared`` kept on the instance, and a tear-down hook
    stops it: each test's changes are undone when its patcher stops (beets'
    ``setup_beets``/``teardown_beets``, run by its ``TestHelper``'s autouse fixture)."""
    cls = context.class_info
    if cls is None:
        return False
    hooked = hooks(cls)
    if not hooked.set_up or not hooked.tear_down:
        return False
    resolver = analysis.resolver
    lineage = resolver.project_lineage(cls)

    def methods(names: frozenset[str]) -> Iterator[tuple[FunctionNode, Scope]]:
        for known in lineage:
            scope = resolver.module_scope(known.module)
            for name in names:
                binding = known.members.get(name)
                if scope is not None and binding is not None and binding.kind == "def" and binding.function is not None:
                    yield binding.function, scope

    started: set[str] = set()
    for function, scope in methods(hooked.set_up):
        nodes = walk(function)
        kept = {
            key for node in nodes if isinstance(node, ast.Assign) and len(node.targets) == 1
            and _patches_dict(analysis, node.value, scope, shared.qualname)
            and (key := root_key(node.targets[0]) or "").startswith("self.")
        }
        started |= {
            key for node in nodes if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == PATCHER_START and (key := root_key(node.func.value) or "") in kept
        }
    return bool(started) and any(_stops(function, started) for function, _ in methods(hooked.tear_down))


def check(analysis: Analysis) -> Iterator[Finding]:
    known_hooks: dict[int, tuple[ClassInfo, FixtureHooks]] = {}

    def hooks(cls: ClassInfo) -> FixtureHooks:
        found = known_hooks.get(id(cls))
        if found is None:
            found = known_hooks[id(cls)] = (cls, _fixture_hooks(analysis, cls))  # the class kept: its id stays its own
        return found[1]

    cleanups = _Cleanups(hooks)
    yield from _leaked_patchers(analysis, cleanups)
    if _is_test_module(analysis):
        yield from _unrestored(analysis, cleanups)


# -- leaked-patcher -------------------------------------------------------

def _stops(node: ast.AST, keys: set[str]) -> bool:
    """Whether ``node`` stops one of the patchers named ``keys``, or all patchers."""
    for child in ast.walk(node):
        if isinstance(child, ast.Attribute) and child.attr == PATCHER_STOP_ALL:
            return True
        if isinstance(child, ast.Attribute) and child.attr == PATCHER_STOP and root_key(child.value) in keys:
            return True
    return False


def _leaked_patchers(analysis: Analysis, cleanups: _Cleanups) -> Iterator[Finding]:
    starts = _Starts(analysis)
    reported: set[int] = set()
    for site in analysis.module.sites:
        if not site.entry.patcher:
            continue
        for context, start in starts.of(site):
            if id(start) in reported:
                continue
            keys = set(site.patcher_keys)
            visible = cleanups.visible(context)
            stopped = any(_stops(node, keys) for node in visible.nodes) or any(
                _stops(expr, keys) for expr in visible.registered
            )
            if stopped or site.escapes or _returns_patcher(site) or _outside_base_may_stop(analysis, context) \
                    or _a_base_stops_all(analysis, context) or _hosts_may_stop(analysis, context):
                continue  # stopped here, handed to a caller who stops it, or a base class may stop it
            if _stopped_by_a_sibling_method(context, keys):
                continue  # a wrapper class with start() and stop(): whoever holds it stops it
            if _patches_a_fresh_object(analysis, site):
                continue  # only an object the same function just made: nothing later tests share
            if _in_a_module_function(context) and _test_classes_stop_all(analysis):
                continue  # a helper of a module whose test classes stop every patcher on the way out
            later = _stopped_later(context, start, keys)
            if later is not None and not context.is_function:
                continue  # module or class level: an exception before the stop fails the import itself
            reported.add(id(start))
            if later is not None:
                message = (
                    f"This patcher is stopped on line {later}, but not if the test fails or raises before it: "
                    "the patch then leaks into every later test. Stop it in a finally block or tear-down, "
                    "register it with addCleanup(patcher.stop), or use the patch as a context manager."
                )
            else:
                message = (
                    "This patcher is started and nothing stops it, so the patch leaks into every later test, "
                    "even when this one passes. Stop it in a finally block or tear-down, "
                    "register it with addCleanup(patcher.stop), or use the patch as a context manager."
                )
            yield analysis.finding(start, LEAKED_PATCHER.symbol, message, context.qualname)


def _patches_a_fresh_object(analysis: Analysis, site: MockSite) -> bool:
    """Whether ``site`` (``patch.object(txn, "commit")``) patches an attribute of
    an object its own function made with a class of the project or its tests
    (``txn = FakeTransaction()``, bound once) and stores nowhere but in local
    names: each call patches a new object, which no later test sees
    (ovsdbapp 3.0.0's ``TestingAPI.create_transaction``)."""
    target = site.entry.argument(site.call, "target") if site.kind == "patch.object" else None
    if not isinstance(target, ast.Name):
        return False
    owner = site.owner
    made = owner.assigns.get(target.id, [])
    if len(made) != 1 or not isinstance(made[0], ast.Call) or target.id in owner.params:
        return False
    if not isinstance(owner.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    if analysis.resolver.evaluate(made[0].func, analysis.module.scope(owner)).kind is not Kind.CLASS:
        return False
    return not any(  # ``self.txn = txn``, ``CACHE[k] = txn``: kept where later code finds it
        isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id == target.id
        and any(not isinstance(t, ast.Name) for t in node.targets)
        for node in own_nodes(owner.node)
    )


def _stopped_later(context: Context, start: ast.Call, keys: set[str]) -> int | None:
    """The line of a stop of the patcher (or ``stopall``) after ``start`` in the
    same scope, not protected by a ``finally`` or a cleanup; None if there is none."""
    lines = [
        call.lineno for call in context.calls
        if call.lineno > start.lineno and isinstance(call.func, ast.Attribute) and not call.args
        and (call.func.attr == PATCHER_STOP_ALL or (call.func.attr == PATCHER_STOP and root_key(call.func.value) in keys))
    ]
    return min(lines) if lines else None


def _returns_patcher(site: MockSite) -> bool:
    for node in ast.walk(site.owner.node):
        if isinstance(node, (ast.Return, ast.Yield)) and node.value is not None:
            if root_key(node.value) in site.patcher_keys:
                return True
    return False


# Base classes known not to stop patchers themselves.
PLAIN_BASES = UNITTEST_TEST_CASES | {"builtins.object"}


def _stopped_by_a_sibling_method(context: Context, keys: set[str]) -> bool:
    """Whether ``context`` is a method of a class that is no test class (no
    ``test*`` method) and another of its methods stops the same patcher
    (``_DatabasePatcherHelper.start``/``.stop``): the object's holder decides
    when it stops, as it would for the patcher itself."""
    owner = context.parent
    if not context.is_function or owner is None or not isinstance(owner.node, ast.ClassDef):
        return False
    methods = [child for child in owner.children if child.is_function]
    if any(method.name.startswith(TEST_PREFIX) for method in methods):
        return False
    return any(
        method is not context and any(_stops(node, keys) for node in ast.walk(method.node))
        for method in methods
    )


def _a_base_stops_all(analysis: Analysis, context: Context) -> bool:
    """Whether a base class of the test's class, of the project, stops every
    patcher when a test ends (``_stops_all``)."""
    owner = context.parent if context.is_function else context
    info = owner.class_info if owner is not None else None
    return info is not None and _stops_all_up(analysis, info, itself=False)


def _hosts_may_stop(analysis: Analysis, context: Context) -> bool:
    """Whether the test's class is a mixin (``Resolver.is_mixin``) whose methods run only
    in the classes combining it, of the project or this file, and every such
    class may stop its patchers: it has a base outside the project
    (``_has_outside_base``) or stops every patcher itself or through a base
    (``_stops_all``). neutron's ``class L3NatTestCaseMixin:``, whose tests
    start patchers, runs only under oslotest's ``BaseTestCase``, which stops
    them all. A mixin no known class combines stays reported."""
    owner = context.parent if context.is_function else context
    info = owner.class_info if owner is not None else None
    if info is None or not analysis.resolver.is_mixin(info):
        return False
    hosts = [
        host for host in analysis.known_subclasses().known(info, analysis.module.info)
        if not analysis.resolver.is_mixin(host)
    ]
    return bool(hosts) and all(
        _has_outside_base(analysis, host, set()) or _stops_all_up(analysis, host) for host in hosts
    )


def _stops_all_up(analysis: Analysis, cls: ClassInfo, itself: bool = True) -> bool:
    """Whether ``cls`` (unless not ``itself``) or one of its project bases, at
    any depth, stops every patcher (``_stops_all``)."""
    seen: set[int] = set()
    todo = [cls]
    while todo:
        current = todo.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if (itself or current is not cls) and _stops_all(current):
            return True
        module = analysis.resolver.index.get(current.module)
        scope = current.bases_scope or (Scope(module) if module is not None else None)
        if scope is None:
            continue
        for base_expr in current.bases:
            base = analysis.resolver.evaluate(base_expr, scope)
            if base.kind is Kind.CLASS and base.cls is not None:
                todo.append(base.cls)
    return False


def _stops_all(cls: ClassInfo) -> bool:
    """Whether the class's tear-down calls ``patch.stopall()``, or its set-up
    registers it as a cleanup."""
    for name, binding in cls.members.items():
        function = binding.function if binding.kind == "def" else None
        if function is None:
            continue
        if name in TEARDOWN_NAMES and _stops(function, set()):
            return True
        if name in SETUP_NAMES and any(
            isinstance(call, ast.Call) and callee_name(call) in CLEANUP_REGISTRARS
            and any(_stops(argument, set()) for argument in call.args)
            for call in ast.walk(function)
        ):
            return True
    return False


def _in_a_module_function(context: Context) -> bool:
    """Whether ``context`` is a function outside any class (a helper or
    decorator of the module, maybe nested in one)."""
    scope: Context | None = context
    while scope is not None and scope.is_function:
        scope = scope.parent
    return scope is not None and not isinstance(scope.node, ast.ClassDef)


def _test_classes_stop_all(analysis: Analysis) -> bool:
    """Whether a class of the module stops every patcher when its tests end
    (``_stops_all``: horizon's ``helpers.TestCase``, whose tests the module's
    ``create_mocks`` decorator patches for)."""
    return any(
        context.class_info is not None and _stops_all(context.class_info)
        for context in analysis.module.contexts if isinstance(context.node, ast.ClassDef)
    )


def _outside_base_may_stop(analysis: Analysis, context: Context) -> bool:
    """Whether the test's class has a base outside the project, other than
    unittest's, which may stop patchers itself (oslotest's TestCase registers
    ``patch.stopall`` as a cleanup, for one)."""
    owner = context.parent if context.is_function else context
    info = owner.class_info if owner is not None else None
    return info is not None and _has_outside_base(analysis, info, set())


def _has_outside_base(analysis: Analysis, cls: ClassInfo, seen: set[int]) -> bool:
    if id(cls) in seen:
        return False
    seen.add(id(cls))
    module = analysis.resolver.index.get(cls.module)
    scope = cls.bases_scope or (Scope(module) if module is not None else None)
    for base_expr in cls.bases:
        base = analysis.resolver.evaluate(base_expr, scope) if scope is not None else None
        if base is None or base.kind is Kind.UNKNOWN:
            return True
        if base.kind is Kind.CLASS and base.cls is not None:
            if _has_outside_base(analysis, base.cls, seen):
                return True
        elif base.qualname not in PLAIN_BASES:
            return True
    return False


class _Starts:
    """Every ``x.start()`` call of a file, found once, by what it is called on."""

    def __init__(self, analysis: Analysis) -> None:
        self.on_call: dict[int, list[tuple[Context, ast.Call]]] = {}
        self.on_name: dict[str, list[tuple[Context, ast.Call]]] = {}
        module = analysis.module
        for context in (module.module, *module.contexts):
            for call in context.calls:
                func = call.func
                if isinstance(func, ast.Attribute) and func.attr == PATCHER_START and not call.args:
                    self.on_call.setdefault(id(func.value), []).append((context, call))
                    key = root_key(func.value)
                    if key is not None:
                        self.on_name.setdefault(key, []).append((context, call))

    def of(self, site: MockSite) -> Iterator[tuple[Context, ast.Call]]:
        """The ``.start()`` calls of ``site``'s patcher, with the context each is in."""
        yield from self.on_call.get(id(site.written), [])
        for key in site.patcher_keys:
            for context, call in self.on_name.get(key, []):
                if _same_class(context, site.owner):
                    yield context, call


def _same_class(one: Context, other: Context) -> bool:
    def outer(context: Context) -> Context | None:
        return context.parent if context.is_function else context
    return outer(one) is outer(other)


# -- unrestored-* ---------------------------------------------------------

@dataclass(frozen=True)
class _Shared:
    rule_symbol: str
    qualname: str
    what: str
    fix: str


_ENVIRON = _Shared(UNRESTORED_ENVIRON.symbol, "os.environ", "os.environ",
                   "use monkeypatch.setenv/delenv, or patch.dict(os.environ, ...)")
_MODULES = _Shared(UNRESTORED_SYS_MODULES.symbol, "sys.modules", "sys.modules",
                   "use monkeypatch.setitem/delitem(sys.modules, ...), or patch.dict(sys.modules, ...)")


def _unrestored(analysis: Analysis, cleanups: _Cleanups) -> Iterator[Finding]:
    module = analysis.module
    restoring_fixtures: dict[str, bool] = {}  # shared state -> whether an autouse fixture restores it
    handed_on: frozenset[str] | None = None
    shape: _ModuleShape | None = None
    for context in module.contexts:
        if not context.is_function or context.name in TEARDOWN_NAMES or context.name in EXIT_METHODS:
            continue
        if context.parent is module.module and context.name.startswith(PYTEST_HOOK_PREFIX):
            continue  # a pytest hook sets up the whole session, once, on purpose
        candidates = [node for node in _mutations(context) if _may_mutate_shared_state(node, context)]
        if not candidates or cleanups.registered_as_cleanup(context):
            continue  # nothing changed, or the restoring code itself
        if context.parent is module.module and not context.name.startswith(TEST_PREFIX):
            if handed_on is None:
                handed_on = _handed_on_only(module.module.node)
            if context.name in handed_on or _run_at_import_only(module.module.node, context.name):
                continue  # a callback (it runs when and where the code it is handed to decides), or a probe
        if _call_of_instances_handed_on(module.module.node, context):
            continue  # the same, for an object made to be called elsewhere
        scope = module.scope(context)
        visible = cleanups.visible(context)
        changed: set[str] = set()
        ordered = sorted(candidates, key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))
        undone = _keys_taken_back(context, ordered)
        whole = _put_back_whole(analysis, context, ordered, scope)
        raising = _expected_to_raise(context)
        for node in ordered:
            if _inside(node, visible.nodes):
                continue  # this is the restoring code
            if id(node) in raising:
                continue  # the test expects this very statement to raise: it changes nothing
            if id(node) in undone.restores or id(node) in whole.restores:
                continue  # takes back what the test changed: the change is the finding
            shared, target = _classify(analysis, node, scope)
            if shared is not None and _through_a_reassigned_attribute(analysis, context, node):
                continue  # ``tools.os.environ`` after the fixture set ``tools.os = MagicMock(...)``
            if shared is not None and (
                _clears_before_each_test(context, node) or _owned_by_monkeypatch(context, node)
                or _unimports_its_own_import(context, node) or _drops_a_module_no_file_makes(analysis, node)
            ):
                continue
            if shared is not None:
                if _restores_shared(analysis, shared, visible, scope, node):
                    continue
                if cleanups.restored_around_every_call(analysis, context, shared, node):
                    continue
                if _restored_by_hooked_patcher(analysis, context, shared, cleanups.hooks):
                    continue
                if shared is _MODULES and SYS_MODULES_RESTORING_FIXTURES & set(context.params):
                    continue  # pytester snapshots sys.modules at set-up and restores it at tear-down
                if _restored_by_autouse(analysis, shared, restoring_fixtures):
                    continue
                if _restored_by_a_requested_fixture(analysis, context, shared.qualname):
                    continue
                if _entering_a_restoring_manager(analysis, context, scope, shared.qualname):
                    continue
                taken_back = undone.added.get(id(node))
                if taken_back is None:
                    restored_on = whole.lines.get(shared.qualname, 0)
                    taken_back = restored_on if getattr(node, "lineno", 0) < restored_on else None
                if taken_back is not None:
                    message = (
                        f"This changes {shared.what} and takes it back on line {taken_back} {ONLY_IF_IT_PASSES}: "
                        f"a failure before that line leaves it changed for every later test; {shared.fix}, "
                        "or take it back in a finally block."
                    )
                else:
                    message = f"This changes {shared.what} for every later test and nothing puts it back; {shared.fix}."
                yield analysis.finding(node, shared.rule_symbol, message, context.qualname)
            elif target is not None and isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                if _restores_attribute(analysis, target, visible, scope, node) or _puts_back(context, node, target):
                    continue
                if _bound_in_a_nested_function(context.node, node, target):
                    continue
                text = ast.unparse(target)
                if text in changed:
                    continue  # a later assignment in the same test resets it; the first one is the finding
                changed.add(text)
                if _replaced_by_a_mock(analysis, context, target, scope):
                    continue
                if _changes_nothing(analysis, node, target, scope) or _installed_by_the_test(context, cleanups, target):
                    continue
                if _cleanup_on_same_module(target, visible) or _reset_by_a_set_up(analysis, context, target, scope):
                    continue
                if _reloaded_by_a_base_tear_down(analysis, context, target, scope):
                    continue
                if _restored_by_a_decorator(analysis, context, target, scope):
                    continue
                if shape is None:
                    shape = _ModuleShape(module.module.node)
                if _helper_with_a_counterpart(analysis, context, text, shape):
                    continue
                if _restored_by_a_fixture(analysis, context, target, scope):
                    continue
                if _state_reset_by_autouse(analysis, target, scope) or _module_globals_put_back(analysis, target, scope):
                    continue
                if _put_back_by_a_fixture_elsewhere(analysis, context, target, scope):
                    continue
                restored = _restored_later(analysis, context, node, target, scope)
                if restored is not None:
                    message = (
                        f"'{text}' is put back on line {restored} {ONLY_IF_IT_PASSES}: a failure before "
                        "that line leaves it changed for every later test; restore it in a finally block, "
                        "or use monkeypatch.setattr or patch.object."
                    )
                else:
                    message = (
                        f"'{text}' is changed for every later test and nothing puts it back; "
                        "use monkeypatch.setattr or patch.object, or restore it in a finally block."
                    )
                yield analysis.finding(node, UNRESTORED_ATTRIBUTE.symbol, message, context.qualname)


def _expected_to_raise(context: Context) -> frozenset[int]:
    """The ids of the statements (and the nodes in them) that end a block the
    test expects to raise (``with pytest.raises(E):``, ``with
    self.assertRaises(E):``): the block's last statement is what raises, so
    an assignment there (a setter refusing the value) changes nothing."""
    found: set[int] = set()
    for statement in context.statements:
        if isinstance(statement, (ast.With, ast.AsyncWith)) and statement.body and any(
            callee_name(item.context_expr) in EXPECTING_CONTEXTS for item in statement.items
        ):
            found.update(id(node) for node in ast.walk(statement.body[-1]))
    return frozenset(found)


def _cleanup_helpers(module: ast.Module) -> frozenset[str]:
    """The module's functions that put things back: those run on the way out
    of tests, called in a tear-down method, a ``finally`` block, a fixture's
    code after its ``yield``, or another such function (ansible's
    ``nuke_module_prefix``, called from ``tearDown`` and ``finally``; its
    ``reset_collections_loader_state``, called after an autouse fixture's
    ``yield`` and by tests to start clean)."""
    functions = {s.name: s for s in module.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
    spans: list[tuple[int, int]] = []
    for node in ast.walk(module):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if node.name in TEARDOWN_NAMES:
            spans.append((node.lineno, node.end_lineno or node.lineno))
        for statement in _function_cleanup(node).nodes:
            spans.append((getattr(statement, "lineno", 0), getattr(statement, "end_lineno", None) or 0))
    calls: dict[str, list[int]] = {}
    for node in ast.walk(module):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in functions:
            calls.setdefault(node.func.id, []).append(node.lineno)
    found: set[str] = set()
    grown = True
    while grown:
        grown = False
        for name, lines in calls.items():
            if name in found or name.startswith(TEST_PREFIX) or is_fixture(functions[name].decorator_list):
                continue
            if any(first <= line <= last for first, last in spans for line in lines):
                found.add(name)
                function = functions[name]
                spans.append((function.lineno, function.end_lineno or function.lineno))
                grown = True
    return frozenset(found)


def _handed_on_only(tree: ast.AST) -> frozenset[str]:
    """The module-level functions of ``tree``, neither tests nor fixtures nor
    set-ups, that the file hands to other code as values (``hook=setup_worker``)
    and calls only from such functions: what they change, and whether it
    outlives the test, depends on where that code runs them (a worker
    process, a thread)."""
    body = getattr(tree, "body", [])
    candidates = {
        node.name for node in body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith(TEST_PREFIX)
        and node.name not in SETUP_NAMES and not is_fixture(node.decorator_list)
    }
    if not candidates:
        return frozenset()
    handed: set[str] = set()
    callers: dict[str, set[str | None]] = {}  # candidate -> the candidates calling it (None: other code)
    for statement in body:
        encloser = statement.name if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
        callees: set[int] = set()
        for node in ast.walk(statement):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for decorator in node.decorator_list:  # applied here, its wrapper runs with the test
                    applied = decorator.func if isinstance(decorator, ast.Call) else decorator
                    if isinstance(applied, ast.Name) and applied.id in candidates:
                        callees.add(id(applied))
                        callers.setdefault(applied.id, set()).add(None)
            if isinstance(node, ast.Call):
                callees.add(id(node.func))
                if isinstance(node.func, ast.Name) and node.func.id in candidates:
                    callers.setdefault(node.func.id, set()).add(encloser if encloser in candidates else None)
            elif isinstance(node, ast.Name) and node.id in candidates and isinstance(node.ctx, ast.Load) \
                    and id(node) not in callees:
                handed.add(node.id)
    found = {name for name in candidates if name in handed or name in callers}
    changed = True
    while changed:  # called from anything but another such function: it runs in the test's process
        changed = False
        for name in list(found):
            if any(caller not in found for caller in callers.get(name, ())):
                found.discard(name)
                changed = True
    return frozenset(found)


def _call_of_instances_handed_on(tree: ast.AST, context: Context) -> bool:
    """Whether ``context`` is the ``__call__`` of a module-level class (not a
    test class) whose instances the module only makes into locals and hands
    to other code as arguments, never calling them itself: setuptools'
    ``BuildBackendCaller``, submitted to a ``ProcessPoolExecutor``, changes
    ``os.environ`` in the worker process. Like ``_handed_on_only``'s
    callbacks, it runs where that code decides."""
    owner = context.parent
    if context.name != "__call__" or owner is None or owner.parent is None or owner.parent.node is not tree:
        return False
    if not isinstance(owner.node, ast.ClassDef) or _is_test_class(context):
        return False
    made = owner.node.name
    constructions: set[int] = set()
    functions = [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for function in functions:  # each function's own locals: ``call = Made(...)``, then ``pool.submit(call)``
        instances: set[str] = set()
        handed: set[int] = set()
        for node in own_nodes(function):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) \
                    and node.value.func.id == made:
                instances.add(node.targets[0].id)
                constructions.add(id(node.value.func))
            elif isinstance(node, ast.Call):
                handed.update(id(argument) for argument in [*node.args, *(k.value for k in node.keywords)])
        for node in own_nodes(function):
            if isinstance(node, ast.Name) and node.id in instances and isinstance(node.ctx, ast.Load) \
                    and id(node) not in handed:
                return False  # an instance called here, or kept: it may run in the test's process
    if not constructions:
        return False
    return not any(  # the class used otherwise: subclassed, made at module level, called as it is made, ...
        isinstance(node, ast.Name) and node.id == made and isinstance(node.ctx, ast.Load) and id(node) not in constructions
        for node in ast.walk(tree)
    )


@dataclass
class _TakenBack:
    """Keys of os.environ/sys.modules a test adds and later deletes again, or
    sets back to the value it saved first: the taking back (ids), and each
    addition's id with the taking-back line."""

    restores: set[int] = field(default_factory=set)
    added: dict[int, int] = field(default_factory=dict)


def _keys_taken_back(context: Context, ordered: list[ast.AST]) -> _TakenBack:
    """Pair each ``del X[key]``/``X.pop(key)`` with an earlier ``X[key] = ...``
    of the same container and key in the test (``for dep in deps: ...`` twice
    counts as one key): the deletion takes back what the test added (its
    finding would repeat the addition's), and the addition is undone only on
    that later line."""
    loops = {
        target.id: ast.unparse(loop.iter)
        for loop in ast.walk(context.node) if isinstance(loop, (ast.For, ast.AsyncFor))
        for target in [loop.target] if isinstance(target, ast.Name)
    }

    def key_of(container: ast.expr, key: ast.expr) -> str:
        if isinstance(key, ast.Name) and key.id in loops:
            return f"{ast.unparse(container)}[each of {loops[key.id]}]"
        return f"{ast.unparse(container)}[{ast.unparse(key)}]"

    def saved_from(value: ast.expr, key: str) -> bool:
        """Whether ``value`` is a name the test bound once to what ``key`` held
        (``saved = sys.modules["m"]`` or ``sys.modules.get("m")``)."""
        bound = context.assigns.get(value.id, []) if isinstance(value, ast.Name) else []
        if len(bound) != 1:
            return False
        read = bound[0]
        if isinstance(read, ast.Subscript):
            return key_of(read.value, read.slice) == key
        return isinstance(read, ast.Call) and isinstance(read.func, ast.Attribute) and read.func.attr == "get" \
            and bool(read.args) and key_of(read.func.value, read.args[0]) == key

    arms = _exclusive_arms(context.node)
    found = _TakenBack()
    added: dict[str, ast.AST] = {}
    for node in ordered:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript):
            key = key_of(node.targets[0].value, node.targets[0].slice)
            if key in added and saved_from(node.value, key) and not arms(added[key], node):  # the saved value put back
                found.restores.add(id(node))
                found.added.setdefault(id(added[key]), node.lineno)
                continue
            added.setdefault(key, node)
            continue
        if isinstance(node, ast.Delete):
            keys = [key_of(t.value, t.slice) for t in node.targets if isinstance(t, ast.Subscript)]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "pop" and node.args:
            keys = [key_of(node.func.value, node.args[0])]
        else:
            continue
        if keys and all(key in added and not arms(added[key], node) for key in keys):
            found.restores.add(id(node))
            for key in keys:
                found.added.setdefault(id(added[key]), getattr(node, "lineno", 0))
    return found


def _exclusive_arms(function: ast.AST) -> Callable[[ast.AST, ast.AST], bool]:
    """For ``function``: whether two of its statements sit in different arms of
    one ``if`` (``if x: os.environ[k] = "1"`` / ``elif ...: del os.environ[k]``),
    so no run of it reaches both: the second takes nothing back."""
    splits: list[tuple[tuple[int, int], tuple[int, int]]] = []

    def exclusive(one: ast.AST, other: ast.AST) -> bool:
        if not splits:  # read once, when a pair is first met
            splits.extend(
                ((node.body[0].lineno, node.body[-1].end_lineno or 0),
                 (node.orelse[0].lineno, node.orelse[-1].end_lineno or 0))
                for node in ast.walk(function) if isinstance(node, ast.If) and node.orelse
            )
            splits.append(((0, -1), (0, -1)))  # (marks it read; matches no line)
        first, second = getattr(one, "lineno", 0), getattr(other, "lineno", 0)
        return any(
            (body[0] <= first <= body[1] and orelse[0] <= second <= orelse[1])
            or (body[0] <= second <= body[1] and orelse[0] <= first <= orelse[1])
            for body, orelse in splits
        )

    return exclusive


@dataclass
class _PutBackWhole:
    """What a test puts back whole from a snapshot it took first: each shared
    object's first restoring line (by qualname), and the restoring calls."""

    lines: dict[str, int] = field(default_factory=dict)
    restores: set[int] = field(default_factory=set)


def _put_back_whole(analysis: Analysis, context: Context, ordered: list[ast.AST], scope: Scope) -> _PutBackWhole:
    """``saved = dict(os.environ)`` (or ``os.environ.copy()``) in the test,
    then ``os.environ.clear(); os.environ.update(saved)`` later in it: the
    update and the clears between snapshot and update restore what the lines
    before them changed (only if the test gets that far)."""
    found = _PutBackWhole()
    snapshots: dict[str, int] = {}  # qualname -> line of the snapshot the first restore reads
    for node in ordered:
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "update"
                and len(node.args) == 1 and isinstance(node.args[0], ast.Name)):
            continue
        shared, _ = _classify(analysis, node, scope)
        saved = context.assigns.get(node.args[0].id, [])
        if shared is not None and len(saved) == 1 and saved[0].lineno < node.lineno \
                and _snapshot_of(analysis, saved[0], scope, shared.qualname):
            snapshots.setdefault(shared.qualname, saved[0].lineno)
            found.lines.setdefault(shared.qualname, node.lineno)
            found.restores.add(id(node))
    for node in ordered:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "clear":
            shared, _ = _classify(analysis, node, scope)
            if shared is not None and snapshots.get(shared.qualname, node.lineno) < node.lineno \
                    <= found.lines[shared.qualname]:
                found.restores.add(id(node))
    return found


def _snapshot_of(analysis: Analysis, value: ast.expr, scope: Scope, qualname: str) -> bool:
    """Whether ``value`` copies the shared object ``qualname``: ``dict(os.environ)``,
    ``os.environ.copy()``, ``copy.copy(os.environ)``."""
    if not isinstance(value, ast.Call):
        return False
    if isinstance(value.func, ast.Attribute) and value.func.attr in SNAPSHOT_CALLS and not value.args:
        return _evaluates_to(analysis, value.func.value, scope, qualname)
    return callee_name(value) in {"dict", *SNAPSHOT_CALLS} and len(value.args) == 1 \
        and _evaluates_to(analysis, value.args[0], scope, qualname)


def _restored_by_autouse(analysis: Analysis, shared: _Shared, known: dict[str, bool]) -> bool:
    """Whether a per-test autouse fixture of the test's module, its conftest
    files or plugins puts the shared state back after every test
    (``_restores_around_yield``: after its ``yield``, in a ``finally``, or in a
    manager it wraps the ``yield`` in, ``with isolated_environment(): yield``)."""
    if shared.qualname in known:
        return known[shared.qualname]
    module = analysis.module
    found = module.fixtures is not None and module.directory is not None and any(
        _per_test(function)  # a session or module fixture puts things back once, not after each test
        and (
            _restores_around_yield(
                analysis, function, analysis.resolver.function_scope(function, info, None), shared.qualname,
            )
            or (shared is _MODULES and info.path is not None and _sweeps_modules_after_yield(analysis, function, info))
        )
        for function, info in module.fixtures.autouse(module.info, module.directory)
    )
    known[shared.qualname] = found
    return found


_CLEANUP_DEPTH = 3  # functions followed from a fixture's code after its yield


def _sweeps_modules_after_yield(analysis: Analysis, fixture: FunctionNode, info: ModuleInfo) -> bool:
    """Whether ``fixture`` (defined in ``info``), after its ``yield``, itself or
    through functions it calls (``_cleanup_with_callees``), drops
    ``sys.modules`` entries in a loop over ``sys.modules`` (ansible's
    ``nuke_module_prefix``): the suite sweeps the modules its tests make after
    each test, so what a test does to ``sys.modules`` is its to manage."""
    if not any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(fixture)):
        return False
    loops = drops = False
    for region, home in _cleanup_with_callees(analysis, fixture, info):
        for node in ast.walk(region):
            if isinstance(node, (ast.For, ast.comprehension)) and any(
                isinstance(n, ast.Attribute) and _evaluates_to(analysis, n, Scope(home), _MODULES.qualname)
                for n in ast.walk(node.iter)
            ):
                loops = True
            drops = drops or _drops_a_module(analysis, node, home)
            if loops and drops:
                return True
    return False


def _drops_a_module(analysis: Analysis, node: ast.AST, info: ModuleInfo) -> bool:
    """``sys.modules.pop(...)`` or ``del sys.modules[...]``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "pop":
        return _evaluates_to(analysis, node.func.value, Scope(info), _MODULES.qualname)
    if isinstance(node, ast.Delete):
        return any(
            isinstance(t, ast.Subscript) and _evaluates_to(analysis, t.value, Scope(info), _MODULES.qualname)
            for t in node.targets
        )
    return False


WHOLE_RESTORES = frozenset({"update", "clear"})  # os.environ.clear(); os.environ.update(saved)


def _restores_whole(analysis: Analysis, node: ast.AST, scope: Scope, qualname: str) -> bool:
    """Whether ``node`` puts the whole of ``os.environ``/``sys.modules`` back
    (``update``/``clear`` on it), not just some keys."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
        and node.func.attr in WHOLE_RESTORES and _evaluates_to(analysis, node.func.value, scope, qualname)


def _restores_key_by_key(analysis: Analysis, node: ast.AST, scope: Scope, qualname: str) -> bool:
    """Whether ``node`` is a loop that writes or deletes keys of ``os.environ``/
    ``sys.modules`` (``qualname``) one by one: how pypa/distutils' ``save_env``
    puts a saved copy back (``for key, value in orig.items(): os.environ[key] = value``)."""
    if not isinstance(node, (ast.For, ast.AsyncFor)):
        return False
    for child in ast.walk(node):
        targets = child.targets if isinstance(child, (ast.Assign, ast.Delete)) else []
        if any(isinstance(t, ast.Subscript) and _evaluates_to(analysis, t.value, scope, qualname) for t in targets):
            return True
    return False


def _per_test(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a fixture runs around each test (no ``scope=``, or ``scope="function"``)."""
    for decorator in function.decorator_list:
        if isinstance(decorator, ast.Call):
            for keyword in decorator.keywords:
                if keyword.arg == "scope":
                    return isinstance(keyword.value, ast.Constant) and keyword.value.value == "function"
    return True


SNAPSHOT_CALLS = frozenset({"copy", "deepcopy"})  # copy.copy(x), copy.deepcopy(x), x.copy()


def _run_at_import_only(tree: ast.AST, name: str) -> bool:
    """Whether the module uses the function ``name`` only in decorators' own
    expressions (a ``skipif`` condition: a probe run once while the module is
    collected), never inside a function nor in a plain module-level statement
    (a helper called at import that fakes modules for the whole run still
    changes what later tests import)."""
    uses = 0
    pending: list[tuple[ast.AST, bool]] = [(tree, False)]  # (node, inside a decorator expression)
    while pending:
        node, decorating = pending.pop()
        if isinstance(node, ast.Name) and node.id == name:
            if not decorating:
                return False
            uses += 1
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for decorator in node.decorator_list:
                wrapping = decorator.func if isinstance(decorator, ast.Call) else decorator
                if isinstance(wrapping, ast.Name) and wrapping.id == name:
                    return False  # ``@name``: what it wraps the test in runs with the test
            pending.extend((decorator, True) for decorator in node.decorator_list)
            decorators = {id(decorator) for decorator in node.decorator_list}
            pending.extend((child, decorating) for child in ast.iter_child_nodes(node) if id(child) not in decorators)
            continue
        pending.extend((child, decorating) for child in ast.iter_child_nodes(node))
    return uses > 0


_RESTORING_WORDS = ("teardown", "tear_down", "restore", "cleanup", "clean_up", "reset", "undo")


def _helper_with_a_counterpart(analysis: Analysis, context: Context, text: str, shape: _ModuleShape) -> bool:
    """Whether ``context`` is a helper of the tests (neither a test, a fixture,
    a set-up nor a method of a test class) whose change to ``text`` the module
    puts back: the restoring half of a pair itself (``teardown_servers``), an
    ``__enter__`` whose ``__exit__`` restores it, a helper every call of which
    in the module runs inside a restoring manager (``set_http_connect`` inside
    ``with save_globals():``) or in a set-up whose tear-down half the module
    holds, or a top-level helper the module never names, beside its restoring
    half (``setup_servers`` and ``teardown_servers`` of a support module)."""
    node = context.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.name.startswith(TEST_PREFIX):
        return False
    if is_fixture(node.decorator_list) or node.name in SETUP_NAMES:
        return False
    if context.class_info is not None and _is_test_class(context):
        return False
    if _restoring_name(node.name):
        return True
    parent = context.parent.node if context.parent is not None else None
    if node.name in _ENTER_METHODS and isinstance(parent, ast.ClassDef):
        return any(
            isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)) and member.name in EXIT_METHODS
            and shape.assigns(member, text)
            for member in parent.body
        )
    uses = shape.uses.get(node.name, [])  # calls, and the name handed on (``@helper``, ``callback=helper``)
    if not uses:
        return context.parent is analysis.module.module and shape.has_restoring_half(text)
    covered = shape.covered(text)
    return all(shape.runs_inside(use, covered) for use in uses)


_ENTER_METHODS = frozenset({"__enter__", "__aenter__"})


def _restoring_name(name: str) -> bool:
    return any(word in name.lower() for word in _RESTORING_WORDS)


class _ModuleShape:
    """What ``_helper_with_a_counterpart`` asks of the test module, gathered in
    one walk per file and answered per assigned text from memory (a module
    with hundreds of ``with`` blocks and helpers is walked once, not once per
    block and helper)."""

    def __init__(self, tree: ast.AST) -> None:
        self.uses: dict[str, list[ast.AST]] = {}  # name or attribute -> the nodes naming it
        self._functions: dict[str, list[FunctionNode]] = {}
        self._classes: dict[str, list[ast.ClassDef]] = {}
        self._withs: list[ast.With | ast.AsyncWith] = []
        self._enclosing: dict[int, FunctionNode] = {}  # id(use) -> the function around it
        self._nested: set[int] = set()  # ids of the functions defined inside a function
        stack: list[tuple[ast.AST, FunctionNode | None]] = [(tree, None)]
        while stack:
            node, function = stack.pop()
            if isinstance(node, ast.Name):
                self.uses.setdefault(node.id, []).append(node)
            elif isinstance(node, ast.Attribute):
                self.uses.setdefault(node.attr, []).append(node)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._functions.setdefault(node.name, []).append(node)
                if function is not None:
                    self._nested.add(id(node))
            elif isinstance(node, ast.ClassDef):
                self._classes.setdefault(node.name, []).append(node)
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                self._withs.append(node)
            if function is not None and isinstance(node, (ast.Name, ast.Attribute)):
                self._enclosing[id(node)] = function
            inner = node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
            stack.extend((child, inner) for child in ast.iter_child_nodes(node))
        self._assigned: dict[int, frozenset[str]] = {}
        self._covered: dict[str, frozenset[int]] = {}

    def runs_inside(self, use: ast.AST, covered: frozenset[int], depth: int = 3) -> bool:
        """Whether ``use`` sits in ``covered``, or in a function (a closure, a
        helper method) every use of which does, through ``depth`` such steps."""
        if id(use) in covered:
            return True
        function = self._enclosing.get(id(use))
        if function is None or depth == 0 or (function.name.startswith(TEST_PREFIX) and id(function) not in self._nested):
            return False  # a test runs when the runner runs it (a closure named ``test`` does not)
        uses = self.uses.get(function.name, [])
        return bool(uses) and all(self.runs_inside(other, covered, depth - 1) for other in uses)

    def assigns(self, region: ast.AST, text: str) -> bool:
        """Whether an assignment in ``region`` (at any depth) has the target ``text``."""
        known = self._assigned.get(id(region))
        if known is None:
            known = self._assigned[id(region)] = frozenset(
                ast.unparse(target) for child in ast.walk(region) if isinstance(child, ast.Assign)
                for target in child.targets
            )
        return text in known

    def has_restoring_half(self, text: str) -> bool:
        """Whether a function of the module named to restore (or a tear-down) assigns ``text``."""
        return any(
            (_restoring_name(name) or name in TEARDOWN_NAMES) and self.assigns(function, text)
            for name, functions in self._functions.items() for function in functions
        )

    def covered(self, text: str) -> frozenset[int]:
        """The ids of the nodes that run inside a manager restoring ``text``, or
        inside a set-up when the module holds a restoring half for it."""
        known = self._covered.get(text)
        if known is not None:
            return known
        covered: set[int] = set()
        for region in self._withs:
            if any(self._manager_restores(item.context_expr, text) for item in region.items):
                covered.update(id(c) for statement in region.body for c in ast.walk(statement))
        if self.has_restoring_half(text):
            for name in SETUP_NAMES:
                for function in self._functions.get(name, []):
                    covered.update(id(c) for c in ast.walk(function))
        self._covered[text] = frozenset(covered)
        return self._covered[text]

    def _manager_restores(self, manager: ast.expr, text: str) -> bool:
        """Whether ``manager`` calls a manager defined in the module that assigns
        ``text`` on leaving: a function assigning it in a ``finally`` block, or a
        class whose ``__exit__`` does."""
        name = callee_name(manager) if isinstance(manager, ast.Call) else ""
        if not name:
            return False
        for function in self._functions.get(name, []):
            if any(isinstance(n, ast.Try) and any(self.assigns(s, text) for s in n.finalbody) for n in ast.walk(function)):
                return True
        return any(
            isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)) and member.name in EXIT_METHODS
            and self.assigns(member, text)
            for cls in self._classes.get(name, []) for member in cls.body
        )


def _is_test_class(context: Context) -> bool:
    """Whether the class around the method ``context`` holds tests."""
    parent = context.parent
    body = getattr(parent.node, "body", []) if parent is not None else []
    return any(
        isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)) and member.name.startswith(TEST_PREFIX)
        for member in body
    )


def _puts_back(context: Context, node: ast.AST, target: ast.Attribute, changed_on: int | None = None) -> bool:
    """``saved = mod.x`` earlier in the function, and this assigns ``mod.x =
    saved``; or ``saved`` is a snapshot the test took (``saved =
    deepcopy(conf.fpg)``) before the change on line ``changed_on`` (before this
    assignment when None: the value was changed in place)."""
    value = getattr(node, "value", None)
    if not isinstance(value, ast.Name):
        return False
    text = ast.unparse(target)
    line = changed_on if changed_on is not None else getattr(node, "lineno", 0)
    return any(
        ast.unparse(saved) == text
        or (isinstance(saved, ast.Call) and callee_name(saved) in SNAPSHOT_CALLS and saved.lineno < line)
        for saved in context.assigns.get(value.id, [])
    )


def _restored_later(
    analysis: Analysis, context: Context, node: ast.AST, target: ast.Attribute, scope: Scope,
) -> int | None:
    """The line of a plain ``mod.x = saved`` (saved before the change) after
    ``node`` in the same test, of ``setattr(mod, "x", saved)``, of a plain
    assignment of the value the module declares (``pyinfra.is_cli = False``
    after ``= True``), or of a call of the module's function resetting the
    global (``_resets_the_global``); None if none."""
    text, line = ast.unparse(target), getattr(node, "lineno", 0)
    base, attribute = ast.unparse(target.value), target.attr
    module = _module_of(analysis, target, scope)
    for statement in context.statements:
        if statement.lineno <= line:
            continue
        if isinstance(statement, ast.Assign) and any(ast.unparse(t) == text for t in statement.targets):
            if _puts_back(context, statement, target, line) or _changes_nothing(analysis, statement, target, scope):
                return statement.lineno
    for call in context.calls:
        if call.lineno > line and _resets_the_global(analysis, call.func, module, attribute, scope):
            return call.lineno
        if call.lineno > line and callee_name(call) == "setattr" and len(call.args) == 3:
            named = call.args[1]
            if ast.unparse(call.args[0]) == base and isinstance(named, ast.Constant) and named.value == attribute \
                    and _puts_back(context, ast.Assign(targets=[target], value=call.args[2]), target, line):
                return call.lineno
    return None


def _restored_by_a_decorator(analysis: Analysis, context: Context, target: ast.Attribute, scope: Scope) -> bool:
    """Whether a decorator of the test (or of its class), defined in the project
    or its tests, puts the attribute back in a ``finally`` block or after a
    ``yield`` around the call it wraps."""
    resolver = analysis.resolver
    base = resolver.evaluate(target.value, scope)
    if base.kind is Kind.UNKNOWN:
        return False
    current: Context | None = context
    while current is not None:
        for decorator in getattr(current.node, "decorator_list", []):
            maker = resolver.evaluate(decorator.func if isinstance(decorator, ast.Call) else decorator, scope)
            if maker.kind is Kind.FUNCTION and maker.function is not None \
                    and _function_restores(analysis, maker.function, maker.module, base, target.attr):
                return True
        current = current.parent
    return False


def _restored_by_a_fixture(analysis: Analysis, context: Context, target: ast.Attribute, scope: Scope) -> bool:
    """Whether the test or its set-up installs a fixture (``self.useFixture(F(...))``,
    the ``fixtures`` library's protocol) whose class, in the project or an
    installed library, registers a cleanup and assigns the same attribute of
    the same object: the fixture saves it and puts it back."""
    resolver = analysis.resolver
    base = resolver.evaluate(target.value, scope)
    if base.kind is Kind.UNKNOWN or not base.qualname:
        return False
    for owner in [context, *set_ups_of(context)]:
        for call in owner.calls:
            if callee_name(call.func) != "useFixture" or not call.args or not isinstance(call.args[0], ast.Call):
                continue
            made = resolver.evaluate(call.args[0].func, analysis.module.scope(owner))
            fixture_resolver = resolver
            if made.kind is Kind.EXTERNAL:
                fixture_resolver = analysis.libraries.resolver
                made = fixture_resolver.resolve_dotted(made.qualname)
            if made.kind is Kind.CLASS and made.cls is not None \
                    and _fixture_restores(fixture_resolver, made.cls, base, target.attr):
                return True
    return False


def _state_reset_by_autouse(analysis: Analysis, target: ast.Attribute, scope: Scope) -> bool:
    """Whether ``target``, an attribute the engine cannot tell (a metaclass's
    property, a class that makes names at run time), belongs to a project
    object whose state a per-test autouse fixture resets after its ``yield``:
    the fixture (or a function it calls, ``_CLEANUP_DEPTH`` deep) assigns some
    attribute of that same object (``AnsibleCollectionConfig._default_collection
    = None`` for a test setting ``AnsibleCollectionConfig.default_collection``
    through the property)."""
    module = analysis.module
    if module.fixtures is None or module.directory is None:
        return False
    resolver = analysis.resolver
    base = resolver.evaluate(target.value, scope)
    if base.kind not in (Kind.CLASS, Kind.MODULE) or not resolver.is_first_party(base):
        return False
    if resolver.attribute(base, target.attr).kind is not Kind.UNKNOWN:
        return False
    for fixture, info in module.fixtures.autouse(module.info, module.directory):
        if not _per_test(fixture) or not any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(fixture)):
            continue
        if _cleanup_assigns(analysis, fixture, info, base, None):
            return True
    return False


def _put_back_by_a_fixture_elsewhere(analysis: Analysis, context: Context, target: ast.Attribute, scope: Scope) -> bool:
    """Whether a per-test fixture the test gets from a conftest file or plugin
    (autouse, or requested by a parameter of the test) assigns the same
    attribute of the same object on its way out (after its ``yield``, in a
    ``finally``, or in a project function it calls there): stripe's conftest
    ``setup_stripe`` saves ``stripe.api_key`` and assigns it back after its
    ``yield``. Another module spells the object its own way, so it is
    compared by what it resolves to."""
    module = analysis.module
    if module.fixtures is None or module.directory is None:
        return False
    resolver = analysis.resolver
    base = resolver.evaluate(target.value, scope)
    if base.kind not in (Kind.CLASS, Kind.MODULE, Kind.EXTERNAL) or not base.qualname:
        return False  # (a library's module or class too: ``sys.argv``, ``logging.raiseExceptions``)
    fixtures = list(module.fixtures.autouse(module.info, module.directory))
    for name in _requested_fixtures(context):  # by a parameter or a ``usefixtures`` mark
        found = module.fixtures.find(name, module.info, module.directory)
        if found is not None:
            fixtures.append(found)
    return any(_per_test(fixture) and _cleanup_assigns(analysis, fixture, info, base, target.attr)
               for fixture, info in fixtures)


def _cleanup_assigns(
    analysis: Analysis, fixture: FunctionNode, info: ModuleInfo, base: Value, attribute: str | None,
) -> bool:
    """Whether ``fixture``'s way out (``_cleanup_with_callees``) assigns
    ``attribute`` (any attribute, when None) of the object ``base``."""
    resolver = analysis.resolver
    for region, home in _cleanup_with_callees(analysis, fixture, info):
        scope = Scope(home)
        for node in ast.walk(region):
            if any(
                (attribute is None or name == attribute) and _same_object(resolver.evaluate(owner, scope), base)
                for owner, name in _attributes_put(node)
            ):
                return True
    return False


def _attributes_put(node: ast.AST) -> list[tuple[ast.expr, str]]:
    """(object, attribute name) for each attribute ``node`` assigns:
    ``obj.name = ...`` or ``setattr(obj, "name", ...)``."""
    if isinstance(node, ast.Assign):
        targets = [  # ``sys.argv[:] = saved`` puts back ``sys.argv``
            t.value if isinstance(t, ast.Subscript) and _whole_slice(t) else t for t in _unpacked(node.targets)
        ]
        return [(t.value, t.attr) for t in targets if isinstance(t, ast.Attribute)]
    if isinstance(node, ast.Call) and callee_name(node) == "setattr" and len(node.args) > 1 \
            and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
        return [(node.args[0], node.args[1].value)]
    return []


def _same_object(value: Value, other: Value) -> bool:
    return (value.kind, value.module, value.qualname) == (other.kind, other.module, other.qualname)


def _bound_in_a_nested_function(outer: ast.AST, node: ast.AST, target: ast.Attribute) -> bool:
    """Whether ``node`` sits in a function nested in ``outer`` that binds the
    name ``target`` starts from (a parameter or a local): a callback's own
    ``context`` is not the module ``context`` the test imported."""
    root: ast.expr = target
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name):
        return False
    line = getattr(node, "lineno", 0)
    for inner in ast.walk(outer):
        if inner is outer or not isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if not inner.lineno <= line <= (inner.end_lineno or inner.lineno):
            continue
        arguments = inner.args
        params = {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}
        params |= {a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None}
        if root.id in params or any(
            isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id == root.id for n in ast.walk(inner)
        ):
            return True
    return False


RUNTEST_HOOKS = frozenset({"pytest_runtest_setup", "pytest_runtest_call", "pytest_runtest_protocol"})


def _module_globals_put_back(analysis: Analysis, target: ast.Attribute, scope: Scope) -> bool:
    """Whether ``target`` is a global of a module (``config.FEATURE``) and a
    conftest or plugin above the test snapshots the globals of modules before
    each test: a ``pytest_runtest_setup``/``_call``/``_protocol`` hook, or a
    per-test autouse fixture, copies a module's ``__dict__``
    (``dict(module.__dict__)`` over ``sys.modules``, as apprise's conftest
    does, putting them back in ``pytest_runtest_teardown``)."""
    module = analysis.module
    if module.fixtures is None or module.directory is None:
        return False
    if analysis.resolver.evaluate(target.value, scope).kind is not Kind.MODULE:
        return False
    for info in module.fixtures.chain(module.directory):
        for name, binding in info.bindings.items():
            function = binding.function
            if binding.kind != "def" or function is None:
                continue
            if name not in RUNTEST_HOOKS and not (
                is_fixture(function.decorator_list) and is_autouse(function) and _per_test(function)
            ):
                continue
            if any(_copies_a_dict_of_globals(node) for node in ast.walk(function)):
                return True
    return False


def _copies_a_dict_of_globals(node: ast.AST) -> bool:
    """``dict(m.__dict__)``, ``m.__dict__.copy()`` or ``copy.copy(m.__dict__)``."""
    if not isinstance(node, ast.Call):
        return False
    if isinstance(node.func, ast.Attribute) and node.func.attr in SNAPSHOT_CALLS and not node.args:
        return _names_dunder_dict(node.func.value)
    return callee_name(node) in {"dict", *SNAPSHOT_CALLS} and len(node.args) == 1 and _names_dunder_dict(node.args[0])


def _names_dunder_dict(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Attribute) and expr.attr == "__dict__"


def _cleanup_with_callees(
    analysis: Analysis, fixture: FunctionNode, info: ModuleInfo,
) -> list[tuple[ast.AST, ModuleInfo]]:
    """The statements ``fixture`` runs after its ``yield``, with the bodies of the
    project's functions they call (``_CLEANUP_DEPTH`` calls deep), each with the
    module whose names it reads."""
    resolver = analysis.resolver
    found: list[tuple[ast.AST, ModuleInfo]] = [(node, info) for node in _function_cleanup(fixture).nodes]
    seen: set[int] = set()
    start = 0
    for _ in range(_CLEANUP_DEPTH):
        level = found[start:]
        start = len(found)
        for region, home in level:
            for call in ast.walk(region):
                if not isinstance(call, ast.Call):
                    continue
                value = resolver.evaluate(call.func, Scope(home))
                callee = value.function
                if value.kind is not Kind.FUNCTION or callee is None or id(callee) in seen:
                    continue
                seen.add(id(callee))
                callee_home = resolver.index.get(value.module)
                if callee_home is not None and (callee_home is info or resolver.project.is_first_party(value.module)):
                    found += [(statement, callee_home) for statement in callee.body]
    return found


def _fixture_restores(resolver: Resolver, cls: ClassInfo, base: Value, attribute: str) -> bool:
    """Whether the fixture class ``cls`` registers a cleanup (``addCleanup``) and
    one of its methods assigns ``attribute`` of the object ``base``."""
    info = resolver.index.get(cls.module)
    if info is None:
        return False
    methods = [b.function for b in cls.members.values() if b.kind == "def" and b.function is not None]
    walked = [(method, list(ast.walk(method))) for method in methods]
    registered = [
        (method, n) for method, nodes in walked for n in nodes if isinstance(n, ast.Call) and callee_name(n.func) == "addCleanup"
    ]
    if not registered:
        return False
    for method, call in registered:  # ``self.addCleanup(rpc.cleanup)``: a function of the module resetting its globals
        if call.args and base.kind is Kind.MODULE:
            cleanup = resolver.evaluate(call.args[0], resolver.function_scope(method, info, cls))
            if cleanup.kind is Kind.FUNCTION and cleanup.module == base.module and cleanup.function is not None \
                    and _assigns_global(cleanup.function, attribute):
                return True
    for method, nodes in walked:
        scope: Scope | None = None
        for node in nodes:
            if not isinstance(node, ast.Assign):
                continue
            for assigned in node.targets:
                for part in assigned.elts if isinstance(assigned, ast.Tuple) else [assigned]:
                    if isinstance(part, ast.Attribute) and part.attr == attribute:
                        scope = scope or resolver.function_scope(method, info, cls)
                        owner = resolver.evaluate(part.value, scope)
                        if owner.kind is not Kind.UNKNOWN and owner.qualname == base.qualname:
                            return True
    return False


def _assigns_global(function: FunctionNode, name: str) -> bool:
    """Whether ``function`` declares ``global name`` and assigns it."""
    done = reading_once(function)
    try:
        nodes = [node for statement in function.body for node in walk(statement)]  # a deferred body is read
        declared = any(isinstance(node, ast.Global) and name in node.names for node in nodes)
        return declared and any(
            isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store) for node in nodes
        )
    finally:
        done()


def _function_restores(analysis: Analysis, function: ast.AST, module: str, base: Value, attribute: str) -> bool:
    """Whether ``function`` (its nested wrappers included) assigns ``attribute`` of
    the object ``base`` in a ``finally`` block or after a ``yield``."""
    module_scope = analysis.resolver.module_scope(module)
    if module_scope is None:
        return False
    for region in _function_cleanup(function).nodes:
        for child in ast.walk(region):
            assigned: list[ast.expr] = []
            if isinstance(child, ast.Assign):
                assigned = [t.value for t in child.targets if isinstance(t, ast.Attribute) and t.attr == attribute]
            elif isinstance(child, ast.Call) and callee_name(child) == "setattr" and len(child.args) >= 2:
                named = child.args[1]
                if isinstance(named, ast.Constant) and named.value == attribute:
                    assigned = [child.args[0]]
            for owner in assigned:
                value = analysis.resolver.evaluate(owner, module_scope)
                if value.kind is base.kind and value.qualname == base.qualname and value.module == base.module:
                    return True
    return False


def _replaced_by_a_mock(analysis: Analysis, context: Context, target: ast.Attribute, scope: Scope) -> bool:
    """Whether a mock site of this test replaced the object whose attribute is
    assigned (then the mock's undo restores it, attribute and all)."""
    base_text, text = ast.unparse(target.value), ast.unparse(target)
    base = analysis.resolver.evaluate(target.value, scope)
    assigned = analysis.resolver.attribute(base, target.attr)
    owners = [*_set_ups_in_effect(context), *_methods_called_on_self(context)]
    for site in analysis.module.sites:
        if site.owner is not context and site.owner is not context.parent and site.owner not in owners:
            continue
        for replaced in site.targets:
            if replaced.text == base_text or base_text.startswith(replaced.text + "."):
                return True
            if site.owner in owners and _same_attribute(analysis, replaced, text, base, target.attr):
                return True  # patched by the set-up: the patcher's stop restores it
            for value in (base, assigned):
                if value.kind is replaced.value.kind and value.kind is not Kind.UNKNOWN \
                        and replaced.value.qualname == value.qualname and value.qualname:
                    return True
    return False


def _set_ups_in_effect(context: Context) -> list[Context]:
    """``set_ups_of(context)`` without the fixtures of the file that do not run
    for this test: not autouse, and requested neither by it nor by a fixture
    it requests (nox's ``run_nox`` fixture patching ``sys.argv`` restores
    nothing for a test that sets ``sys.argv`` without it)."""
    set_ups = set_ups_of(context)
    by_name: dict[str, Context] = {}
    for set_up in set_ups:
        node = set_up.node
        name = fixture_name(node) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
        if name is not None:
            by_name[name] = set_up
    def find(name: str) -> tuple[FunctionNode, None] | None:
        node = by_name[name].node if name in by_name else None
        return (node, None) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None

    wanted = {id(node) for node, _ in _requested_closure(context, find)}
    return [
        set_up for set_up in set_ups
        if not (isinstance(set_up.node, (ast.FunctionDef, ast.AsyncFunctionDef)) and is_fixture(set_up.node.decorator_list))
        or is_autouse(set_up.node) or id(set_up.node) in wanted
    ]


def _methods_called_on_self(context: Context) -> list[Context]:
    """The methods of the test's own class that it calls as ``self.name(...)``
    (``self._stub_update_mocks()``): what they patch is patched for the test."""
    owner = context.parent
    if owner is None or not isinstance(owner.node, ast.ClassDef) or context.self_name is None:
        return []
    called = {
        call.func.attr for call in context.calls
        if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
        and call.func.value.id == context.self_name
    }
    return [method for method in owner.children if method.is_function and method.name in called]


def _same_attribute(analysis: Analysis, replaced: Target, text: str, base: Value, attribute: str) -> bool:
    """Whether the patch target ``replaced`` names the attribute assigned as ``text``."""
    if replaced.text == text:
        return True
    owner_text, _, name = replaced.text.rpartition(".")
    if name != attribute or base.kind is Kind.UNKNOWN:
        return False
    owner = replaced.base if replaced.base is not None else analysis.resolver.resolve_dotted(owner_text)
    return owner.kind is base.kind and owner.qualname == base.qualname and owner.module == base.module


def _changes_nothing(analysis: Analysis, node: ast.AST, target: ast.Attribute, scope: Scope) -> bool:
    """``mod.X = 3`` (or ``= []``) where the module (or the class, or a base
    class of it) itself says ``X = 3`` (``X = []``), or ``Driver.conn =
    V1Connection`` where it says ``conn = V1Connection`` (the same class,
    function or module): the value is put back to what the code declares."""
    value = getattr(node, "value", None)
    if not isinstance(node, ast.Assign) or value is None:
        return False
    resolver = analysis.resolver
    base = resolver.evaluate(target.value, scope)
    if base.kind is Kind.EXTERNAL:  # a library's or the standard library's (``logging.logThreads = 1``)
        resolver = analysis.libraries.resolver
        base = resolver.resolve_dotted(base.qualname)
    if base.kind is Kind.CLASS and base.cls is not None:
        binding = next(
            (cls.members[target.attr] for cls in resolver.project_lineage(base.cls) if target.attr in cls.members), None,
        )
    elif base.kind is Kind.MODULE:
        info = resolver.index.get(base.module)
        binding = info.bindings.get(target.attr) if info is not None else None
    else:
        return False
    if binding is None:
        return False
    assigned = _literal(value)
    if assigned is _NOT_LITERAL:
        return _same_named_object(resolver.attribute(base, target.attr), analysis.resolver.evaluate(value, scope))
    declared = _literal(binding.value)
    if declared is _NOT_LITERAL or declared != assigned:
        return False
    return type(declared) is type(assigned) or {type(declared), type(assigned)} <= {bool, int}  # ``= 1`` for ``True``


def _same_named_object(declared: Value, assigned: Value) -> bool:
    """Whether both are the same class, function or module (not an object made anew)."""
    return declared.kind in (Kind.CLASS, Kind.FUNCTION, Kind.MODULE) and declared.kind is assigned.kind \
        and bool(declared.qualname) and (declared.module, declared.qualname) == (assigned.module, assigned.qualname)


_NOT_LITERAL = object()


def _literal(expr: ast.AST | None) -> object:
    """The value of a literal expression (a constant, or a list, tuple, dict or
    set of them); ``_NOT_LITERAL`` for anything else."""
    if expr is None:
        return _NOT_LITERAL
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and not expr.args and not expr.keywords:
        empty = _EMPTY_BY_CALL.get(expr.func.id)
        if empty is not None:
            return empty  # ``dict()``, ``list()``: the empty literal by another spelling
    try:
        return ast.literal_eval(expr)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _NOT_LITERAL


_EMPTY_BY_CALL: dict[str, object] = {"dict": {}, "list": [], "set": set(), "tuple": (), "frozenset": frozenset()}


def _installed_by_the_test(context: Context, cleanups: "_Cleanups", target: ast.Attribute) -> bool:
    """The object whose attribute is assigned was itself put in place by this test
    or its set-up (``rbd_utils.rbd = Mock()`` then ``rbd_utils.rbd.X = 1``)."""
    base_text = ast.unparse(target.value)
    scopes = [context.node]
    owner = context.parent
    if owner is not None and owner.class_info is not None:
        scopes += [s for s in getattr(owner.node, "body", []) if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
                   and s.name in SETUP_NAMES]
    for scope_node in scopes:
        for node in ast.walk(scope_node):
            if isinstance(node, ast.Assign) and any(ast.unparse(t) == base_text for t in node.targets):
                return True
    return False


def _reset_by_a_set_up(analysis: Analysis, context: Context, target: ast.Attribute, scope: Scope) -> bool:
    """Whether a set-up method of the test's class or of a project base class
    assigns the same attribute: then every test starts from that value. A
    set-up's own assignment is reset so only by a base class's set-up, or when
    its class has no tests (a base class of the suite's test cases). For a
    mixin (``Resolver.is_mixin``), every known class combining it must
    (Django's ``ExceptionReportTestMixin``, combined with ``SimpleTestCase``
    subclasses whose ``_pre_setup`` empties ``mail.outbox``)."""
    owner = context.parent
    if owner is None or owner.class_info is None:
        return False
    set_up = context.name in SETUP_NAMES
    if set_up and not any(child.is_function and child.name.startswith(TEST_PREFIX) for child in owner.children):
        return True  # a base class's set-up: it puts the value in place before every test built on it
    resolver = analysis.resolver
    base = resolver.evaluate(target.value, scope)
    if base.kind is Kind.UNKNOWN:
        return False
    if _set_up_assigns(resolver, owner.class_info, target.attr, base, own=not set_up):
        return True  # (a set-up's own assignment counts only when a base class's set-up assigns it again)
    if not resolver.is_mixin(owner.class_info):
        return False
    hosts = [
        host for host in analysis.known_subclasses().known(owner.class_info, analysis.module.info)
        if not resolver.is_mixin(host)
    ]
    return bool(hosts) and all(_set_up_assigns(resolver, host, target.attr, base) for host in hosts)


def _set_up_assigns(resolver: Resolver, cls: ClassInfo, attribute: str, base: Value, own: bool = True) -> bool:
    """Whether a set-up method of ``cls`` (unless not ``own``) or of a class
    above it assigns ``attribute`` of the object ``base``."""
    info = resolver.index.get(cls.module)
    classes = [(cls, info)] if own and info is not None else []
    for current, module in [*classes, *_classes_above(resolver, cls)]:
        for name in SETUP_NAMES:
            binding = current.members.get(name)
            if binding is None or binding.function is None:
                continue
            setup_scope = resolver.function_scope(binding.function, module, current)
            for node in ast.walk(binding.function):
                if isinstance(node, ast.Assign):
                    for assigned in node.targets:
                        if isinstance(assigned, ast.Attribute) and assigned.attr == attribute:
                            other = resolver.evaluate(assigned.value, setup_scope)
                            if other.kind is base.kind and other.qualname == base.qualname:
                                return True
    return False


def _reloaded_by_a_base_tear_down(analysis: Analysis, context: Context, target: ast.Attribute, scope: Scope) -> bool:
    """Whether the tear-down of a project base class of the test's class, at
    any depth, reloads the module ``target`` is an attribute of (python-swiftclient's
    ``MockHttpTest.tearDown`` runs ``importlib.reload(c)``): reloading runs the
    module's body again, so every name it binds is put back. Each base's call
    is read in that base's own module (its import names may differ)."""
    owner = context.parent
    if owner is None or owner.class_info is None:
        return False
    resolver = analysis.resolver
    module = resolver.evaluate(target.value, scope)
    if module.kind is not Kind.MODULE:
        return False
    for cls, info in _classes_above(resolver, owner.class_info):
        for name in CLASS_TEARDOWN_NAMES & cls.members.keys():
            function = cls.members[name].function
            if function is None:
                continue
            reloads = [
                call for call in ast.walk(function) if isinstance(call, ast.Call)
                and callee_name(call) in MODULE_RELOADERS and call.args
            ]
            if not reloads:
                continue
            tear_down_scope = resolver.function_scope(function, info, cls)
            reloaded = [resolver.evaluate(call.args[0], tear_down_scope) for call in reloads]
            if any(value.kind is Kind.MODULE and value.module == module.module for value in reloaded):
                return True
    return False


def _classes_above(resolver: Resolver, cls: ClassInfo) -> Iterator[tuple[ClassInfo, ModuleInfo]]:
    """The project classes ``cls`` is built on, at any depth (not ``cls``), with their modules."""
    for base in resolver.project_lineage(cls)[1:]:
        info = resolver.index.get(base.module)
        if info is not None:
            yield base, info


def _cleanup_on_same_module(target: ast.Attribute, visible: Cleanup) -> bool:
    """A cleanup callable registered on the same module (``addCleanup(mod._reset)``)."""
    parts = dotted_parts(target.value)
    root = parts[0] if parts else None
    return root is not None and any((dotted_parts(expr) or [""])[0] == root for expr in visible.registered)


def _clears_before_each_test(context: Context, node: ast.AST) -> bool:
    """Whether ``node`` removes a key (``del os.environ["K"]``, ``.pop("K")``) in
    the set-up of a test class, or in a method only its set-up calls, that
    another method of the class sets: it takes back, before each test, what
    the class's tests set (libcloud's ``_reset_environ``)."""
    changed = _keyed_change(node)
    cls = context.parent
    if changed is None or isinstance(node, ast.Assign) or cls is None or not isinstance(cls.node, ast.ClassDef):
        return False
    container, key = ast.unparse(changed[0]), changed[1]
    if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
        return False
    methods = [child for child in cls.children if child.is_function]
    set_ups = [method for method in methods if method.name in SETUP_NAMES]
    if context not in set_ups:
        callers = [method for method in methods if any(
            isinstance(call.func, ast.Attribute) and call.func.attr == context.name for call in method.calls
        )]
        if not callers or any(caller not in set_ups for caller in callers):
            return False
    return any(
        isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant) and target.slice.value == key.value
        and ast.unparse(target.value) == container
        for method in methods if method is not context
        for statement in method.statements if isinstance(statement, ast.Assign) for target in statement.targets
    )


_MONKEYPATCH_KEYED = frozenset({"setitem", "delitem"})
_MONKEYPATCH_ENV = frozenset({"setenv", "delenv"})


def _owned_by_monkeypatch(context: Context, node: ast.AST) -> bool:
    """Whether ``node`` changes a key that the test (``context`` or the test it is
    nested in) set or removed with ``monkeypatch.setitem/delitem`` or
    ``setenv/delenv`` on an earlier line: monkeypatch puts the key back at
    tear-down, whatever happened to it meanwhile (IPython's fake ``reload`` deleting the module the
    test had set in ``sys.modules``)."""
    changed = _keyed_change(node)
    if changed is None:
        return False
    container, key = ast.unparse(changed[0]), ast.unparse(changed[1])
    outer = context
    while outer.parent is not None and outer.parent.is_function:
        outer = outer.parent
    for call in walk(outer.node):
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
            continue
        name = call.func.attr
        if name in _MONKEYPATCH_KEYED and len(call.args) >= 2:
            owned = ast.unparse(call.args[0]), ast.unparse(call.args[1])
        elif name in _MONKEYPATCH_ENV and call.args and container.endswith("environ"):
            owned = container, ast.unparse(call.args[0])
        else:
            continue
        if owned == (container, key) and "monkeypatch" in ast.unparse(call.func.value) \
                and call.lineno < getattr(node, "lineno", 0):
            return True  # monkeypatch saw the value before this change: it puts that one back
    return False


def _keyed_change(node: ast.AST) -> tuple[ast.expr, ast.expr] | None:
    """The container and key that ``m[k] = v``, ``del m[k]`` or ``m.pop(k)``
    changes; None for anything else."""
    if isinstance(node, (ast.Assign, ast.Delete)) and len(node.targets) == 1 \
            and isinstance(node.targets[0], ast.Subscript):
        return node.targets[0].value, node.targets[0].slice
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "pop" and node.args:
        return node.func.value, node.args[0]
    return None


def _unimports_its_own_import(context: Context, node: ast.AST) -> bool:
    """Whether ``node`` deletes from ``sys.modules`` only modules the test
    itself imported (``import dmain`` in its body): by the module's name, or
    by a loop over ``sys.modules`` that picks names equal to, or starting
    with, such names (IPython's ``test_deepreload``). It takes back what the
    test's own import added."""
    changed = _keyed_change(node)
    if changed is None or isinstance(node, ast.Assign) or not ast.unparse(changed[0]).endswith("modules"):
        return False
    key = changed[1]
    imported = _imported_modules(context.node)
    if not imported:
        return False
    root = context
    while root.parent is not None:
        root = root.parent
    before = _imported_modules(root.node, top_level=True)  # there before the test ran: deleting loses them
    if isinstance(key, ast.Constant):
        return key.value in imported and key.value not in before
    if not isinstance(key, ast.Name):
        return False
    for loop in walk(context.node):
        if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name) and loop.target.id == key.id
                and "modules" in ast.unparse(loop.iter) and any(node is inner for inner in walk(loop))):
            continue
        picked: list[str] = []
        for guard in walk(loop):
            if isinstance(guard, ast.If) and key.id in {n.id for n in ast.walk(guard.test) if isinstance(n, ast.Name)}:
                names = _names_picked(guard.test, key.id)
                if names is None:
                    return False  # picked by something else too (``mod in blocklist``): any module
                picked += names
        return bool(picked) and all(
            any(name == p or name.startswith(p) for name in imported)
            and not any(name == p or name.startswith(p) for name in before)
            for p in picked
        )
    return False


def _drops_a_module_no_file_makes(analysis: Analysis, node: ast.AST) -> bool:
    """Whether ``node`` deletes from ``sys.modules`` a module by a name that no
    file of the project, of the folder the tests import from, of the standard
    library or of an installed library has: only something the tests ran put
    it there (the code under test importing from a folder it added to
    ``sys.path``, as Sphinx's autodoc does, or a test's fake module), so taking
    it out is cleanup, and no later test can have relied on it being there."""
    changed = _keyed_change(node)
    if changed is None or isinstance(node, ast.Assign) or not ast.unparse(changed[0]).endswith("modules"):
        return False
    key = changed[1]
    if not (isinstance(key, ast.Constant) and isinstance(key.value, str)
            and all(part.isidentifier() for part in key.value.split("."))):
        return False  # no module's name (nor a path to look at on the machine)
    top = key.value.partition(".")[0]
    if top in sys.stdlib_module_names or top in sys.builtin_module_names:
        return False
    if any(index.locate(key.value) is not None for index in (analysis.resolver.index, analysis.libraries.resolver.index)):
        return False
    tracker = analysis.memo.tracker
    folder = resolved(Path(analysis.path)).parent
    while is_file(folder / "__init__.py", tracker) and folder.parent != folder:
        folder = folder.parent  # pytest's default import mode puts the first folder outside the packages on sys.path
    return not (is_file(folder / f"{top}.py", tracker) or is_file(folder / top / "__init__.py", tracker))


def _imported_modules(node: ast.AST, top_level: bool = False) -> set[str]:
    """The absolute modules ``node`` imports (``top_level``: its own statements only)."""
    found: set[str] = set()
    for inner in (getattr(node, "body", []) if top_level else walk(node)):
        if isinstance(inner, ast.Import):
            found.update(alias.name for alias in inner.names)
        elif isinstance(inner, ast.ImportFrom) and inner.module and not inner.level:
            found.add(inner.module)
    return found


def _names_picked(test: ast.expr, key: str) -> list[str] | None:
    """The module names (or prefixes) a guard over ``key`` picks, when each of
    its ``or`` operands is ``key == "name"``, ``key in ("a", "b")`` or
    ``key.startswith("prefix")``; None when any operand is something else."""
    operands = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) else [test]
    picked: list[str] = []
    for operand in operands:
        if isinstance(operand, ast.Compare) and isinstance(operand.left, ast.Name) and operand.left.id == key \
                and len(operand.ops) == 1 and isinstance(operand.ops[0], (ast.Eq, ast.In)):
            compared = operand.comparators[0]
            items = compared.elts if isinstance(compared, (ast.Tuple, ast.List, ast.Set)) else [compared]
        elif isinstance(operand, ast.Call) and isinstance(operand.func, ast.Attribute) \
                and operand.func.attr == "startswith" and isinstance(operand.func.value, ast.Name) \
                and operand.func.value.id == key and len(operand.args) == 1:
            argument = operand.args[0]
            items = argument.elts if isinstance(argument, ast.Tuple) else [argument]
        else:
            return None
        if not all(isinstance(item, ast.Constant) and isinstance(item.value, str) for item in items):
            return None
        picked += [item.value for item in items if isinstance(item, ast.Constant) and isinstance(item.value, str)]
    return picked


def _mutations(context: Context) -> Iterator[ast.AST]:
    for statement in context.statements:
        if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Delete)):
            yield statement
    yield from context.calls


SHARED_NAMES = frozenset({"environ", "modules", "putenv", "unsetenv"})


def _may_mutate_shared_state(node: ast.AST, context: Context) -> bool:
    """A cheap syntactic filter before anything is resolved: the statement
    touches something named environ/modules, or assigns an attribute of a
    module-level name."""
    if isinstance(node, ast.Call):
        func = node.func
        if not isinstance(func, ast.Attribute):
            return False
        if func.attr in ("putenv", "unsetenv"):
            return True
        return func.attr in CONTAINER_METHODS and (dotted_parts(func.value) or [""])[-1] in SHARED_NAMES
    targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [getattr(node, "target", None)]
    for target in targets:
        if isinstance(target, ast.Subscript) and (dotted_parts(target.value) or [""])[-1] in SHARED_NAMES:
            return True
        if isinstance(target, ast.Attribute) and _module_level_root(target.value, context) \
                and not isinstance(node, ast.Delete):
            return True
    return False


def _evaluates_to(analysis: Analysis, expr: ast.expr, scope: Scope, qualname: str) -> bool:
    value = analysis.resolver.evaluate(expr, scope)
    return value.kind is Kind.EXTERNAL and value.qualname == qualname


def _classify(analysis: Analysis, node: ast.AST, scope: Scope) -> tuple[_Shared | None, ast.Attribute | None]:
    """Which shared state ``node`` changes: (os.environ / sys.modules, None), (None,
    the module or class attribute it assigns), or (None, None)."""
    for shared in (_ENVIRON, _MODULES):
        if _changes(analysis, node, scope, shared.qualname):
            return shared, None
    if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if isinstance(target, ast.Attribute) and _is_imported_namespace(analysis, target.value, scope):
                return None, target
    return None, None



def _through_a_reassigned_attribute(analysis: Analysis, context: Context, node: ast.AST) -> bool:
    """Whether the shared state ``node`` changes is reached through an attribute
    of an object the test holds (``tools.os.environ``) that the test, its
    set-up, or the fixture making the object (or one it overrides) assigns
    (``tools.os = MagicMock(spec_set=os)``): the class's default (``os = os``)
    is then not what the test changes."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        reached: ast.expr = node.func.value
    else:
        targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [getattr(node, "target", None)]
        subscripts = [t for t in targets if isinstance(t, ast.Subscript)]
        if not subscripts:
            return False
        reached = subscripts[0].value
    parts = dotted_parts(reached)
    if parts is None or len(parts) < 3:
        return False
    between = set(parts[1:-1])
    bodies: list[ast.AST] = [context.node]
    if parts[0] in ("self", "cls"):
        bodies += [set_up.node for set_up in set_ups_of(context)]
    module = analysis.module
    if parts[0] in context.params and module.fixtures is not None and module.directory is not None:
        bodies += [function for function, _ in module.fixtures.overriding_chain(parts[0], module.info, module.directory)]
    return any(
        isinstance(assigned, ast.Attribute) and assigned.attr in between and isinstance(assigned.ctx, ast.Store)
        for body in bodies for assigned in ast.walk(body)
    )


def _module_level_root(expr: ast.expr, context: Context) -> bool:
    """Whether ``expr`` is a dotted name rooted in a module-level name (an import),
    not in a local, a parameter or a name imported inside the test (which may be
    a fake module the test put in sys.modules)."""
    parts = dotted_parts(expr)
    if parts is None:
        return False
    root = parts[0]
    local = root in context.params or root in context.assigns or root in context.stored or root in context.imports
    return not local


def _changes(analysis: Analysis, node: ast.AST, scope: Scope, qualname: str) -> bool:
    if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
        targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
        return any(
            isinstance(t, ast.Subscript) and _evaluates_to(analysis, t.value, scope, qualname) for t in targets
        )
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr in CONTAINER_METHODS and _evaluates_to(analysis, node.func.value, scope, qualname):
            return True
        if qualname == "os.environ" and node.func.attr in ("putenv", "unsetenv"):
            return _evaluates_to(analysis, node.func, scope, f"os.{node.func.attr}")
    return False


def _is_imported_namespace(analysis: Analysis, expr: ast.expr, scope: Scope) -> bool:
    value = analysis.resolver.evaluate(expr, scope)
    if value.kind not in (Kind.MODULE, Kind.CLASS, Kind.EXTERNAL):
        return False
    if value.kind is Kind.EXTERNAL:  # an outside module or class (not an object made by a call)
        if "(" in value.qualname:
            return False
        if "." not in value.qualname:
            return True
        libraries = analysis.libraries.resolver
        if libraries.index.locate(value.qualname.partition(".")[0]) is None:
            # a library this environment lacks: a name the module imports from it is
            # shared by every test, whatever the import gave (``from stevedore import driver``)
            binding = scope.module.bindings.get(expr.id) if isinstance(expr, ast.Name) else None
            return binding is not None and binding.kind == "import"
        outside = libraries.resolve_dotted(value.qualname)  # ``argparse.ArgumentParser``, ``os.path``
        return outside.kind in (Kind.MODULE, Kind.CLASS)
    return value.module != analysis.module.info.name  # not something the test module itself defines


def _managers_cleanup(analysis: Analysis, visible: Cleanup, scope: Scope, node: ast.AST) -> list[ast.AST]:
    """The ``finally``/after-``yield`` code of the ``@contextmanager`` functions
    whose ``with`` blocks enclose ``node``: what leaving those blocks runs."""
    line = getattr(node, "lineno", 0)
    regions: list[ast.AST] = []
    for first, last, manager in visible.guarded:
        if first <= line <= last and isinstance(manager, ast.Call):
            value = analysis.resolver.evaluate(manager.func, scope)
            if value.kind is Kind.FUNCTION and value.function is not None:
                regions += _function_cleanup(value.function).nodes
            elif value.kind is Kind.CLASS and value.cls is not None:  # a class: what its __exit__ runs
                exit_method = analysis.resolver.attribute(value, "__exit__")
                if exit_method.kind is Kind.FUNCTION and exit_method.function is not None:
                    regions.append(exit_method.function)
    return regions


def _restores_shared(analysis: Analysis, shared: _Shared, visible: Cleanup, scope: Scope, node: ast.AST) -> bool:
    line = getattr(node, "lineno", 0)
    for first, last, manager in visible.guarded:
        if first <= line <= last and _patches_dict(analysis, manager, scope, shared.qualname):
            return True
    regions: list[ast.AST] = [*visible.nodes, *visible.registered, *_managers_cleanup(analysis, visible, scope, node)]
    rebound = {id(target) for region in regions for target in _rebindings(region, shared.qualname)}
    if any(
        _changes(analysis, child, scope, shared.qualname) or (_mentions(child, shared.qualname) and id(child) not in rebound)
        for region in regions for child in ast.walk(region)
    ):
        return True
    return any(
        first <= line <= last and _manager_restores(analysis, manager, scope, shared.qualname)
        for first, last, manager in visible.guarded
    )


def _rebindings(region: ast.AST, qualname: str) -> Iterator[ast.expr]:
    """The targets of ``os.environ = saved`` (``qualname`` spelt out) in
    ``region``: that rebinds the module's name, to a copy that is a plain dict,
    and puts nothing back in the process's environment (``putenv``) or the
    interpreter's table of modules (docker 6.1.3's ``tearDown``)."""
    for child in ast.walk(region):
        if isinstance(child, ast.Assign):
            yield from (target for target in child.targets if _mentions(target, qualname))


def _manager_restores(analysis: Analysis, manager: ast.expr, scope: Scope, qualname: str, depth: int = 0) -> bool:
    """Whether leaving ``with manager`` puts the whole of ``os.environ``/``sys.modules``
    (``qualname``) back: ``patch.dict`` of it, a class whose ``__exit__`` does
    (``clear()`` and ``update()``), or a generator function (a ``@contextmanager``)
    that does after its ``yield`` or wraps the ``yield`` in such a manager, up
    to ``_MANAGER_DEPTH`` managers deep."""
    if _patches_dict(analysis, manager, scope, qualname):
        return True
    if not isinstance(manager, ast.Call) or depth >= _MANAGER_DEPTH:
        return False
    resolver = analysis.resolver
    value = resolver.evaluate(manager.func, scope)
    if value.kind is Kind.CLASS and value.cls is not None:
        value = resolver.attribute(value, "__exit__")
        if value.kind is not Kind.FUNCTION or value.function is None:
            return False
        inner = _scope_of(analysis, value, scope.module)
        return inner is not None and any(
            _restores_whole(analysis, child, inner, qualname) for child in ast.walk(value.function)
        )
    if value.kind is Kind.FUNCTION and value.function is not None:
        inner = _scope_of(analysis, value, scope.module)
        return inner is not None and _restores_around_yield(analysis, value.function, inner, qualname, depth + 1)
    return False


_MANAGER_DEPTH = 3  # ``with helper():`` -> ``with EnvVars():`` inside it -> its ``__exit__``


def _scope_of(analysis: Analysis, function: Value, home: ModuleInfo) -> Scope | None:
    """Name lookup inside the project or library function ``function``
    (``home``: the module naming it, which may be the one defining it, a
    conftest the index does not hold)."""
    if function.function is None:
        return None
    info = home if function.module == home.name else analysis.resolver.index.get(function.module)
    if info is None:
        return analysis.resolver.module_scope(function.module)
    return analysis.resolver.function_scope(function.function, info, None)


def _restores_around_yield(
    analysis: Analysis, function: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope, qualname: str, depth: int = 0,
) -> bool:
    """Whether the generator ``function`` (a fixture, a ``@contextmanager``) puts
    the whole of ``qualname`` back once its ``yield`` returns: in its own code
    after the ``yield`` or in a ``finally``, or through a ``with`` around the
    ``yield`` whose manager does (``_manager_restores``)."""
    if any(
        _restores_whole(analysis, child, scope, qualname) or _restores_key_by_key(analysis, child, scope, qualname)
        for region in _function_cleanup(function).nodes for child in ast.walk(region)
    ):
        return True
    return any(
        _manager_restores(analysis, item.context_expr, scope, qualname, depth)
        for node in ast.walk(function) if isinstance(node, (ast.With, ast.AsyncWith))
        and any(isinstance(child, (ast.Yield, ast.YieldFrom)) for child in ast.walk(node))
        for item in node.items
    )


def _entering_a_restoring_manager(analysis: Analysis, context: Context, scope: Scope, qualname: str) -> bool:
    """Whether ``context`` is the ``__enter__`` of a class whose ``__exit__`` puts
    the whole of ``qualname`` back, or a method that ``__enter__`` calls as
    ``self.name(...)``: leaving the ``with`` undoes what entering did."""
    owner = context.parent
    if owner is None or not isinstance(owner.node, ast.ClassDef):
        return False
    entering = [m for m in owner.node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name in ENTER_METHODS]
    called_on_entry = {_own_method(call.func) for m in entering for call in ast.walk(m) if isinstance(call, ast.Call)}
    if context.name not in ENTER_METHODS and context.name not in called_on_entry:
        return False  # the ``__enter__``, or a method it calls (Twisted's ``SetAsideModule._unimport``)
    return any(
        isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and method.name in EXIT_METHODS
        and any(_restores_whole(analysis, child, scope, qualname) for child in ast.walk(method))
        for method in owner.node.body
    )


def _restored_by_a_requested_fixture(analysis: Analysis, context: Context, qualname: str) -> bool:
    """Whether a per-test fixture the test (or fixture) ``context`` requests by a
    parameter puts the whole of ``qualname`` back after the test
    (``_restores_around_yield``: ``with EnvVars(...): yield``)."""
    module = analysis.module
    if module.fixtures is None or module.directory is None:
        return False
    fixtures = module.fixtures
    directory = module.directory

    def find(name: str) -> tuple[FunctionNode, ModuleInfo] | None:
        found = fixtures.find(name, module.info, directory)
        return found if found is not None and _per_test(found[0]) else None

    for function, info in _requested_closure(context, find):
        scope = analysis.resolver.function_scope(function, info, None)
        if _restores_around_yield(analysis, function, scope, qualname) or _mocker_patches_dict(
            analysis, function, scope, qualname
        ):
            return True
    return False


_Found = TypeVar("_Found", ModuleInfo, None)


def _requested_closure(
    context: Context, find: Callable[[str], tuple[FunctionNode, _Found] | None],
) -> Iterator[tuple[FunctionNode, _Found]]:
    """The fixtures ``context`` requests (``_requested_fixtures``) that ``find``
    knows, then those they request in turn, ``_FIXTURE_DEPTH`` deep: a fixture
    a requested one requests is set up and torn down with it."""
    pending = [(name, 0) for name in _requested_fixtures(context)]
    seen: set[str] = set()
    while pending:
        name, depth = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        found = find(name)
        if found is None:
            continue
        yield found
        if depth < _FIXTURE_DEPTH:
            signature: ast.arguments = found[0].args
            pending.extend((a.arg, depth + 1) for a in [*signature.posonlyargs, *signature.args, *signature.kwonlyargs])


_FIXTURE_DEPTH = 3  # how many fixtures deep the fixtures a test requests are followed


def _requested_fixtures(context: Context) -> list[str]:
    """The fixtures a test (or fixture) requests: its parameters, and the names
    a ``usefixtures`` mark gives it, on itself, on its classes (as a decorator
    or their ``pytestmark``) or on its module (``pytestmark``)."""
    names = list(context.params)
    marks: list[ast.expr] = []
    current: Context | None = context
    root = context
    while current is not None:
        marks.extend(getattr(current.node, "decorator_list", []))
        body = getattr(current.node, "body", None)
        if isinstance(current.node, (ast.ClassDef, ast.Module)) and isinstance(body, list):
            marks.extend(
                statement.value for statement in body if isinstance(statement, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == PYTESTMARK for t in statement.targets)
            )
        root = current
        current = current.parent
    for mark in list(marks):  # a mark the module names (IPython's ``with_environment = pytest.mark.usefixtures(...)``)
        if isinstance(mark, ast.Name):
            marks.extend(root.assigns.get(mark.id, []))
    for mark in marks:
        for call in ast.walk(mark):
            if isinstance(call, ast.Call) and callee_name(call) == USEFIXTURES_MARKER:
                names.extend(a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str))
    return names


def _mocker_patches_dict(
    analysis: Analysis, function: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope, qualname: str,
) -> bool:
    """Whether the fixture ``function`` patches the whole of ``qualname`` with
    pytest-mock (``mocker.patch.dict(sys.modules, {...})``): the mocker fixture
    puts it back when the test's fixtures are torn down."""
    params = {a.arg for a in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs)}
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and callee_name(node) == "dict":
            root = dotted_parts(node.func)
            if root and root[0] in params and root[0] in MOCKER_FIXTURES and root[1:-1] == ["patch"] \
                    and _patches_dict(analysis, node, scope, qualname):
                return True
    return False


def _patches_dict(analysis: Analysis, manager: ast.expr, scope: Scope, qualname: str) -> bool:
    if not isinstance(manager, ast.Call) or not manager.args:
        return False
    if callee_name(manager) != "dict":  # patch.dict by any spelling
        return False
    first = manager.args[0]
    if isinstance(first, ast.Constant) and first.value == qualname:
        return True
    return _evaluates_to(analysis, first, scope, qualname)


def _mentions(node: ast.AST, qualname: str) -> bool:
    return isinstance(node, ast.Attribute) and ast.unparse(node) == qualname


def _restores_attribute(
    analysis: Analysis, target: ast.Attribute, visible: Cleanup, scope: Scope, node: ast.AST
) -> bool:
    text = ast.unparse(target)
    base, attribute = ast.unparse(target.value), target.attr
    module = _module_of(analysis, target, scope)
    for region in [*visible.nodes, *visible.registered, *_managers_cleanup(analysis, visible, scope, node)]:
        for child in ast.walk(region):
            if isinstance(child, (ast.Assign, ast.AugAssign, ast.Delete)):  # put back, or an added name taken away
                targets = _unpacked(child.targets if isinstance(child, (ast.Assign, ast.Delete)) else [child.target])
                if any(ast.unparse(t) == text or _whole_slice_of(t, text) for t in targets):
                    return True
                if any(isinstance(t, ast.Attribute) and t.attr == attribute
                       and _same_module(analysis, t.value, target.value, scope) for t in targets):
                    return True  # ``os.environ = saved`` puts back ``manager.os.environ``
            if isinstance(child, ast.Call) and callee_name(child) in ("setattr", "delattr"):
                args = [ast.unparse(a) for a in child.args[:2]]
                if args[:1] == [base] and len(child.args) > 1 and isinstance(child.args[1], ast.Constant) \
                        and child.args[1].value == attribute:
                    return True
            if isinstance(child, ast.Name) and child.id == "setattr" and region in visible.registered:
                return True
            if isinstance(child, ast.Call) and callee_name(child) in MODULE_RELOADERS and child.args \
                    and _same_module(analysis, child.args[0], target.value, scope):
                return True  # reloading the module runs its body again: every name it binds is put back
            if isinstance(child, ast.Call) and _resets_the_global(analysis, child.func, module, attribute, scope):
                return True
        if region in visible.registered and _resets_the_global(analysis, region, module, attribute, scope):
            return True  # ``self.addCleanup(recorder.reset_collector)``
    return False


def _module_of(analysis: Analysis, target: ast.Attribute, scope: Scope) -> str | None:
    """The module whose global ``target`` (``recorder._collector``) names, if it names one."""
    if not isinstance(target.value, (ast.Name, ast.Attribute)):
        return None
    owner = analysis.resolver.evaluate(target.value, scope)
    return owner.module if owner.kind is Kind.MODULE else None


def _resets_the_global(analysis: Analysis, callee: ast.expr, module: str | None, name: str, scope: Scope) -> bool:
    """Whether ``callee`` is a function of ``module`` that sets its global
    ``name`` (``recorder.reset_collector()``, whose body does ``global
    _collector; _collector = None``): calling it puts the module's name back."""
    if module is None or not isinstance(callee, (ast.Name, ast.Attribute)):
        return False
    function = analysis.resolver.evaluate(callee, scope)
    return function.kind is Kind.FUNCTION and function.module == module and function.owner is None \
        and function.function is not None and _assigns_global(function.function, name)


def _unpacked(targets: list[ast.expr]) -> list[ast.expr]:
    """``targets`` with tuple and list targets opened up: ``(mod.a, mod.b) =
    saved`` assigns ``mod.a`` and ``mod.b`` (IPython's ``environment`` fixture)."""
    found: list[ast.expr] = []
    pending = list(targets)
    while pending:
        target = pending.pop()
        if isinstance(target, (ast.Tuple, ast.List)):
            pending.extend(target.elts)
        elif isinstance(target, ast.Starred):
            pending.append(target.value)
        else:
            found.append(target)
    return found


def _whole_slice_of(target: ast.expr, text: str) -> bool:
    """Whether ``target`` is ``text[:]``: assigning it puts the contents back
    (``sys.path[:] = self.originalPath`` in a tear-down)."""
    return isinstance(target, ast.Subscript) and _whole_slice(target) and ast.unparse(target.value) == text


def _whole_slice(target: ast.expr) -> bool:
    """Whether ``target`` is ``something[:]``."""
    return isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Slice) \
        and target.slice.lower is None and target.slice.upper is None and target.slice.step is None


def _same_module(analysis: Analysis, reloaded: ast.expr, owner: ast.expr, scope: Scope) -> bool:
    """Whether ``reloaded`` and ``owner`` name the same module, the project's
    or a library's (``manager.os`` is ``os``)."""
    if ast.unparse(reloaded) == ast.unparse(owner):
        return True
    one, other = analysis.resolver.evaluate(reloaded, scope), analysis.resolver.evaluate(owner, scope)
    if one.kind is Kind.MODULE and other.kind is Kind.MODULE:
        return one.module == other.module
    return one.kind is Kind.EXTERNAL and other.kind is Kind.EXTERNAL and one.qualname == other.qualname \
        and analysis.libraries.resolver.resolve_dotted(one.qualname).kind is Kind.MODULE


# A patcher, os.environ or sys.modules by any spelling, setattr, or an
# assignment on one line to an attribute of a name other than self/cls
# (``mod.NAME = ...``, ``+=``, annotated): what the rules can report on.
CHANGES_SHARED_STATE = re.compile(
    rb"mock|Mock|patch|environ|modules|putenv|unsetenv|setattr"
    rb"|(?<![\w.])(?!self\b|cls\b)[A-Za-z_]\w*(?:[ \t]*\.[ \t]*\w+)+[ \t]*(?::[^=\n]*)?(?:[-+*/%&|^@]|//|\*\*|>>|<<)?=(?!=)"
)

FAMILY = Family("hygiene", (LEAKED_PATCHER, UNRESTORED_ENVIRON, UNRESTORED_SYS_MODULES, UNRESTORED_ATTRIBUTE), check, CHANGES_SHARED_STATE)
