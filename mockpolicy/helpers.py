"""The project's own patching helpers, read statically.

A helper is a function or method whose body makes a patch from its own
parameters and hands it on: returns the patcher, starts it, registers it, or
enters it around a ``yield`` or around code of its own (the mock lasts while
the helper runs what the caller handed it); or one returning its only patch, of a target
fixed by constants, unstarted (a factory: ``patch_display_util()``); or a
method taking nothing but its instance that applies its only patch, of a
fixed target (it sets the test calling it up: ``self._test_get_samples()``).
``TestCase.mock_object(obj, attr, new=None, **kw)`` doing
``patch.object(obj, attr, new, **kw).start()`` plus
``addCleanup(patcher.stop)`` is the common one. A call of a helper is a mock
site: the mocking call the helper makes, with the caller's arguments put in
place of its parameters (``Helper.call_for``). A helper that calls another
helper with its parameters is followed ``MAX_WRAPPING`` levels deep.

The ``mock-helpers`` option names helpers that cannot be read (outside the
project, or patching in a way not followed); a call of one is read by its shape
as ``patch.object(obj, "name", ...)`` or ``patch("dotted.target", ...)``.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from mockpolicy.deps import Deps, digest
from mockpolicy.functions import FunctionNode, decorator_names, dotted_parts, import_bindings, own_nodes
from mockpolicy.index import SummaryStore
from mockpolicy.project import Project
from mockpolicy.resolve import BUILTIN_NAMES, Resolver
from mockpolicy.symbols import ClassInfo, Kind, ModuleInfo, Scope, Value
from mockpolicy.vocabulary import (
    ASSERTION_PREFIXES,
    FIXTURE_SET_UP,
    MOCK_MODULE,
    MOCKER_FIXTURES,
    MOCKER_ROOT,
    MONKEYPATCH_FIXTURE,
    MONKEYPATCH_ROOT,
    PATCHER_START,
    SETUP_NAMES,
    SITE_CALLEES,
    TEARDOWN_NAMES,
    TEST_PREFIX,
    Callee,
    SiteKind,
    callee_name,
    canonical,
)

MAX_WRAPPING = 2  # a helper calling a helper calling the patch
HELPER_KINDS: frozenset[SiteKind] = frozenset({"patch", "patch.object", "patch.multiple", "setattr", "delattr"})
# What stands for a value the helper computes itself (a local, a reassigned
# parameter): a name nothing binds, so it evaluates to unknown.
OPAQUE = "__mockpolicy_helper_value__"
# What stands for a parameter the caller left out and the helper then fills
# itself (``if not new: new = mock.Mock()``): the argument is left out of the
# mocking call too, which then reads as a patch with a MagicMock of its own.
OMITTED = "__mockpolicy_helper_default__"
ENTERING = frozenset({"enterContext", "enter_context"})  # TestCase.enterContext, ExitStack.enter_context
Handing = Literal["applies", "returns", "encloses"]  # what a helper does with its patch: see ``_handed``
BINDING_DECORATORS = frozenset({"classmethod"})  # bound to the class, like a method to the instance


@dataclass(frozen=True)
class TableHelper:
    """A helper patching every name of a table it is given: ``{obj: ["name",
    ("name", "alias"), ...]}``, each ``patch.object(obj, "name", ...)``
    (horizon's ``create_mocks`` decorator). ``position`` and ``parameter`` say
    where a call passes the table; ``keywords`` are the patch's own constants."""

    qualname: str
    position: int | None
    parameter: str
    keywords: tuple[ast.keyword, ...] = ()

    def patches(self, call: ast.Call) -> list[tuple[ast.expr, str]]:
        """The (object, attribute name) pairs ``call`` of the helper patches."""
        table: ast.expr | None = next((k.value for k in call.keywords if k.arg == self.parameter), None)
        if table is None and self.position is not None and len(call.args) > self.position:
            table = call.args[self.position]
        if not isinstance(table, ast.Dict):
            return []
        found: list[tuple[ast.expr, str]] = []
        for owner, names in zip(table.keys, table.values):
            if owner is None or not isinstance(names, (ast.List, ast.Tuple, ast.Set)):
                continue
            for element in names.elts:
                if isinstance(element, ast.Tuple) and element.elts:
                    element = element.elts[0]  # ("name", "alias"): the alias only names the mock
                if isinstance(element, ast.Constant) and isinstance(element.value, str):
                    found.append((owner, element.value))
        return found


@dataclass(frozen=True)
class Helper:
    """One helper: the mocking call it makes, written in its parameters."""

    qualname: str
    entry: Callee
    template: ast.Call
    positional: tuple[str, ...]  # parameters a caller fills by position, the bound one excluded
    named: frozenset[str]
    defaults: dict[str, ast.expr] = field(default_factory=dict, compare=False)
    vararg: str | None = None
    kwarg: str | None = None
    hands_patcher: bool = False  # returns the patcher unstarted: the caller starts or enters it
    function: FunctionNode | None = field(default=None, compare=False)  # the helper's own definition
    fixed: bool = False  # patches a target of its own, whatever the caller passes (a factory of one patch)
    # a method's name for its instance when the template reads attributes of it (``self.reverter``):
    # a call puts its receiver there (``self`` of ``self.helper(...)``)
    instance: str | None = None

    def call_for(self, call: ast.Call) -> ast.Call | None:
        """The mocking call that ``call`` of this helper makes, at ``call``'s place;
        None when the arguments cannot be matched to the parameters, or the
        target is an object the helper makes itself (the caller left it out)."""
        bound: dict[str, ast.expr] = {}
        extra_args: list[ast.expr] = []
        extra_keywords: list[ast.keyword] = []
        for position, argument in enumerate(call.args):
            if isinstance(argument, ast.Starred):
                return None
            if position < len(self.positional):
                bound[self.positional[position]] = argument
            elif self.vararg is not None:
                extra_args.append(argument)
            else:
                return None
        for keyword in call.keywords:
            if keyword.arg is not None and keyword.arg in self.named and keyword.arg not in bound:
                bound[keyword.arg] = keyword.value
            elif self.kwarg is not None:
                extra_keywords.append(keyword)
            else:
                return None
        for name, default in self.defaults.items():
            bound.setdefault(name, default)
        if self.instance is not None:
            bound[self.instance] = call.func.value if isinstance(call.func, ast.Attribute) else ast.Name(
                id=OPAQUE, ctx=ast.Load())
        made = _substitute(self.template, bound, self.vararg, extra_args, self.kwarg, extra_keywords)
        for role in ("target", "attribute") if self.entry.kind == "patch.object" else ("target",):
            given = self.entry.argument(made, role) if made is not None else None
            if (isinstance(given, ast.Name) and given.id in (OPAQUE, OMITTED)) or (made is not None and given is None):
                return None  # the helper patches an object (or a name) of its own: its body is the site
        if made is not None and self.entry.kind == "patch.object" and not self._takes_its_object():
            attribute = self.entry.argument(made, "attribute")
            if not (isinstance(attribute, ast.Constant) and isinstance(attribute.value, str)):
                return None  # only the name is the caller's, and it is not written out: the body is the site
        if made is not None:
            ast.copy_location(made, call)
            made.end_lineno, made.end_col_offset = call.end_lineno, call.end_col_offset
        return made

    def _takes_its_object(self) -> bool:
        """Whether the object the helper patches comes from its parameters."""
        target = self.entry.argument(self.template, "target")
        parameters = self.named | {name for name in (self.vararg, self.kwarg) if name}
        return target is not None and any(
            isinstance(node, ast.Name) and node.id in parameters for node in ast.walk(target)
        )


def _substitute(
    template: ast.Call, bound: dict[str, ast.expr], vararg: str | None, extra_args: list[ast.expr],
    kwarg: str | None, extra_keywords: list[ast.keyword],
) -> ast.Call | None:
    substitution = _Substitution(bound)
    put = substitution.put
    args: list[ast.expr] = []
    for argument in template.args:
        if isinstance(argument, ast.Starred) and isinstance(argument.value, ast.Name) and argument.value.id == vararg:
            args.extend(extra_args)
        else:
            args.append(put(argument))
    # a trailing argument left out: the callee's own default applies; but for
    # ``setattr`` the value is what the helper made (``setattr(path, value)``)
    while args and _omitted(args[-1]) and callee_name(template.func) != "setattr":
        args.pop()
    args = [ast.Name(id=OPAQUE, ctx=ast.Load()) if _omitted(a) else a for a in args]
    keywords: list[ast.keyword] = []
    for keyword in template.keywords:
        if keyword.arg is None and isinstance(keyword.value, ast.Name) and keyword.value.id == kwarg:
            keywords.extend(extra_keywords)
        else:
            value = put(keyword.value)
            if not _omitted(value):
                keywords.append(ast.keyword(arg=keyword.arg, value=value))
    if substitution.missing:
        return None
    return ast.Call(func=template.func, args=args, keywords=keywords)


class _Substitution:
    """A helper's parameters replaced by what one call gives them; ``missing``
    once a parameter the call does not give was met. (An object, not a
    recursive closure: the CLI runs without the cyclic collector.)"""

    def __init__(self, bound: dict[str, ast.expr]) -> None:
        self.bound = bound
        self.missing = False

    def put(self, expr: ast.expr) -> ast.expr:
        put = self.put
        if isinstance(expr, ast.Name):
            if expr.id in (OPAQUE, OMITTED):
                return expr
            if expr.id in self.bound:
                return self.bound[expr.id]
            self.missing = True
            return expr
        if isinstance(expr, ast.Attribute):
            return ast.Attribute(value=put(expr.value), attr=expr.attr, ctx=ast.Load())
        if isinstance(expr, ast.BinOp):  # a target spelt from parameters (``_spelt_from``)
            return ast.BinOp(left=put(expr.left), op=expr.op, right=put(expr.right))
        if isinstance(expr, ast.Tuple):
            return ast.Tuple(elts=[put(element) for element in expr.elts], ctx=ast.Load())
        if isinstance(expr, ast.JoinedStr):
            return ast.JoinedStr(values=[
                ast.FormattedValue(value=put(value.value), conversion=-1, format_spec=None)
                if isinstance(value, ast.FormattedValue) else value
                for value in expr.values
            ])
        return expr  # constants, and what the helper made itself (opaque already)


def _omitted(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Name) and expr.id == OMITTED


@dataclass(eq=False)
class _Reading:
    """One helper body being read."""

    function: FunctionNode
    module: ModuleInfo
    params: set[str]
    reassigned: set[str]
    aliases: dict[str, str]
    nodes: list[ast.AST]  # of the body, nested definitions not entered
    spread: dict[int, ast.Call] = field(default_factory=dict)  # calls given a list of parameters, written out
    instance: str | None = None  # a method's name for its instance (``self``), unless reassigned


# The last names of the calls a helper may patch with (patch, patch.object,
# patch.multiple, monkeypatch.setattr/delattr in any spelling, and the
# ``fixtures`` package's mock fixtures, which a helper installs with ``useFixture``).
PATCHING_NAMES = frozenset({
    "patch", "object", "multiple", "setattr", "delattr", "MockPatch", "MockPatchObject", "MockPatchMultiple",
    "MonkeyPatch",
})


def _bound_scope(reading: _Reading, owner: ClassInfo | None) -> Scope:
    """Where a helper's calls are looked up: its ``self`` (or ``cls``) as the
    class's instance, other names at module level (cheaper than all its locals;
    the callees of helpers are methods and module-level functions)."""
    function, module = reading.function, reading.module
    arguments = [*function.args.posonlyargs, *function.args.args]
    if owner is None or not arguments or "staticmethod" in decorator_names(function):
        return Scope(module)
    bound, this = arguments[0].arg, Value(Kind.INSTANCE, module=owner.module, qualname=owner.qualname, cls=owner)
    return Scope(module, lambda name: this if name == bound else None)


def _may_be_helper(calls: list[ast.Call], function: FunctionNode) -> bool:
    """The cheap test first: some call may patch, or hands a parameter on."""
    return any(callee_name(call) in PATCHING_NAMES or _passes_parameter(call, function) for call in calls)


def _passes_parameter(call: ast.Call, function: FunctionNode) -> bool:
    """Whether ``call`` may be a helper handed ``function``'s own parameter as its
    first argument or by keyword: not an assertion, a builtin, or a method of a
    parameter."""
    first = call.args[0] if call.args else None
    arguments = function.args
    params = {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}
    if not (isinstance(first, ast.Name) and first.id in params) and not any(
        isinstance(keyword.value, ast.Name) and keyword.value.id in params and keyword.arg is not None
        for keyword in call.keywords
    ):
        return False
    parts = dotted_parts(call.func)
    if not parts or parts[-1].startswith(ASSERTION_PREFIXES) or (len(parts) == 1 and parts[0] in BUILTIN_NAMES):
        return False
    return not (len(parts) > 1 and parts[0] in params and parts[0] not in ("self", "cls"))


class Helpers:
    """Recognises helpers for one engine; remembers what it read of long-lived modules."""

    def __init__(self, resolver: Resolver, declared: frozenset[str] = frozenset()) -> None:
        self.resolver = resolver
        self.declared = declared
        self._read: dict[tuple[int, int], Helper | None] = {}
        # Helpers of the file under analysis, remembered until ``forget_file``:
        # a suite calls its own helper thousands of times in one file.
        self._read_in_file: dict[tuple[int, int], Helper | None] = {}
        self._tables_in_file: dict[int, TableHelper | None] = {}
        self._of_the_tests: dict[str, tuple[bool, Deps]] = {}
        self._fixtures: dict[tuple[int, int], Helper | None] = {}
        self._tables: dict[int, TableHelper | None] = {}

    def forget_file(self) -> None:
        """Drop what was learnt of the file under analysis (its nodes die with it)."""
        self._read_in_file.clear()
        self._tables_in_file.clear()

    def helper_for(self, value: Value, calls: list[ast.Call] | None = None) -> Helper | None:
        """The helper that calling ``value`` (what a call's callee evaluates to)
        runs. Helpers are code of the tests (the file under analysis, test
        packages, ``conftest``, a package's ``test``/``testing`` support), not of
        the code under test."""
        if value.kind is Kind.FUNCTION and value.function is not None:
            info = self.resolver.index.get(value.module)
            if info is not None and (info.volatile or self.of_the_tests(value.module)):
                if calls is not None and not _may_be_helper(calls, value.function):
                    return None  # the calls already gathered say no, without a walk of the body
                return self.read(value.function, info, value.owner, value.qualname)
        return None

    def table_helper_for(self, value: Value) -> TableHelper | None:
        """The ``TableHelper`` calling ``value`` runs, for a function of the tests."""
        if value.kind is not Kind.FUNCTION or value.function is None or value.owner is not None:
            return None
        info = self.resolver.index.get(value.module)
        if info is None or not (info.volatile or self.of_the_tests(value.module)):
            return None
        known = self._tables_in_file if info.volatile else self._tables
        key = id(value.function)
        if key not in known:
            known[key] = _read_table_helper(value.function, value.qualname, _aliases(info, {}))
        return known[key]

    def of_the_tests(self, module: str) -> bool:
        """Whether ``module`` is code of the tests: named so (``is_test_code``),
        or found under a test path (``from support import patching`` in a
        ``tests/`` folder pytest puts on ``sys.path``). Once per module and engine."""
        return self.resolver.tracker.remembered(self._of_the_tests, module, lambda: self._is_of_the_tests(module))

    def _is_of_the_tests(self, module: str) -> bool:
        project = self.resolver.project
        if project.is_test_code(module):
            return True
        top = module.partition(".")[0]
        located = self.resolver.index.locate(top) if top.isidentifier() else None  # noted as a dependency
        if located is not None and located[0] is None and module != top:  # a namespace package: its module
            located = self.resolver.index.locate(module)
        path = located[0] if located is not None else None
        return path is not None and not any(
            path.is_relative_to(root) and path.relative_to(root).parts[0] == top for root in project.source_roots
        )

    def declares_method(self, name: str) -> bool:
        """Whether ``mock-helpers`` names a method called ``name`` (for ``self.name(...)``
        whose class has a base outside the project, where the method cannot be found)."""
        return any(declared.rpartition(".")[2] == name for declared in self.declared)

    def is_declared(self, value: Value) -> bool:
        """Whether ``value`` is a helper the ``mock-helpers`` option names."""
        return bool(self.declared) and value.qualname in self.declared

    def read(self, function: FunctionNode, module: ModuleInfo, owner: ClassInfo | None, qualname: str,
             depth: int = 0) -> Helper | None:
        key = (id(function), id(owner))
        volatile = module.volatile or (owner is not None and self._volatile(owner))
        known = self._read_in_file if volatile else self._read
        if key in known:
            return known[key]
        known[key] = None  # a helper calling itself is no helper
        found = known[key] = self._recognise(function, module, owner, qualname, depth)
        return found

    def _volatile(self, cls: ClassInfo) -> bool:
        info = self.resolver.index.get(cls.module)
        return info is not None and info.volatile

    def fixture_helper(self, cls: ClassInfo, module: ModuleInfo) -> Helper | None:
        """The patch a ``fixtures.Fixture`` subclass of the tests makes when it is
        set up (its ``_setUp`` or ``setUp`` makes one patch, of a target fixed
        by constants, and applies it; what the constructor was given is not
        followed): kuryr's
        ``MockNetworkClient`` patching ``clients.get_network_client`` is a mock
        site wherever a test does ``self.useFixture(MockNetworkClient())``."""
        for name in (FIXTURE_SET_UP, "setUp"):
            binding = cls.members.get(name)
            if binding is None or binding.kind != "def" or binding.function is None:
                continue
            key = (id(binding.function), id(cls))
            known = self._fixtures
            if key not in known:
                qualname = f"{cls.module}.{cls.qualname}.{name}"
                known[key] = self._recognise(binding.function, module, cls, qualname, 0, set_up=True)
            return known[key]
        return None

    def _recognise(
        self, function: FunctionNode, module: ModuleInfo, owner: ClassInfo | None, qualname: str, depth: int,
        set_up: bool = False,
    ) -> Helper | None:
        nodes = list(own_nodes(function))
        if not _may_be_helper([node for node in nodes if isinstance(node, ast.Call)], function):
            return None
        arguments = function.args
        positional = [a.arg for a in (*arguments.posonlyargs, *arguments.args)]
        decorators = decorator_names(function)
        instance: str | None = None
        if owner is not None and "staticmethod" not in decorators and positional:
            instance, positional = positional[0], positional[1:]  # bound to the instance (or, for a classmethod, the class)
        named = [*positional, *(a.arg for a in arguments.kwonlyargs)]
        vararg = arguments.vararg.arg if arguments.vararg else None
        kwarg = arguments.kwarg.arg if arguments.kwarg else None
        params = set(named) | {name for name in (vararg, kwarg) if name}
        defaults: dict[str, ast.expr] = {}
        for name, default in zip(reversed(positional), reversed(arguments.defaults)):
            defaults[name] = default
        for kw_arg, kw_default in zip(arguments.kwonlyargs, arguments.kw_defaults):
            if kw_default is not None:
                defaults[kw_arg.arg] = kw_default
        changed = {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id in params}
        local_imports = {
            name: (level, dotted) for node in nodes if isinstance(node, (ast.Import, ast.ImportFrom))
            for name, level, dotted in import_bindings(node)
        }
        guarded = _defaulted_when_missing(nodes, changed)
        spread, appended_if_given = _spread_lists(function.body, nodes, params)
        for name in guarded | (appended_if_given & defaults.keys()):
            defaults[name] = ast.Name(id=OMITTED, ctx=ast.Load())  # not given: the helper makes its own
        reassigned_instance = any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id == instance for n in nodes)
        reading = _Reading(
            function, module, params, changed - guarded, _aliases(module, local_imports), nodes, spread,
            None if reassigned_instance else instance,
        )
        # a method taking nothing but its instance that applies a patch sets the test up (ceilometer's
        # ``self._test_get_samples()``, patching ``IPMISensor`` for the test calling it)
        set_up = set_up or (owner is not None and not params and depth == 0)
        found = self._direct(reading, set_up) if depth <= MAX_WRAPPING else None
        if found is None and depth < MAX_WRAPPING:
            found = self._wrapped(reading, owner, depth)
        if found is None:
            return None
        entry, template, handing = found
        fixed = not any(isinstance(node, ast.Name) and node.id in params for node in ast.walk(template))
        reads_instance = reading.instance is not None and any(  # in what it patches, not in the callee
            isinstance(node, ast.Name) and node.id == reading.instance
            for argument in (*template.args, *(keyword.value for keyword in template.keywords))
            for node in ast.walk(argument)
        )
        return Helper(
            qualname, entry, template, tuple(positional), frozenset(named), defaults, vararg, kwarg,
            handing == "returns", function, fixed, reading.instance if reads_instance else None,
        )

    def _direct(self, reading: _Reading, set_up: bool = False) -> tuple[Callee, ast.Call, Handing] | None:
        """The one mocking call of the body whose target is a parameter (or its
        only one, of a fixed target, returned unstarted, or applied by a
        fixture's ``set_up``), and how the body hands it on; None for none,
        several, or one kept to itself."""
        made: list[tuple[Callee, ast.Call]] = []
        for node in reading.nodes:
            if isinstance(node, ast.Call) and callee_name(node) in PATCHING_NAMES:
                entry = SITE_CALLEES.get(self._callee(node.func, reading) or "")
                if entry is not None and entry.kind in HELPER_KINDS:
                    made.append((entry, node))
        parametrized = [
            (entry, node) for entry, node in made if _from_parameters(entry, reading.spread.get(id(node), node), reading)
        ]
        if len(parametrized) != 1 and len(made) != 1:
            return None
        entry, call = parametrized[0] if len(parametrized) == 1 else made[0]
        written = reading.spread.get(id(call), call)
        handed = _handed(reading.nodes, call, entry)
        fixed_counts = handed == "returns" or (set_up and handed == "applies")
        if handed is None or not (parametrized or (fixed_counts and _fixed_target(entry, written))):
            return None  # a fixed target counts only in a factory returning the patcher unstarted, or a fixture
        return entry, _template(written, reading), handed

    def _wrapped(self, reading: _Reading, owner: ClassInfo | None, depth: int) -> tuple[Callee, ast.Call, Handing] | None:
        """A call of another helper with this one's parameters, handed on."""
        scope = _bound_scope(reading, owner)
        made: list[tuple[Callee, ast.Call, Handing]] = []
        for node in reading.nodes:
            if not isinstance(node, ast.Call) or not isinstance(node.func, (ast.Name, ast.Attribute)):
                continue
            if not _passes_parameter(node, reading.function):
                continue  # a helper wrapping a helper hands it its parameters
            value = self.resolver.evaluate(node.func, scope)
            if value.kind is not Kind.FUNCTION or value.function is None or value.function is reading.function:
                continue
            info = self.resolver.index.get(value.module)
            inner = self.read(value.function, info, value.owner, value.qualname, depth + 1) if info else None
            if inner is None:
                continue
            call = inner.call_for(node)
            if call is not None and (_from_parameters(inner.entry, call, reading) or _fixed_target(inner.entry, call)):
                handed = _handed(reading.nodes, node, inner.entry) if inner.hands_patcher else "applies"
                if handed is None:
                    continue
                made.append((inner.entry, _template(call, reading), handed))
        return made[0] if len(made) == 1 else None

    def _callee(self, func: ast.expr, reading: _Reading) -> str | None:
        parts = dotted_parts(func)
        if not parts:
            return None
        root, rest = parts[0], parts[1:]
        if root in ("self", "cls") and len(rest) > 1 and (rest[0] in MOCKER_FIXTURES or rest[0] == MONKEYPATCH_FIXTURE):
            root, rest = rest[0], rest[1:]  # the fixture kept on the helper object (kombu's ``self.monkeypatch``)
        # the fixture as a parameter, or as the enclosing fixture's (a closure a fixture returns)
        if root not in reading.aliases and root in MOCKER_FIXTURES:
            return ".".join([MOCKER_ROOT, *rest])
        if root not in reading.aliases and root == MONKEYPATCH_FIXTURE:
            return ".".join([MONKEYPATCH_ROOT, *rest])
        full = reading.aliases.get(root)
        return canonical(".".join([full, *rest])) if full is not None else None

    def declared_call(self, call: ast.Call) -> tuple[Callee, ast.Call] | None:
        """A call of a declared helper read by its shape: ``patch.object(obj,
        "name", ...)`` when its second argument is a string, else ``patch("dotted",
        ...)`` when its first is; None for neither."""
        args = call.args
        if any(isinstance(a, ast.Starred) for a in args):
            return None
        if len(args) >= 2 and isinstance(args[1], ast.Constant) and isinstance(args[1].value, str):
            name = f"{MOCK_MODULE}.patch.object"
        elif args and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str):
            name = f"{MOCK_MODULE}.patch"
        else:
            return None
        made = ast.Call(func=call.func, args=list(args), keywords=list(call.keywords))
        ast.copy_location(made, call)
        made.end_lineno, made.end_col_offset = call.end_lineno, call.end_col_offset
        return SITE_CALLEES[name], made


