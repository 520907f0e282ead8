"""Find the mock sites of one test module and the names bound to their mocks.

A mock site is a call that replaces an object (``patch``, ``patch.object``,
``patch.multiple``, ``patch.dict`` on ``sys.modules``, ``monkeypatch.setattr`` /
``delattr`` / ``setitem(sys.modules, ...)``, and their pytest-mock forms) or
builds a double that stands in for one (``Mock(spec=...)``,
``create_autospec(...)``). Every call form is found wherever it appears -
decorator, ``with`` item, ``ExitStack.enter_context``, ``p = patch(); p.start()``
- because the site is the call itself. Callees are recognised through any
import alias, and pytest fixtures by their parameter names or annotations.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import cached_property

from mockpolicy.fixtures import Fixtures
from mockpolicy.functions import (
    FunctionNode,
    asserted_types,
    child_nodes,
    dotted_parts,
    facts_from_statements,
    import_bindings,
    own_nodes,
    rebound_attributes,
    walk,
)
from mockpolicy.helpers import Helper, Helpers
from mockpolicy.resolve import BUILTIN_NAMES, Resolver
from mockpolicy.symbols import ClassInfo, Kind, Lookup, ModuleInfo, Scope, Value, class_of
from mockpolicy.vocabulary import (
    ANSWERING_KEYWORDS,
    ASSERTION_PREFIXES,
    CALLEES,
    EXPAND_DECORATOR,
    MOCK_MODULE,
    MOCKER_ANNOTATION,
    MOCKER_FIXTURES,
    MOCKER_ROOT,
    MONKEYPATCH_ANNOTATION,
    MONKEYPATCH_FACTORIES,
    MONKEYPATCH_FIXTURE,
    MONKEYPATCH_ROOT,
    PATCHER_START,
    POSITIONAL_DATA_DECORATORS,
    SIDE_EFFECT,
    SITE_CALLEES,
    SPEC_ONLY_KEYWORDS,
    SPY_KEYWORD,
    TEST_CASE_PATCHERS,
    TEST_PREFIX,
    UNPACK_DECORATOR,
    USE_FIXTURE,
    Api,
    Callee,
    Role,
    SiteKind,
    callee_name,
    canonical,
    parametrized_values,
)


@dataclass(eq=False)
class Target:
    """One object a site replaces or stands in for, and the expression that
    replaces it when the call gives one."""

    text: str
    value: Value
    replacement: ast.expr | None = None
    base: Value | None = None  # the object the attribute is replaced on (patch.object, setattr)


@dataclass(eq=False)
class MockSite:
    """One mock call. ``owner`` is the function or class it belongs to (for a
    decorator: the decorated definition); ``spec_only`` marks doubles built from a
    spec that replace nothing; ``configured`` that the call itself sets behaviour
    (return values, side effects, attributes)."""

    kind: SiteKind
    call: ast.Call
    owner: Context
    api: Api
    callee: str = ""  # the canonical name called, e.g. "unittest.mock.MagicMock"
    patcher_keys: set[str] = field(default_factory=set)  # names the patcher object is bound to
    targets: list[Target] = field(default_factory=list)
    spec_only: bool = False
    configured: bool = False
    escapes: bool = False
    injected: bool = False
    decorates: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | None = None
    # A site made by a call of a project helper: ``call`` is the mocking call the
    # helper makes (the caller's arguments in place, at the caller's place),
    # ``source_call`` the helper call as written, ``helper`` the helper's name.
    source_call: ast.Call | None = None
    helper: str = ""
    hands_patcher: bool = True  # a patcher call hands back the patcher (a helper may start it itself)
    helper_function: FunctionNode | None = None  # the helper's definition, when a helper made the site
    answers_unread: bool = False  # the test configures the mock by a name the helper gives it (self.mock_<name>)

    @property
    def line(self) -> int:
        return self.call.lineno

    @property
    def written(self) -> ast.Call:
        """The call as the file spells it: the helper call, or the mocking call itself."""
        return self.source_call if self.source_call is not None else self.call

    @property
    def entry(self) -> Callee:
        """The vocabulary's entry for the callee: where its arguments sit."""
        return CALLEES[self.callee]

    @property
    def replaced_name(self) -> str:
        """The attribute the patch replaces: ``name`` of ``patch.object(obj,
        "name")``/``setattr(obj, "name", ...)``, the last part of
        ``patch("a.b.name")``; "" for other mocks or a computed name."""
        entry = CALLEES.get(self.callee)
        if entry is None or self.kind not in ("patch", "patch.object", "setattr"):
            return ""
        written = entry.argument(self.call, "attribute") or entry.argument(self.call, "target")
        if isinstance(written, ast.Constant) and isinstance(written.value, str):
            return written.value.rpartition(".")[2]
        # a computed module, a written last part: ``broker + ".get_info"``, ``f"{broker}.get_info"``
        last = written.right if isinstance(written, ast.BinOp) and isinstance(written.op, ast.Add) else \
            written.values[-1] if isinstance(written, ast.JoinedStr) and written.values else None
        if isinstance(last, ast.Constant) and isinstance(last.value, str) and "." in last.value:
            return last.value.rpartition(".")[2]
        return ""

    @property
    def is_spy(self) -> bool:
        """Whether the double hands its calls to a real object: ``wraps=`` with
        nothing in the call answering instead (no return value or side effect),
        or a side effect that is the patched attribute itself
        (``patch.object(common, "setup", side_effect=common.setup)``)."""
        given = {keyword.arg: keyword.value for keyword in self.call.keywords}
        if self.wrapped is not None and not given.keys() & ANSWERING_KEYWORDS:
            return True
        effect = given.get(SIDE_EFFECT)
        return effect is not None and self.names_the_target(effect)

    @property
    def wrapped(self) -> ast.expr | None:
        """What the double hands its calls to (``wraps=``); None without one,
        and for a constant or a lambda: a fake written in place
        (``Mock(wraps=lambda: "x")``) runs no real code."""
        wrapped = next((keyword.value for keyword in self.call.keywords if keyword.arg == SPY_KEYWORD), None)
        return None if isinstance(wrapped, (ast.Constant, ast.Lambda)) else wrapped

    def names_the_target(self, expr: ast.expr) -> bool:
        """Whether ``expr`` spells the attribute the patch replaces: ``obj.name``
        for ``patch.object(obj, "name")``, a dotted tail of ``patch("a.b.name")``."""
        args = self.call.args
        if self.kind == "patch.object" and len(args) > 1 and isinstance(args[1], ast.Constant) \
                and isinstance(args[1].value, str):
            return ast.unparse(expr) == f"{ast.unparse(args[0])}.{args[1].value}"
        if self.kind == "patch" and args and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str):
            parts = dotted_parts(expr)
            return parts is not None and len(parts) > 1 and args[0].value.endswith("." + ".".join(parts))
        return False