def _defaulted_when_missing(nodes: list[ast.AST], changed: set[str]) -> set[str]:
    """The parameters among ``changed`` that the helper only replaces when the
    caller gave nothing: every assignment is ``if not p: p = ...``, ``if p is None:
    p = ...`` or ``p = p or ...``. A value the caller gives is kept."""
    guarded: dict[str, bool] = {name: True for name in changed}
    if not guarded:
        return set()
    for node in nodes:
        if isinstance(node, ast.If) and _tests_missing(node.test) is not None:
            continue  # its assignments are guarded; they are skipped below
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id in guarded:
                    if _guarded_assignment(nodes, node, target.id):
                        continue
                    guarded[target.id] = False
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id in guarded:
            if not _assigned_by_statement(nodes, node):
                guarded[node.id] = False
    return {name for name, ok in guarded.items() if ok}


def _spread_lists(
    body: list[ast.stmt], nodes: list[ast.AST], params: set[str],
) -> tuple[dict[int, ast.Call], set[str]]:
    """The calls given ``*args``, a local list of parameters (``args = [obj,
    name]``, then ``if new is not SENTINEL: args.append(new)``), written out
    with the list's items in place (by the original call's id); and the
    parameters appended only under a test of themselves: left out when the
    caller does not give them. ``body`` is the helper's own statements,
    ``nodes`` all of its nodes. Only appends in the body itself count, or in
    the body of an ``if`` there testing the item; nothing after such an item
    (its position would shift). A list used any other way is not written out."""
    lists: dict[str, list[ast.expr]] = {}
    uses: dict[str, int] = {}  # every appearance of each list's name
    for node in nodes:
        if isinstance(node, ast.Name):
            uses[node.id] = uses.get(node.id, 0) + 1
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.List) and all(isinstance(e, ast.Name) and e.id in params for e in node.value.elts):
            lists.setdefault(node.targets[0].id, list(node.value.elts))
    if not lists:
        return {}, set()
    explained = dict.fromkeys(lists, 1)  # the assignment
    optional: set[str] = set()
    guarded_last: dict[str, bool] = {}  # an item appended under a test of itself came last so far
    top = {id(statement) for statement in body}
    guards = {id(statement): guard for guard in nodes if isinstance(guard, ast.If) and id(guard) in top
              for statement in guard.body}
    for node in nodes:
        call = node.value if isinstance(node, ast.Expr) else None
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "append"
                and isinstance(call.func.value, ast.Name) and call.func.value.id in lists):
            continue
        name, item = call.func.value.id, call.args[0] if len(call.args) == 1 and not call.keywords else None
        if not isinstance(item, ast.Name) or item.id not in params or guarded_last.get(name):
            continue  # not a parameter, or after an item that may be left out: the positions are not known
        guard = guards.get(id(node))
        if guard is None and id(node) not in top:
            continue  # appended in some other block (an ``else``, a loop): what the call gets is not known
        if guard is not None and item.id not in {n.id for n in ast.walk(guard.test) if isinstance(n, ast.Name)}:
            continue  # appended under some other condition
        lists[name].append(item)
        explained[name] += 1
        if guard is not None:
            optional.add(item.id)
            guarded_last[name] = True
    spread: dict[int, ast.Call] = {}
    for node in nodes:
        if not isinstance(node, ast.Call) or callee_name(node) not in PATCHING_NAMES or not node.args:
            continue
        last = node.args[-1]
        if isinstance(last, ast.Starred) and isinstance(last.value, ast.Name) and last.value.id in lists \
                and not any(isinstance(a, ast.Starred) for a in node.args[:-1]):
            name = last.value.id
            if uses.get(name, 0) == explained[name] + 1:  # nothing else reads or changes the list
                spread[id(node)] = ast.Call(func=node.func, args=[*node.args[:-1], *lists[name]], keywords=node.keywords)
    return spread, optional