@dataclass(eq=False)
class Context:
    """A function, class or the module: names, statements and calls gathered in one walk."""

    node: ast.AST
    qualname: str
    parent: Context | None = None
    class_info: ClassInfo | None = None
    params: list[str] = field(default_factory=list)
    self_name: str | None = None
    mockers: set[str] = field(default_factory=set)
    monkeypatches: set[str] = field(default_factory=set)
    assigns: dict[str, list[ast.expr]] = field(default_factory=dict)
    stored: set[str] = field(default_factory=set)
    names: set[str] = field(default_factory=set)  # every name and attribute read or written in its own code
    imports: dict[str, tuple[int, str]] = field(default_factory=dict)
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    calls: list[ast.Call] = field(default_factory=list)
    asserts: list[ast.Assert] = field(default_factory=list)
    statements: list[ast.stmt] = field(default_factory=list)
    bound: dict[str, list[MockSite]] = field(default_factory=dict)
    children: list[Context] = field(default_factory=list)  # the functions and classes defined directly in it

    @property
    def name(self) -> str:
        return self.qualname.rpartition(".")[2]

    @cached_property
    def strings(self) -> tuple[str, ...]:
        """The string constants anywhere in its node, nested definitions included."""
        return tuple(
            node.value for node in walk(self.node) if type(node) is ast.Constant and isinstance(node.value, str)
        )

    @property
    def is_function(self) -> bool:
        return isinstance(self.node, (ast.FunctionDef, ast.AsyncFunctionDef))


_STATEMENTS_KEPT = frozenset({ast.With, ast.AsyncWith, ast.Return, ast.Expr, ast.AnnAssign, ast.AugAssign, ast.Delete})


def _names_in(nodes: list[ast.AST]) -> set[str]:
    """The names and attributes in ``nodes`` (signatures, class bases: not gathered)."""
    found: set[str] = set()
    for node in nodes:
        for inner in walk(node):
            if isinstance(inner, ast.Name):
                found.add(inner.id)
            elif isinstance(inner, ast.Attribute):
                found.add(inner.attr)
    return found


def _positional_data(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int | None:
    """How many positional arguments a data-driven decorator (ddt's ``@data``,
    ``parameterized.expand``) passes before the mocks of patch decorators: 0
    for none (or a dict each, unpacked into keywords), 1 per value, the length
    of each tuple when unpacked; None when the items differ or cannot be read."""
    data = [d for d in node.decorator_list if isinstance(d, ast.Call) and callee_name(d) in POSITIONAL_DATA_DECORATORS]
    if not data:
        return 0
    unpacked = any(callee_name(d) == UNPACK_DECORATOR for d in node.decorator_list)
    expand = callee_name(data[0]) == EXPAND_DECORATOR
    items: list[ast.expr] = list(data[0].args)
    if expand:
        if len(items) != 1 or not isinstance(items[0], (ast.List, ast.Tuple)):
            return None
        items = list(items[0].elts)
    elif not unpacked:
        return 1
    sizes: set[int] = set()
    for item in items:
        if isinstance(item, ast.Dict) and not expand:
            sizes.add(0)
        elif isinstance(item, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in item.elts):
            sizes.add(len(item.elts))
        elif expand and isinstance(item, ast.Call) and callee_name(item) == "param":
            sizes.add(len(item.args))
        elif expand and not isinstance(item, (ast.Tuple, ast.List, ast.Dict, ast.Call, ast.Name, ast.Starred)):
            sizes.add(1)  # a single value is passed as one argument
        else:
            return None
    return sizes.pop() if len(sizes) == 1 else None


def root_key(expr: ast.expr) -> str | None:
    """The name a mock expression hangs from: ``m`` for ``m.a.return_value.b``,
    ``self.m`` for ``self.m.a``; None for anything else."""
    while True:
        if isinstance(expr, ast.Attribute):
            if isinstance(expr.value, ast.Name) and expr.value.id in ("self", "cls"):
                return f"self.{expr.attr}"
            expr = expr.value
        elif isinstance(expr, (ast.Call, ast.Subscript)):
            expr = expr.func if isinstance(expr, ast.Call) else expr.value
        elif isinstance(expr, ast.Name):
            return expr.id
        else:
            return None


def _placed_at(made: ast.Call, call: ast.Call) -> ast.Call:
    """``made``, a mocking call read off a helper, at the place of ``call`` (the helper call as written)."""
    ast.copy_location(made, call)
    made.end_lineno, made.end_col_offset = call.end_lineno, call.end_col_offset
    return made


def _has_keyword(call: ast.Call, *names: str) -> bool:
    return any(kw.arg in names for kw in call.keywords)


class TestModule:
    """The mock sites of one parsed module, with the scopes they sit in."""

    def __init__(
        self, tree: ast.Module, info: ModuleInfo, resolver: Resolver, fixtures: Fixtures | None = None,
        helpers: Helpers | None = None,
    ) -> None:
        self.info = info
        self.resolver = resolver
        self.fixtures = fixtures
        self.helpers = helpers
        self._callees: dict[tuple[int, str], Value] = {}
        self._own_functions: dict[int, Context] = {}  # id(def) -> its context, for the file's own helpers
        self.directory = info.path.parent if info.path is not None else None
        self.aliases: dict[str, str] = {}  # the module's own absolute imports: name -> dotted
        self._reexports: dict[str, str] = {}  # an imported dotted name -> the library's name it re-exports
        self.imported: set[str] = set()  # what the file's absolute imports name, its functions' too
        self.module = Context(tree, "")
        self.contexts: list[Context] = []
        self.sites: list[MockSite] = []
        self._by_call: dict[int, MockSite] = {}
        self._owned: dict[int, list[MockSite]] = {}  # id(context) -> its sites
        self._decorating: dict[int, list[MockSite]] = {}  # id(def) -> its decorator sites
        self._fixtures: dict[int, tuple[set[str], set[str]]] = {}
        self._in_decorators: set[int] = set()  # calls inside decorators: evaluated where the def stands
        self._visit_body(tree.body, self.module, None)
        self._find_sites()

    # -- gathering --------------------------------------------------------

    def _visit_body(self, body: list[ast.stmt], owner: Context, class_info: ClassInfo | None) -> None:
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._visit_function(stmt, owner, class_info)
            elif isinstance(stmt, ast.ClassDef):
                self._visit_class(stmt, owner)
            else:
                self._gather(stmt, owner)

    def _child_qualname(self, owner: Context, name: str) -> str:
        return f"{owner.qualname}.{name}" if owner.qualname else name

    def _visit_class(self, node: ast.ClassDef, owner: Context) -> None:
        info = self._class_info(node, owner)
        context = Context(node, self._child_qualname(owner, node.name), owner, class_info=info)
        self.contexts.append(context)
        owner.children.append(context)
        self._note_decorators(node)
        for decorator in node.decorator_list:
            self._gather(decorator, context)
        context.names.update(_names_in([*node.bases, *node.keywords]))
        self._visit_body(node.body, context, info)

    def _class_info(self, node: ast.ClassDef, owner: Context) -> ClassInfo | None:
        if owner.class_info is not None:
            binding = owner.class_info.members.get(node.name)
        elif owner is self.module:
            binding = self.info.bindings.get(node.name)
        else:
            binding = None
        info = binding.cls if binding is not None and binding.cls is not None else None
        if info is not None and self.fixtures is not None:
            info.fallback = self._instance_attribute
        return info

    def fixture_value(self, name: str) -> Value | None:
        """What the fixture ``name`` gives a test of this module, if it is one."""
        if self.fixtures is None or self.directory is None:
            return None
        return self.fixtures.value(name, self.info, self.directory)

    def _class_fixtures(self, cls: ClassInfo) -> Lookup:
        """Fixture lookup for a test method of ``cls``: the class's own fixtures first."""
        def value(name: str) -> Value | None:
            if self.fixtures is None or self.directory is None:
                return None
            found = self.fixtures.class_value(name, cls, self.directory)
            return found if found is not None else self.fixture_value(name)

        return value

    def _instance_attribute(self, name: str) -> Value | None:
        if self.fixtures is None or self.directory is None:
            return None
        return self.fixtures.instance_attribute(name, self.info, self.directory)

    def _visit_function(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, owner: Context, class_info: ClassInfo | None
    ) -> None:
        context = Context(node, self._child_qualname(owner, node.name), owner)
        self.contexts.append(context)
        owner.children.append(context)
        self._own_functions[id(node)] = context
        arguments = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        context.params = [a.arg for a in arguments]
        static = any(getattr(d, "id", None) == "staticmethod" for d in node.decorator_list)
        if class_info is not None and arguments and not static:
            context.self_name = arguments[0].arg
            context.class_info = class_info
        for arg in arguments:
            annotation = ast.unparse(arg.annotation) if arg.annotation is not None else ""
            if arg.arg in MOCKER_FIXTURES or annotation.endswith(MOCKER_ANNOTATION):
                context.mockers.add(arg.arg)
            if arg.arg == MONKEYPATCH_FIXTURE or annotation.endswith(MONKEYPATCH_ANNOTATION):
                context.monkeypatches.add(arg.arg)
        self._note_decorators(node)
        for decorator in node.decorator_list:
            self._gather(decorator, context)
        context.names.update(_names_in([node.args, *([node.returns] if node.returns else [])]))
        for stmt in node.body:
            self._gather(stmt, context)

    def _note_decorators(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        for decorator in node.decorator_list:
            self._in_decorators.update(id(call) for call in walk(decorator) if isinstance(call, ast.Call))

    def _gather(self, root: ast.AST, context: Context) -> None:
        """One pass over ``root`` collecting what the rules need.

        A hand-rolled walk: it skips the expression-context and operator nodes
        that ``ast.walk`` would visit, which halves the cost on large suites.
        """
        calls, statements, asserts, stored, names = (
            context.calls, context.statements, context.asserts, context.stored, context.names)
        stack = [root]
        pop, extend = stack.pop, stack.extend
        while stack:
            node = pop()
            kind = type(node)
            if kind is ast.Call:
                calls.append(node)  # type: ignore[arg-type]
            elif kind is ast.Name:
                names.add(node.id)  # type: ignore[attr-defined]
                if type(node.ctx) is ast.Store:  # type: ignore[attr-defined]
                    stored.add(node.id)  # type: ignore[attr-defined]
                continue
            elif kind is ast.Attribute:
                names.add(node.attr)  # type: ignore[attr-defined]
            elif kind is ast.Constant:
                continue
            elif kind is ast.Assign:
                statements.append(node)  # type: ignore[arg-type]
                targets = node.targets  # type: ignore[attr-defined]
                if len(targets) == 1 and type(targets[0]) is ast.Name:
                    context.assigns.setdefault(targets[0].id, []).append(node.value)  # type: ignore[attr-defined]
            elif kind in _STATEMENTS_KEPT:
                statements.append(node)  # type: ignore[arg-type]
                if kind is ast.AnnAssign and type(node.target) is ast.Name and node.value:  # type: ignore[attr-defined]
                    context.assigns.setdefault(node.target.id, []).append(node.value)  # type: ignore[attr-defined]
            elif kind is ast.Assert:
                asserts.append(node)  # type: ignore[arg-type]
            elif kind is ast.ClassDef:
                context.classes.setdefault(node.name, node)  # type: ignore[attr-defined, arg-type]
            elif kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
                context.functions.setdefault(node.name, node)  # type: ignore[attr-defined, arg-type]
            elif kind is ast.Import or kind is ast.ImportFrom:
                self._note_import(node, context)  # type: ignore[arg-type]
                continue
            elif kind is ast.Yield or kind is ast.YieldFrom:
                statements.append(ast.Expr(node, lineno=node.lineno, col_offset=node.col_offset))  # type: ignore[arg-type, attr-defined]
            extend(child_nodes(node))

    def _note_import(self, node: ast.Import | ast.ImportFrom, context: Context) -> None:
        for name, level, dotted in import_bindings(node):
            if level == 0:
                self.imported.add(dotted)
            if context is not self.module:
                context.imports[name] = (level, dotted)  # a function's own import hides the module's name there only
            elif level == 0:
                self.aliases[name] = dotted

    # -- recognising calls ------------------------------------------------

    def _fixture_names(self, context: Context) -> tuple[set[str], set[str]]:
        """The mocker and monkeypatch names visible in ``context`` (its own and its parents')."""
        cached = self._fixtures.get(id(context))
        if cached is None:
            mockers, monkeypatches = set(context.mockers), set(context.monkeypatches)
            if context.parent is not None:
                outer = self._fixture_names(context.parent)
                mockers |= outer[0]
                monkeypatches |= outer[1]
            cached = self._fixtures[id(context)] = (mockers, monkeypatches)
        return cached

    def callee(self, func: ast.expr, context: Context) -> str | None:
        """The canonical name of a called mock API, e.g. ``unittest.mock.patch.object``."""
        parts = dotted_parts(func)
        if not parts:
            return None
        root, rest = parts[0], parts[1:]
        mockers, monkeypatches = self._fixture_names(context)
        if root in mockers:
            return ".".join([MOCKER_ROOT, *rest])
        if root in monkeypatches:
            return ".".join([MONKEYPATCH_ROOT, *rest])
        full = self._imported_as(root, context)
        if full is None:
            return self._mock_subclass(root) if not rest else None
        return canonical(".".join([self._reexported(full), *rest]))

    def _mock_subclass(self, name: str) -> str | None:
        """The mock class that the class ``name`` of this file derives from
        directly (``class FakeEnv(mock.MagicMock)``: nox's ``FakeEnv(spec=VirtualEnv)``
        is a MagicMock made to that spec), else None."""
        binding = self.info.bindings.get(name)
        if binding is None or binding.kind != "class" or binding.cls is None:
            return None
        for base in binding.cls.bases:
            parts = dotted_parts(base)
            full = self.aliases.get(parts[0]) if parts else None
            if full is not None and parts is not None:
                named = canonical(".".join([self._reexported(full), *parts[1:]]))
                entry = SITE_CALLEES.get(named or "")
                if entry is not None and entry.kind == "mock":
                    return named
        return None

    def _imported_as(self, name: str, context: Context) -> str | None:
        """What ``name`` is imported as in ``context``: by its own import or an
        enclosing function's, else the module's."""
        current: Context | None = context
        while current is not None and current is not self.module:
            local = current.imports.get(name)
            if local is not None:
                return local[1] if local[0] == 0 else None
            current = current.parent
        return self.aliases.get(name)

    def _reexported(self, dotted: str) -> str:
        """``dotted`` (an imported name) as the library's own name when a module
        of the project or its tests re-exports it: salt's
        ``tests.support.mock`` does ``from mock import patch``, so
        ``from tests.support.mock import patch`` is the mock library's."""
        known = self._reexports.get(dotted)
        if known is None:
            known = dotted
            top = dotted.partition(".")[0]
            if "." in dotted and self.resolver.index.locate(top) is not None:  # a module of the project
                value = self.resolver.resolve_dotted(dotted)
                if value.kind is Kind.EXTERNAL and value.qualname:
                    known = value.qualname
            self._reexports[dotted] = known
        return known

    def _find_sites(self) -> None:
        for context in [self.module, *self.contexts]:
            self._note_monkeypatch_names(context)
        self._fixtures.clear()  # computed above before every name was known
        for context in [self.module, *self.contexts]:
            for call in context.calls:
                entry = SITE_CALLEES.get(self.callee(call.func, context) or "")
                if entry is not None:
                    made = [MockSite(entry.kind, call, context, entry.api, entry.name)]
                elif self.helpers is not None:
                    found = self._helper_site(call, context)
                    made = [found] if found is not None else self._table_sites(call, context)
                else:
                    continue
                for site in made:
                    self._by_call[id(call) if len(made) == 1 else id(site.call)] = site
                    self._owned.setdefault(id(context), []).append(site)
                    self._describe(site)
                    self.sites.append(site)
        self.sites.sort(key=lambda s: (s.call.lineno, s.call.col_offset))
        self._attach_decorators()
        for context in [self.module, *self.contexts]:
            self._bind_names(context)

    def _helper_site(self, call: ast.Call, context: Context) -> MockSite | None:
        """The mock site ``call`` makes when it calls a helper of the project (see
        ``mockpolicy.helpers``), or one the ``mock-helpers`` option declares."""
        assert self.helpers is not None
        parts = dotted_parts(call.func)
        if not parts or len(parts) > 3 or parts[-1].startswith(ASSERTION_PREFIXES):
            return None
        if parts[-1] == USE_FIXTURE and len(call.args) == 1 and isinstance(call.args[0], ast.Call):
            return self._fixture_site(call, call.args[0], context)
        root = parts[0]
        bound = (root in ("self", "cls") or _alias_of_self(context, root)) and context.class_info is not None
        if bound and len(parts) != 2:
            return None  # a method of something the test holds (self.client.get), not a helper of the test
        if not bound and len(parts) == 1 and root in context.params and root not in context.assigns:
            return self._fixture_helper_site(call, context, root)
        if not bound and (root in context.params or root in context.assigns or root in context.stored
                          or (len(parts) == 1 and root in BUILTIN_NAMES)):
            return None  # a local (a mock, an object the test made) or a builtin
        helpers = self.helpers
        if not bound and not helpers.declared:
            if root in context.imports:  # imported by the test itself
                level, imported = context.imports[root]
            else:
                binding = self.info.bindings.get(root)
                level, imported = (0, binding.target) if binding is not None and binding.kind == "import" else (1, "")
            if level == 0 and not (helpers.of_the_tests(imported) or helpers.of_the_tests(imported.rpartition(".")[0])):
                return None  # imported from the code under test or a library: no helper of the tests
        local = not bound and root in context.imports
        key = (id(context) if local else id(context.class_info) if bound else 0, ".".join(parts))
        value = self._callees.get(key)
        if value is None:
            scope = self.scope(context) if local else self._callee_scope(root, context, bound)
            value = self._callees[key] = self.resolver.evaluate(call.func, scope)
        patching = TEST_CASE_PATCHERS.get(value.qualname) if bound and value.kind in (Kind.EXTERNAL, Kind.FUNCTION) else None
        if patching is not None:  # testtools' or trial's ``self.patch(obj, "name", value)``
            site = MockSite(patching.kind, call, context, patching.api, patching.name)
            site.hands_patcher = False
            return site
        own = self._own_functions.get(id(value.function)) if value.module == self.info.name else None
        helper = helpers.helper_for(value, own.calls if own is not None else None)
        if helper is not None:
            if helper.fixed and own is not None:
                return None  # the file's own factory of a fixed patch: its body is the site, reported there
            return _site_of_helper(helper, call, context)
        elif helpers.is_declared(value) or (bound and value.kind is Kind.UNKNOWN and helpers.declares_method(parts[-1])):
            declared = helpers.declared_call(call)
            if declared is None:
                return None
            entry, made = declared
            site = MockSite(entry.kind, made, context, entry.api, entry.name)
            site.hands_patcher = False
            site.helper = value.qualname or parts[-1]
        else:
            return None
        site.source_call = call
        return site

    def _fixture_helper_site(self, call: ast.Call, context: Context, name: str) -> MockSite | None:
        """The mock site a call of what the fixture ``name`` gives makes, when
        that is a patching helper of the tests: a closure, or an object whose
        ``__call__`` patches (kombu's ``patching("pkg.mod.name")``, a
        ``monkeypatch.setattr(path, MagicMock())`` behind a conftest fixture)."""
        assert self.helpers is not None
        value = self.fixture_value(name)
        if value is None:
            return None
        if value.kind is Kind.INSTANCE and value.cls is not None:
            value = self.resolver.attribute(value, "__call__")
        helper = self.helpers.helper_for(value)
        if helper is None or helper.fixed:
            return None
        return _site_of_helper(helper, call, context)

    def _table_sites(self, call: ast.Call, context: Context) -> list[MockSite]:
        """The mock sites a call of a ``TableHelper`` of the tests makes: one
        ``patch.object(obj, "name")`` per name of the table it is given, at the call."""
        assert self.helpers is not None
        if not call.args or not any(isinstance(a, ast.Dict) for a in [*call.args, *(k.value for k in call.keywords)]):
            return []
        parts = dotted_parts(call.func)
        if not parts or len(parts) > 3 or parts[0] in ("self", "cls") or parts[0] in context.params \
                or parts[0] in context.assigns:
            return []
        value = self.resolver.evaluate(call.func, Scope(self.info))
        helper = self.helpers.table_helper_for(value)
        if helper is None:
            return []
        entry = SITE_CALLEES[f"{MOCK_MODULE}.patch.object"]
        made: list[MockSite] = []
        for owner, name in helper.patches(call):
            mocking = _placed_at(
                ast.Call(func=call.func, args=[owner, ast.Constant(value=name)], keywords=list(helper.keywords)), call
            )
            site = MockSite(entry.kind, mocking, context, entry.api, entry.name)
            site.hands_patcher = False
            site.helper = helper.qualname
            site.source_call = call
            site.answers_unread = True
            made.append(site)
        return made

    def _fixture_site(self, call: ast.Call, made: ast.Call, context: Context) -> MockSite | None:
        """The mock site ``self.useFixture(Fixture(...))`` makes when the fixture
        class, of another module of the tests, patches when set up (``Helpers.fixture_helper``)."""
        assert self.helpers is not None
        value = self.resolver.evaluate(made.func, self.scope(context))
        if value.kind is not Kind.CLASS or value.cls is None or value.module in (None, self.info.name):
            return None  # in its own file the fixture's body is the site, reported there
        info = self.resolver.index.get(value.module)
        if info is None or info.volatile or not self.helpers.of_the_tests(value.module):
            return None
        helper = self.helpers.fixture_helper(value.cls, info)
        if helper is None:
            return None
        mocking = helper.call_for(ast.Call(func=made.func, args=[], keywords=[]))
        if mocking is None:
            return None
        site = MockSite(helper.entry.kind, _placed_at(mocking, call), context, helper.entry.api, helper.entry.name)
        site.hands_patcher = False
        site.helper = value.qualname
        site.helper_function = helper.function
        site.source_call = call
        return site

    def _callee_scope(self, root: str, context: Context, bound: bool) -> Scope:
        """Where a helper's callee is looked up: ``self``/``cls`` as an instance of
        the test's class, other names at module level (locals were excluded,
        names the test imports itself are looked up in its own scope)."""
        if not bound:
            return Scope(self.info)
        cls = context.class_info
        assert cls is not None
        this = Value(Kind.INSTANCE, module=cls.module, qualname=cls.qualname, cls=cls)
        return Scope(self.info, lambda name: this if name == root else None)

    def _note_monkeypatch_names(self, context: Context) -> None:
        for stmt in context.statements:
            if isinstance(stmt, (ast.With, ast.AsyncWith)):
                for item in stmt.items:
                    if isinstance(item.context_expr, ast.Call) and isinstance(item.optional_vars, ast.Name):
                        if self.callee(item.context_expr.func, context) in MONKEYPATCH_FACTORIES:
                            context.monkeypatches.add(item.optional_vars.id)
            elif isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call):
                if self.callee(stmt.value.func, context) in MONKEYPATCH_FACTORIES:
                    for target in stmt.targets:
                        if isinstance(target, ast.Name):
                            context.monkeypatches.add(target.id)

    def _attach_decorators(self) -> None:
        decorator_calls: dict[int, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef] = {}
        for context in self.contexts:
            node = context.node
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for decorator in node.decorator_list:
                    if isinstance(decorator, ast.Call):
                        decorator_calls[id(decorator)] = node
        for site in self.sites:
            site.decorates = decorator_calls.get(id(site.written))
            if site.decorates is not None:
                self._decorating.setdefault(id(site.decorates), []).append(site)

    # -- evaluating targets -----------------------------------------------

    def scope(self, context: Context) -> Scope:
        """Name lookup inside ``context``: a function's locals and fixtures, then the module."""
        node = context.node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            owner = context.class_info if context.self_name is not None else None
            facts = facts_from_statements(
                context.params, context.assigns, context.stored, context.statements, context.imports,
                context.classes,
            )
            facts.functions = {n: f for n, f in context.functions.items() if n not in facts.assigns}
            facts.narrowed = {**rebound_attributes(node.body), **asserted_types(node.body)}
            fixtures = self.fixture_value if owner is None else self._class_fixtures(owner)
            return self.resolver.function_scope(node, self.info, owner, fixtures, facts)
        if isinstance(node, ast.ClassDef) and context.class_info is not None:
            return self._class_body_scope(context.class_info)
        return Scope(self.info)

    def _class_body_scope(self, cls: ClassInfo) -> Scope:
        """Name lookup in a class body (its statements and its methods' decorators):
        the class's own attributes first (``DRIVER = driver.Driver``), then the module."""
        resolver, this = self.resolver, Value(Kind.CLASS, module=cls.module, qualname=cls.qualname, cls=cls)

        def lookup(name: str) -> Value | None:
            return resolver.attribute(this, name) if name in cls.members else None

        return Scope(self.info, lookup)

    def _describe(self, site: MockSite) -> None:
        call, kind, entry = site.call, site.kind, site.entry
        owner = site.owner
        decorating = id(site.written) in self._in_decorators and owner.parent is not None
        scope = self.scope(owner.parent if decorating and owner.parent is not None else owner)
        resolver = self.resolver

        def const(expr: ast.expr | None) -> str | None:
            return resolver.evaluate(expr, scope).const if expr is not None else None

        def add_dotted(text: str | None, replacement: ast.expr | None = None) -> None:
            if text is not None:
                site.targets.append(Target(text, resolver.resolve_dotted(text), replacement))

        def add_attribute(obj: ast.expr | None, name: str | None, replacement: ast.expr | None = None) -> None:
            if obj is not None and name is not None:
                base = resolver.evaluate(obj, scope)
                bases = self._parametrized_objects(obj, owner) if base.kind is Kind.UNKNOWN else []
                for one in bases or [base]:
                    site.targets.append(Target(f"{_source(obj)}.{name}", resolver.attribute(one, name), replacement, one))

        def argument(role: Role) -> ast.expr | None:
            return entry.argument(call, role)

        if kind == "patch":
            target = argument("target")
            texts: list[str | None] = [const(target)]
            if texts[0] is None and target is not None:
                texts = [*self._parametrized_texts(target, owner, scope)] \
                    or [*self._looped_texts(target, owner, scope, call)] or texts
            for text in texts:
                add_dotted(text, argument("new"))
        elif kind == "patch.object" and (rows := self._parametrized_rows(argument("target"), argument("attribute"), owner)):
            obj = argument("target")
            assert obj is not None
            for one, spelt in rows:  # each row of the mark patches its own object's own attribute
                site.targets.append(Target(f"{_source(obj)}.{spelt}", resolver.attribute(one, spelt), argument("new"), one))
        elif kind == "patch.object":
            attribute = argument("attribute")
            attribute_names: list[str | None] = [const(attribute)]
            if attribute_names[0] is None and isinstance(attribute, ast.Name):  # a name a parametrize mark gives
                attribute_names = [value.const for value in self._parametrized_objects(attribute, owner)] or attribute_names
            if attribute_names[0] is None and attribute is not None:  # spelt from one (``f"_{operation}"``), or a loop's
                attribute_names = [*self._parametrized_texts(attribute, owner, scope)] \
                    or [*self._looped_texts(attribute, owner, scope, call)] or attribute_names
            for attribute_name in attribute_names:
                add_attribute(argument("target"), attribute_name, argument("new"))
        elif kind == "patch.multiple":
            base_expr = argument("target")
            if base_expr is not None:
                text = const(base_expr)
                base = resolver.resolve_dotted(text) if text is not None else resolver.evaluate(base_expr, scope)
                shown = text if text is not None else _source(base_expr)
                for kw in call.keywords:
                    if kw.arg and kw.arg not in entry.own_keywords:
                        site.targets.append(Target(f"{shown}.{kw.arg}", resolver.attribute(base, kw.arg)))
        elif kind in ("patch.dict", "setitem"):
            container = argument("target")
            if container is not None and self._is_sys_modules(container, scope):
                if kind == "setitem":
                    add_dotted(const(argument("attribute")), argument("new"))
                else:
                    values = argument("new")
                    if isinstance(values, ast.Dict):
                        for key, stand_in in zip(values.keys, values.values):
                            if key is not None:
                                add_dotted(const(key), stand_in)
        elif kind in ("mock", "autospec"):
            site.spec_only = True
            spec = argument("spec") if kind == "autospec" or call.args else None
            for kw in call.keywords:
                if kw.arg in ("spec", "spec_set") and spec is None:
                    spec = kw.value
            if spec is not None:
                value = resolver.evaluate(spec, scope)
                if value.kind is Kind.INSTANCE and value.cls is not None:
                    value = class_of(value)
                site.targets.append(Target(_source(spec), value))
            positional_limit = 1
            site.configured = len(call.args) > positional_limit or any(
                kw.arg is None or kw.arg not in SPEC_ONLY_KEYWORDS for kw in call.keywords
            )
        elif kind in ("setattr", "delattr"):
            first, name = argument("target"), entry.attribute
            assert name is not None
            # the dotted form, setattr("pkg.mod.name", value), passes no name
            dotted_form = len(call.args) == (2 if kind == "setattr" else 1) and not _has_keyword(call, name.keyword)
            if first is not None and dotted_form and const(first) is not None:
                add_dotted(const(first), call.args[1] if kind == "setattr" and len(call.args) > 1 else None)
            else:
                add_attribute(first, const(argument("attribute")), argument("new"))

    def _parametrized_objects(self, expr: ast.expr, owner: Context) -> list[Value]:
        """What the parameter ``expr`` names may be, one for each value a
        ``parametrize`` mark of the test gives it (``patch.object(transport_class,
        "__init__")`` over a list of transport classes), read where the mark is;
        empty when ``expr`` is no such parameter or a value cannot be told."""
        node = owner.node
        if not isinstance(expr, ast.Name) or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return []
        values = parametrized_values(node, expr.id, self._module_list) if expr.id in owner.params else None
        if not values:
            return []
        found = [self.resolver.evaluate(value, Scope(self.info)) for value in values]
        if any(value.kind in (Kind.UNKNOWN, Kind.MISSING) for value in found):
            return []
        return list(dict.fromkeys(found))  # one per object (or name), in the mark's order

    def _parametrized_rows(
        self, obj: ast.expr | None, attribute: ast.expr | None, owner: Context,
    ) -> list[tuple[Value, str]]:
        """(object, attribute name) for each row of the mark that gives both
        ``patch.object(obj, attribute)`` arguments as parameters of the test
        (ddt's ``@data([Cls, "sync", ...], ...)`` with ``@unpack``), rows alike
        once; empty when they are not both such parameters or a row cannot be read."""
        node = owner.node
        if not (isinstance(obj, ast.Name) and isinstance(attribute, ast.Name)) or obj.id == attribute.id \
                or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                or not {obj.id, attribute.id} <= set(owner.params):
            return []
        objects = parametrized_values(node, obj.id, self._module_list)
        names = parametrized_values(node, attribute.id, self._module_list)
        if not objects or not names or len(objects) != len(names):
            return []
        rows: dict[tuple[str, str, str], tuple[Value, str]] = {}
        for object_expr, name_expr in zip(objects, names):
            value = self.resolver.evaluate(object_expr, Scope(self.info))
            if value.kind in (Kind.UNKNOWN, Kind.MISSING) or not isinstance(name_expr, ast.Constant) \
                    or not isinstance(name_expr.value, str):
                return []
            rows.setdefault((value.module, value.qualname, name_expr.value), (value, name_expr.value))
        return list(rows.values())

    def _module_list(self, name: str) -> ast.expr | None:
        """The literal list or tuple a module-level name of the test file is bound
        to (``PARAMS = [(Client, "rest"), ...]``), for a ``parametrize`` mark
        given it by name; rows appended at run time are not in it, so only a
        patch's targets read it (some of them suffice), not a mock's answers."""
        binding = self.info.bindings.get(name)
        if binding is None or binding.kind != "value" or not isinstance(binding.value, (ast.List, ast.Tuple)):
            return None
        return binding.value

    def _parametrized_texts(self, expr: ast.expr, owner: Context, scope: Scope) -> list[str]:
        """The strings ``expr`` (a patch target read from one parameter,
        ``f"pkg.mod.{name}"``) folds to, one for each value a ``parametrize``
        mark of the test gives that parameter; empty when that cannot be listed."""
        node = owner.node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return []
        arguments = node.args
        parameters = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
        read = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name)} & parameters
        if len(read) != 1:
            return []
        name = read.pop()
        values = parametrized_values(node, name, self._module_list)
        if not values:
            return []
        return self._folded_for_each(expr, scope, name, [self.resolver.evaluate(value, scope) for value in values])

    def _looped_texts(self, expr: ast.expr, owner: Context, scope: Scope, call: ast.Call) -> list[str]:
        """The strings ``expr`` (a patch target read from the variable of a
        loop or comprehension around ``call``: ``for target in TARGETS:
        patch(target)``, ``[patch(t) for t in TARGETS]``) folds to, one for
        each item it goes over, when that is a list or tuple the resolver
        reads item by item (a literal, a module's constant, a function
        returning one); empty when that cannot be listed, when a condition
        picks among the items, or when the test binds the variable elsewhere too."""
        node = owner.node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return []
        read = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name)}
        around: list[tuple[str, ast.expr]] = []
        for loop in own_nodes(node):
            if isinstance(loop, (ast.For, ast.AsyncFor)) and isinstance(loop.target, ast.Name) \
                    and loop.target.id in read and _encloses(loop, call):
                around.append((loop.target.id, loop.iter))
            elif isinstance(loop, _COMPREHENSIONS) and _encloses(loop, call):
                around.extend(
                    (generator.target.id, generator.iter) for generator in loop.generators
                    if isinstance(generator.target, ast.Name) and generator.target.id in read and not generator.ifs
                )
        if len(around) != 1 or around[0][0] in owner.assigns:
            return []
        name, iterable = around[0]
        items = self.resolver.evaluate(iterable, scope).elements
        return self._folded_for_each(expr, scope, name, list(items)) if items else []

    def _folded_for_each(self, expr: ast.expr, scope: Scope, name: str, givens: list[Value]) -> list[str]:
        """The distinct strings ``expr`` folds to with ``name`` holding each of
        ``givens`` in turn; empty when one of them, or what it folds to, is not a string."""
        texts: list[str] = []
        local = scope.local
        for given in givens:
            if given.const is None:
                return []

            def lookup(looked_up: str, given: Value = given) -> Value | None:
                if looked_up == name:
                    return given
                return local(looked_up) if local is not None else None

            text = self.resolver.evaluate(expr, Scope(scope.module, lookup, scope.narrow)).const
            if text is None:
                return []
            if text not in texts:
                texts.append(text)
        return texts

    def _is_sys_modules(self, expr: ast.expr, scope: Scope) -> bool:
        value = self.resolver.evaluate(expr, scope)
        return value.qualname == "sys.modules" or value.const == "sys.modules"

    # -- names bound to mocks ---------------------------------------------

    def site_of(self, expr: ast.expr | None) -> MockSite | None:
        """The site whose mock ``expr`` evaluates to: the call itself,
        ``call.start()``, or ``typing.cast(T, call)`` (nox's
        ``cast("SessionRunner", mock.Mock(spec=SessionRunner))``)."""
        if not isinstance(expr, ast.Call):
            return None
        if callee_name(expr.func) == "cast" and len(expr.args) == 2 and not expr.keywords:
            expr = expr.args[1]
            if not isinstance(expr, ast.Call):
                return None
        site = self._by_call.get(id(expr))
        if site is None and _is_start(expr):
            assert isinstance(expr.func, ast.Attribute)
            site = self._by_call.get(id(expr.func.value))
        return site

    def _bind(self, context: Context, key: str, site: MockSite) -> None:
        owner = context
        if key.startswith("self.") and context.class_info is not None and context.parent is not None:
            owner = context.parent  # self.x is shared by the methods of the class
        owner.bound.setdefault(key, []).append(site)

    def _bind_names(self, context: Context) -> None:
        patchers: dict[str, MockSite] = {}  # p = patch(...): p is a patcher, p.start() the mock
        for stmt in sorted(context.statements, key=lambda s: (s.lineno, s.col_offset)):
            if isinstance(stmt, ast.Assign):
                value = stmt.value
                site = self.site_of(value)
                if site is None and _is_start(value):
                    assert isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                    site = patchers.get(root_key(value.func.value) or "")
                if site is None and isinstance(value, (ast.Name, ast.Attribute)) and root_key(value) in patchers:
                    alias = patchers[root_key(value) or ""]  # self.x = patcher: another name for it
                    for target in stmt.targets:
                        key = root_key(target) if isinstance(target, (ast.Name, ast.Attribute)) else None
                        if key is not None:
                            patchers[key] = alias
                            alias.patcher_keys.add(key)
                    continue
                if site is None:
                    for target in stmt.targets:
                        self._bind_contents(context, target, value)
                    continue
                is_patcher = site.written is value and site.entry.patcher and site.hands_patcher
                for target in stmt.targets:
                    key = root_key(target) if isinstance(target, (ast.Name, ast.Attribute)) else None
                    if key is None:
                        site.escapes = True
                    elif is_patcher:
                        patchers[key] = site
                        site.patcher_keys.add(key)
                    else:
                        self._bind(context, key, site)
            elif isinstance(stmt, (ast.With, ast.AsyncWith)):
                for item in stmt.items:
                    site = self.site_of(item.context_expr)
                    key = root_key(item.optional_vars) if item.optional_vars is not None else None
                    if site is not None and key is not None:
                        self._bind(context, key, site)
            elif isinstance(stmt, (ast.Return, ast.Expr)):
                handed: ast.expr | None = stmt.value
                if isinstance(stmt, ast.Expr):
                    handed = stmt.value.value if isinstance(stmt.value, (ast.Yield, ast.YieldFrom)) else None
                site = self.site_of(handed)
                if site is not None:
                    site.escapes = True  # handed to the caller (a fixture): used where we cannot see
                elif isinstance(handed, ast.Name):
                    for bound in context.bound.get(handed.id, []):
                        bound.escapes = True  # ``m = Mock(spec=Conn); return m``: the same hand-over
        for site in self._owned.get(id(context), []):
            if site.kind in ("patch", "patch.object", "setattr"):
                self._bind_replacement(context, site)
        node = context.node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self._bind_injected(context, node)

    def _bind_contents(self, context: Context, target: ast.expr, value: ast.expr) -> None:
        """Doubles made inside a literal container a name is bound to: the name
        stands for them (``pairs = [("a", Mock(spec=Blob)), ...]``, then
        ``for _, blob in pairs: blob.upload.return_value = ...``, as
        google-cloud-storage's ``FILE_BLOB_PAIRS``); unpacked at once
        (``a, b = Mock(spec=X), Mock(spec=Y)``), each name its own. Only
        spec'd doubles: a patcher kept in a list may be started out of sight."""
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) \
                and len(target.elts) == len(value.elts):
            for element, element_value in zip(target.elts, value.elts):
                site = self.site_of(element_value)
                key = root_key(element) if isinstance(element, (ast.Name, ast.Attribute)) else None
                if site is not None and key is not None and site.spec_only:
                    self._bind(context, key, site)
                elif site is None:
                    self._bind_contents(context, element, element_value)
            return
        key = root_key(target) if isinstance(target, (ast.Name, ast.Attribute)) else None
        if key is None or not isinstance(value, (ast.List, ast.Tuple, ast.Set, ast.Dict)):
            return
        pending: list[ast.expr] = [value]
        while pending:
            node = pending.pop()
            if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
                pending.extend(node.elts)
            elif isinstance(node, ast.Dict):
                pending.extend(item for item in node.values if item is not None)
            else:
                site = self.site_of(node)
                if site is not None and site.spec_only:  # (a patcher in a list may be started out of sight)
                    self._bind(context, key, site)

    def _hand_on(self, context: Context, name: str) -> None:
        """The spec'd doubles ``name`` is bound to in ``context`` are handed to a patch."""
        for value in context.assigns.get(name, []):
            other = self.site_of(value)
            if other is not None and other.spec_only:
                other.escapes = True

    def _bind_replacement(self, context: Context, site: MockSite) -> None:
        """``patch(t, new=m)`` / ``monkeypatch.setattr(t, m)``: ``m`` now stands for ``t``."""
        call = site.call
        if site.kind == "setattr":
            replacement = call.args[-1] if len(call.args) in (2, 3) else site.entry.argument(call, "new")
        else:
            replacement = site.entry.argument(call, "new")
        if isinstance(replacement, ast.Lambda) and isinstance(replacement.body, ast.Name):
            # ``lambda _: mailer``: the installed function answers that double (scrapy's ``from_crawler``)
            self._hand_on(context, replacement.body.id)
        elif isinstance(replacement, ast.Name):
            self._bind(context, replacement.id, site)
            self._hand_on(context, replacement.id)
        elif isinstance(replacement, ast.Attribute) and (key := root_key(replacement)) is not None:
            bound: Context | None = context  # ``self.m = create_autospec(f)`` earlier, in this test or its set-up
            while bound is not None:
                for other in bound.bound.get(key, []):
                    if other.spec_only:
                        other.escapes = True
                bound = bound.parent
        else:
            inner = self.site_of(replacement)
            if inner is not None and inner.spec_only:
                inner.escapes = True
                # represented by the patch that installs it; a double handed to a
                # helper keeps its own findings (the helper's call is not its patch)
                inner.injected = site.source_call is None

    def _bind_injected(self, context: Context, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """Patch decorators pass their mocks as positional arguments, innermost
        first: to a test, first (pytest's fixtures come after them); to a helper
        its callers hand arguments to, after those."""
        decorators = list(self._decorating.get(id(node), []))
        if context.class_info is not None and context.parent is not None:
            decorators += self._decorating.get(id(context.parent.node), [])
        params = list(context.params)
        if context.self_name is not None:
            params = params[1:]
        decorators.sort(key=lambda s: (s.decorates is not node, -s.call.lineno))
        injecting = [
            site for site in decorators
            if site.kind in ("patch", "patch.object") and site.hands_patcher
            and site.entry.argument(site.call, "new") is None
        ]
        data = _positional_data(node)
        if data is None or (data == 0 and not node.name.startswith(TEST_PREFIX)):
            # after the data, or after the arguments a helper's callers hand it: in the last positional ones
            positional = len(node.args.posonlyargs) + len(node.args.args) - (context.self_name is not None)
            params = params[:positional]
            params = params[max(0, len(params) - len(injecting)):]
        else:
            params = params[data:]
        for param, site in zip(params, injecting):
            context.bound.setdefault(param, []).append(site)

    def mocks_bound(self, context: Context, key: str) -> list[MockSite]:
        """Sites whose mock ``key`` (a local name or ``self.x``) refers to in ``context``."""
        current: Context | None = context
        while current is not None:
            if key in current.bound:
                return current.bound[key]
            current = current.parent
        return []

    def has_bound_mocks(self, context: Context) -> bool:
        """Whether any name visible in ``context`` refers to a mock site."""
        current: Context | None = context
        while current is not None:
            if current.bound:
                return True
            current = current.parent
        return False

    def release(self) -> None:
        """Drop the site <-> context links once the rules have run, and the
        module's own hold on its sites and contexts (a target resolved to a
        class defined in a test holds that test's scope, whose fixture lookup
        holds this module), so the file's trees are freed by reference
        counting alone."""
        for context in (self.module, *self.contexts):
            context.bound.clear()
            context.children.clear()
            if context.class_info is not None:
                context.class_info.fallback = None
        self.sites.clear()
        self.contexts.clear()
        self._by_call.clear()
        self._owned.clear()
        self._callees.clear()
        self._own_functions.clear()
        self._in_decorators.clear()
        self._decorating.clear()
        self._fixtures.clear()


def _is_start(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == PATCHER_START


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def _encloses(outer: ast.stmt | ast.expr, inner: ast.expr) -> bool:
    """Whether ``inner`` lies within the lines and columns ``outer`` spans."""
    start, end = (outer.lineno, outer.col_offset), (outer.end_lineno or outer.lineno, outer.end_col_offset or 0)
    return start <= (inner.lineno, inner.col_offset) and (inner.end_lineno or inner.lineno, inner.end_col_offset or 0) <= end


def _source(expr: ast.expr) -> str:
    text = ast.unparse(expr)
    return text if len(text) <= 80 else text[:77] + "..."




def _alias_of_self(context: Context, name: str) -> bool:
    """Whether ``name`` is bound once in ``context``, to ``self`` (``testcase =
    self``, buildbot's way of reaching the test case in a closure)."""
    assigned = context.assigns.get(name, [])
    return len(assigned) == 1 and isinstance(assigned[0], ast.Name) and assigned[0].id == "self"


def _site_of_helper(helper: Helper, call: ast.Call, context: Context) -> MockSite | None:
    """The mock site ``call`` of the patching ``helper`` makes; None when its
    arguments do not fit the helper."""
    made = helper.call_for(call)
    if made is None:
        return None
    site = MockSite(helper.entry.kind, made, context, helper.entry.api, helper.entry.name)
    site.hands_patcher = helper.hands_patcher
    site.helper = helper.qualname
    site.helper_function = helper.function
    site.source_call = call
    return site


def never_installed(site: MockSite) -> bool:
    """Whether ``site`` makes a patcher that nothing installs: a statement of
    its own (``mock.patch(...)``, google-api-core's ``utcnow`` patch), or bound
    to a local name (``p = mock.patch(...)``) that its test never starts, enters, stops
    or registers, and hands to no function of its own module (which might
    start it). Such a patch replaces nothing; the test passes the patcher
    object itself around (``validate(props, domain_id, p)``)."""
    if not site.entry.patcher or site.decorates is not None or site.source_call is not None:
        return False
    owner = site.owner
    if any(isinstance(statement, ast.Expr) and statement.value is site.call for statement in owner.statements):
        return True  # ``mock.patch(...)`` alone on its line: the patcher is made and dropped
    names = {
        target.id for statement in owner.statements
        if isinstance(statement, ast.Assign) and statement.value is site.call
        for target in statement.targets if isinstance(target, ast.Name)
    }
    if not names:
        return False
    defined = {context.name for context in (owner.parent or owner).children} | {
        node.name for node in walk(owner.node) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    bases = owner.node.bases if isinstance(owner.node, ast.ClassDef) else None
    in_class = bases is not None
    if bases and any(dotted_parts(base) not in (["object"], ["unittest", "TestCase"], ["TestCase"]) for base in bases):
        return False  # a class attribute a base class may start (libcloud's ``GoogleTestCase.setUpClass``)
    for node in walk(owner.node):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in names:
            return False  # p.start(), p.stop, p.new...: used as a patcher
        if in_class and isinstance(node, ast.Attribute) and node.attr in names:
            return False  # a class attribute read through the class or an instance (``cls.p.start()``)
        if in_class and isinstance(node, ast.Call) and callee_name(node) == "getattr" and len(node.args) >= 2 and not (
            isinstance(node.args[1], ast.Constant) and node.args[1].value not in names
        ):
            return False  # ``getattr(cls, name).start()`` over the class's patchers, found by name
        if isinstance(node, ast.withitem) and any(
            isinstance(name, ast.Name) and name.id in names for name in ast.walk(node.context_expr)
        ):
            return False
        if isinstance(node, ast.Call) and callee_name(node) in defined and any(
            isinstance(arg, ast.Name) and arg.id in names for arg in [*node.args, *(k.value for k in node.keywords)]
        ):
            return False
        handed_on = [*getattr(node, "decorator_list", [])] + (
            [node.value] if isinstance(node, (ast.Return, ast.Yield)) and node.value is not None else []
        )
        if any(isinstance(name, ast.Name) and name.id in names for expr in handed_on for name in ast.walk(expr)):
            return False  # @p, return p, yield p: installed elsewhere
    return True