def _tests_missing(test: ast.expr) -> str | None:
    """``p`` for a test ``not p`` or ``p is None``."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(test.operand, ast.Name):
        return test.operand.id
    if isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and len(test.ops) == 1 \
            and isinstance(test.ops[0], ast.Is) and isinstance(test.comparators[0], ast.Constant) \
            and test.comparators[0].value is None:
        return test.left.id
    return None


def _guarded_assignment(nodes: list[ast.AST], node: ast.stmt, name: str) -> bool:
    value = getattr(node, "value", None)
    if isinstance(node, ast.Assign) and isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or) \
            and isinstance(value.values[0], ast.Name) and value.values[0].id == name:
        return True  # p = p or default
    for candidate in nodes:
        if isinstance(candidate, ast.If) and _tests_missing(candidate.test) == name and node in candidate.body:
            return True
    return False


def _assigned_by_statement(nodes: list[ast.AST], name: ast.Name) -> bool:
    """Whether the stored name is the plain target of an assignment statement
    (judged there), not a loop variable, ``with`` target or unpacking."""
    for node in nodes:
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if name in targets:
                return True
    return False


def _read_table_helper(function: FunctionNode, qualname: str, aliases: dict[str, str]) -> TableHelper | None:
    """A ``TableHelper`` when ``function`` (its nested functions included: a
    decorator's wrapper) loops ``for obj, names in TABLE.items()`` over one of
    its parameters, then ``for name in names``, and patches
    ``patch.object(obj, name)`` (or a local made from ``name``: ``name[0]``)."""
    arguments = function.args
    positional = [a.arg for a in (*arguments.posonlyargs, *arguments.args)]
    params = {*positional, *(a.arg for a in arguments.kwonlyargs)}
    nodes = list(ast.walk(function))
    owners: dict[str, str] = {}  # the loop's object name -> the table parameter
    rows: dict[str, str] = {}  # the loop's names name -> the object name
    for node in nodes:
        if isinstance(node, ast.For) and isinstance(node.target, ast.Tuple) and len(node.target.elts) == 2:
            first, second = node.target.elts
            source = node.iter
            if isinstance(first, ast.Name) and isinstance(second, ast.Name) and isinstance(source, ast.Call) \
                    and isinstance(source.func, ast.Attribute) and source.func.attr == "items" \
                    and isinstance(source.func.value, ast.Name) and source.func.value.id in params:
                owners[first.id] = source.func.value.id
                rows[second.id] = first.id
    elements: dict[str, str] = {}  # a name bound to an element of a row -> the object name
    for node in nodes:
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name) and isinstance(node.iter, ast.Name) \
                and node.iter.id in rows:
            elements[node.target.id] = rows[node.iter.id]
    for node in nodes:  # method_mocked = method, or method[0]; a, b = method[0], method[1]
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            pairs: list[tuple[ast.expr, ast.expr]] = [(target, node.value)]
            if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple) \
                    and len(target.elts) == len(node.value.elts):
                pairs = list(zip(target.elts, node.value.elts))
            for bound, value in pairs:
                used = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
                element = next((elements[name] for name in used if name in elements), None)
                if isinstance(bound, ast.Name) and element is not None:
                    elements.setdefault(bound.id, element)
    for node in nodes:
        if not isinstance(node, ast.Call) or len(node.args) < 2:
            continue
        parts = dotted_parts(node.func) or []
        if len(parts) < 2 or parts[-2:] != ["patch", "object"] or canonical(".".join(
            [aliases.get(parts[0], parts[0]), *parts[1:]]
        )) != f"{MOCK_MODULE}.patch.object":
            continue
        target, name = node.args[0], node.args[1]
        if isinstance(target, ast.Name) and target.id in owners and isinstance(name, ast.Name) \
                and elements.get(name.id) == target.id:
            table = owners[target.id]
            keywords = tuple(k for k in node.keywords if k.arg is not None and isinstance(k.value, ast.Constant))
            position = positional.index(table) if table in positional else None
            return TableHelper(qualname, position, table, keywords)
    return None


def _aliases(module: ModuleInfo, local_imports: dict[str, tuple[int, str]]) -> dict[str, str]:
    """Top-level names bound by imports in the helper's module, and its own imports."""
    aliases = {name: b.target for name, b in module.bindings.items() if b.kind == "import"}
    aliases.update((name, dotted) for name, (level, dotted) in local_imports.items() if level == 0)
    return aliases


def _from_parameters(entry: Callee, call: ast.Call, reading: _Reading) -> bool:
    """Whether the object the call patches, or the name of the attribute it
    patches (``patch.object(self.reverter, name)``), is one of the helper's
    parameters, passed on unchanged (a name it reassigns may be anything), or
    a string spelt from them and constants (``"app.repos." + factory``)."""
    params = reading.params - reading.reassigned
    return any(
        _spelt_from_parameters(entry.argument(call, role), params)
        for role in (("target", "attribute") if entry.kind == "patch.object" else ("target",))
    )


def _spelt_from_parameters(expr: ast.expr | None, params: set[str]) -> bool:
    """Whether ``expr`` is one of ``params`` or an attribute of one (``client.client``),
    or a string spelt from them and constants."""
    parts = dotted_parts(expr) if expr is not None else None
    if parts is not None:
        return parts[0] in params
    return expr is not None and _spelt_from(expr, params) and any(isinstance(node, ast.Name) for node in ast.walk(expr))


def _fixed_target(entry: Callee, call: ast.Call) -> bool:
    """Whether the call patches a target string fixed by constants alone: a
    helper handing its parameters to a helper that patches such a target
    (``setup_secret_repository_mock(repo)`` calling
    ``_setup_repository_mock(repo_factory="get_secret_repository", mock_repo_obj=repo)``)
    mocks that target for its callers."""
    target = entry.argument(call, "target")
    return target is not None and not isinstance(target, ast.Name) and _spelt_from(target, set())


def _spelt_from(expr: ast.expr, params: set[str]) -> bool:
    """Whether ``expr`` is a string made of ``params`` and constants only: ``+``,
    an f-string of plain names, or ``%`` of a constant format."""
    if isinstance(expr, ast.Name):
        return expr.id in params
    if isinstance(expr, ast.Constant):
        return isinstance(expr.value, str)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        return _spelt_from(expr.left, params) and _spelt_from(expr.right, params)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mod) and isinstance(expr.left, ast.Constant):
        parts = expr.right.elts if isinstance(expr.right, ast.Tuple) else [expr.right]
        return all(_spelt_from(part, params) for part in parts)
    if isinstance(expr, ast.JoinedStr):
        return all(
            isinstance(value, ast.Constant) or (
                isinstance(value, ast.FormattedValue) and value.format_spec is None and value.conversion == -1
                and isinstance(value.value, ast.Name) and value.value.id in params
            )
            for value in expr.values
        )
    return False


def helper_local(name: str) -> ast.Name:
    """An opaque value standing for the helper's own local ``name`` (kept as
    ``local`` on the node, so a spy the helper defines can still be read)."""
    opaque = ast.Name(id=OPAQUE, ctx=ast.Load())
    opaque.local = name  # type: ignore[attr-defined]
    return opaque


def _template(call: ast.Call, reading: _Reading) -> ast.Call:
    """``call`` with every name the helper computes itself made opaque, so only
    parameters (put in place per call) and constants remain."""
    params = reading.params - reading.reassigned

    def keep(expr: ast.expr) -> ast.expr:
        if isinstance(expr, ast.Name):
            return expr if expr.id in params else helper_local(expr.id)
        parts = dotted_parts(expr)
        if parts is not None and len(parts) > 1 and (parts[0] == reading.instance or parts[0] in params):
            return expr  # an attribute of the instance (``self.reverter``, the caller's receiver's) or of a parameter
        if isinstance(expr, ast.Constant) or _spelt_from(expr, params):
            return expr
        if isinstance(expr, ast.Starred) and isinstance(expr.value, ast.Name) and expr.value.id in params:
            return expr
        return ast.Name(id=OPAQUE, ctx=ast.Load())

    keywords = [
        keyword if keyword.arg is None and isinstance(keyword.value, ast.Name) and keyword.value.id in params
        else ast.keyword(arg=keyword.arg, value=keep(keyword.value))
        for keyword in call.keywords if keyword.arg is not None or isinstance(keyword.value, ast.Name)
    ]
    return ast.Call(func=call.func, args=[keep(a) for a in call.args], keywords=keywords)


def _handed(nodes: list[ast.AST], call: ast.Call, entry: Callee) -> Handing | None:
    """How the helper hands the patch on: "applies" when it starts or registers
    it, enters it around a ``yield``, or the call applies itself (mocker,
    monkeypatch); "returns" when it returns the patcher unstarted; "encloses"
    when it enters it in a ``with`` of a plain function (the patch lasts while
    the helper runs, as openstacksdk's ``_verify(mock_method, test_method)``
    runs the method under test); None when it keeps it to itself."""
    if not entry.patcher:
        return "applies"  # mocker.patch / monkeypatch.setattr apply as they are called
    names: set[str] = set()
    returned = started = entered = False
    for node in nodes:
        if isinstance(node, ast.Assign) and node.value is call:
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    is_generator = any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in nodes)

    def is_it(expr: ast.expr | None) -> bool:
        if isinstance(expr, ast.Call) and callee_name(expr) == "cast" and len(expr.args) == 2:
            expr = expr.args[1]  # typing.cast(mock.MagicMock, patcher) is the patcher
        return expr is call or (isinstance(expr, ast.Name) and expr.id in names)

    for node in nodes:
        if isinstance(node, ast.Return) and is_it(node.value):
            returned = True
        elif isinstance(node, ast.Attribute) and node.attr == PATCHER_START and is_it(node.value):
            started = True
        elif isinstance(node, ast.Call) and _callee_tail(node) in ENTERING:
            started = started or any(is_it(a) for a in node.args)
        elif isinstance(node, (ast.With, ast.AsyncWith)) and any(is_it(item.context_expr) for item in node.items):
            started = started or is_generator
            entered = True
    if started:
        return "applies"
    if returned:
        return "returns"
    return "encloses" if entered else None


def _callee_tail(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


# The words without which a text makes no mock site by itself (``MonkeyPatch``
# and ``MockPatch`` of the fixtures package included), and a ``def`` line.
MOCKING_WORDS = re.compile(rb"mock|Mock|patch|Patch")
_DEF = re.compile(rb"def[ \t]+(\w+)[ \t]*\(")  # found by its literal, then checked to start a line
# A word before "(", across spaces, line continuations and closing parentheses
# (possessive, from a word's start: no backtracking over every word).
CALLED_WORD = re.compile(rb"(?<!\w)(\w++)[\s\\)]*+\(")


def helper_words(sources: Iterable[bytes], declared: frozenset[str] = frozenset()) -> frozenset[str]:
    """The names of the functions of the tests that may be mock helpers, read
    from their text alone (a superset: a file calling none of them and
    holding no mocking word makes no mock site): each ``def`` whose text, up
    to the next ``def``, nested ones included, holds a mocking word, or calls
    a name found so (``MAX_WRAPPING`` levels); no test, set-up, tear-down or
    dunder. The last names of the ``declared`` helpers too."""
    return _combined_helper_words([helper_word_part(data) for data in sources], declared)


# What one file gives ``helper_words``: the defs holding a mocking word (with
# the defs enclosing them), and each other def with the names it calls.
HelperWordPart = tuple[frozenset[str], list[tuple[str, frozenset[str]]]]


def helper_word_part(data: bytes) -> HelperWordPart:
    """The part of ``helper_words`` read from the text of one file."""
    found: set[bytes] = set()
    calling: list[tuple[str, frozenset[str]]] = []
    if not MOCKING_WORDS.search(data):
        return frozenset(), calling
    matches = list(_def_lines(data))
    enclosing: list[tuple[int, bytes]] = []
    for number, (indent, match) in enumerate(matches):
        name = match.group(1)
        while enclosing and enclosing[-1][0] >= indent:
            enclosing.pop()
        enclosing.append((indent, name))
        end = matches[number + 1][1].start() if number + 1 < len(matches) else len(data)
        if MOCKING_WORDS.search(data, match.end(), end):
            found.update(outer for _, outer in enclosing)
        else:
            calls = frozenset(word.decode("ascii") for word in CALLED_WORD.findall(data, match.end(), end))
            calling.append((name.decode("ascii"), calls))
    return frozenset(name.decode("ascii") for name in found), calling  # ``\w`` in a bytes pattern is ASCII


def _combined_helper_words(parts: list[HelperWordPart], declared: frozenset[str]) -> frozenset[str]:
    found = {name.rpartition(".")[2] for name in declared}
    calling: list[tuple[str, frozenset[str]]] = []  # defs without mocking words, in the files' order
    for direct, others in parts:
        found.update(direct)
        calling.extend(others)
    for _ in range(MAX_WRAPPING):
        found.update(name for name, calls in calling if not calls.isdisjoint(found))
    skipped = SETUP_NAMES | TEARDOWN_NAMES
    return frozenset(
        name for name in found
        if not name.startswith(TEST_PREFIX) and name not in skipped and not (name.startswith("__") and name.endswith("__"))
    )


def _def_lines(data: bytes) -> Iterator[tuple[int, re.Match[bytes]]]:
    """Each ``def`` that starts a line (after indentation, or ``async``), with
    its indentation."""
    for match in _DEF.finditer(data):
        head = data[data.rfind(b"\n", 0, match.start()) + 1:match.start()]
        code = head.lstrip(b" \t")
        if code == b"" or (code.startswith(b"async") and code[5:].strip(b" \t") == b"" and code != b"async"):
            yield len(head) - len(code), match


def project_helper_words(project: Project, store: SummaryStore | None = None) -> frozenset[str]:
    """``helper_words`` of every file of the project's tests
    (``Project.code_of_the_tests``) and its ``mock-helpers``; a file that
    cannot be read, or is over the size limit, is left out. Kept in ``store``
    by the digests of those files' bytes (reading them is a tenth of finding
    the words), with each file's part by its digest: after an edit, only the
    edited files are read for words again."""
    read = list(_readable(project.code_of_the_tests(), project.max_file_bytes))
    if store is None:
        return helper_words((data for _, data in read), project.mock_helpers)
    digests = [digest(data) for _, data in read]
    key = digest(json.dumps(
        [sorted(project.mock_helpers), [[str(path), named] for (path, _), named in zip(read, digests)]]
    ).encode("utf-8", "surrogateescape"))
    kept = store.load("helper words", key)
    if isinstance(kept, list) and all(isinstance(word, str) for word in kept):
        return frozenset(kept)
    known = _kept_parts(store.load("helper word parts", _PARTS))
    parts = [known.get(named) or helper_word_part(data) for (_, data), named in zip(read, digests)]
    found = _combined_helper_words(parts, project.mock_helpers)
    store.save("helper word parts", _PARTS, {
        named: [sorted(direct), [[name, sorted(calls)] for name, calls in others]]
        for named, (direct, others) in zip(digests, parts)
    })
    store.save("helper words", key, sorted(found))
    return found


_PARTS = "by digest"  # the one record of the tests' files' parts of ``helper_words``


def _kept_parts(record: object) -> dict[str, HelperWordPart]:
    """The parts a "helper word parts" record keeps, by file digest; those not
    well formed are left out (read again)."""
    parts: dict[str, HelperWordPart] = {}
    if not isinstance(record, dict):
        return parts
    for named, part in record.items():
        if not (isinstance(part, list) and len(part) == 2 and isinstance(part[0], list) and isinstance(part[1], list)):
            continue
        direct, others = part
        if not all(isinstance(name, str) for name in direct):
            continue
        if not all(
            isinstance(other, list) and len(other) == 2 and isinstance(other[0], str) and isinstance(other[1], list)
            and all(isinstance(word, str) for word in other[1]) for other in others
        ):
            continue
        parts[named] = (frozenset(direct), [(name, frozenset(calls)) for name, calls in others])
    return parts


def _readable(paths: list[Path], limit: int) -> Iterator[tuple[Path, bytes]]:
    for path in paths:
        try:
            if path.stat().st_size <= limit:
                yield path, path.read_bytes()
        except OSError:
            continue


def calls_any(data: bytes, names: frozenset[bytes]) -> bool:
    """Whether ``data`` calls a function by one of ``names`` (by its text)."""
    return bool(names) and not names.isdisjoint(CALLED_WORD.findall(data))
