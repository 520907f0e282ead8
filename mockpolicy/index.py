"""A lazily built, cached symbol index of a project's modules.

A ``ModuleInfo`` records what a module binds at top level (imports, functions,
classes, assigned values) and what each class body binds, read from the
module's source with ``ast``; nothing is imported or executed. Modules are
parsed the first time a target resolves into them and kept for the process.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import os
import re
import sys
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Protocol, cast

from mockpolicy.bodies import body_spans, defer_bodies, function_lines, skeleton
from mockpolicy.deps import UNREADABLE, Tracker, digest, located_fact
from mockpolicy.functions import (
    TRY_STATEMENTS,
    FunctionNode,
    dotted_parts,
    import_bindings,
    is_none,
    own_nodes,
    unquoted,
    walk,
)
from mockpolicy.source import Lines, SourceError, declares_namespace, decode_source, read_source
from mockpolicy.symbols import Binding, ClassInfo, ModuleInfo, Scope
from mockpolicy.vocabulary import CLASS_SETUP_NAMES, FIXTURE_SET_UP, TEST_PREFIX, callee_name, is_fixture

_IMPORT_ERROR_CATCHERS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def _catches_import_error(caught: ast.expr | None) -> bool:
    """Whether an ``except`` clause catching ``caught`` catches a failed import."""
    if caught is None:
        return True
    names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
    return any((dotted_parts(name) or [""])[-1] in _IMPORT_ERROR_CATCHERS for name in names)


def _import_failed(test: ast.expr, table: dict[str, Binding]) -> bool:
    """Whether ``test`` (``not ssl``, ``ssl is None``) holds only when the
    optional import of that name failed: the module imports it in a ``try``
    whose ``except ImportError:`` binds it to None."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        name = test.operand
    elif isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Is) \
            and is_none(test.comparators[0]):
        name = test.left
    else:
        return False
    binding = table.get(name.id) if isinstance(name, ast.Name) else None
    return binding is not None and binding.kind == "import" and binding.fallback is not None \
        and binding.fallback.kind == "value" and is_none(binding.fallback.value)


def absolute_import(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute dotted name of a (possibly relative) import in ``module``."""
    if level == 0:
        return name or ""
    parts = module.split(".")
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else []
    base = ".".join(parts)
    if name:
        return f"{base}.{name}" if base else name
    return base


class _Summarizer:
    """Builds a ``ModuleInfo`` from a module's tree, top level and class bodies only."""

    def __init__(self, info: ModuleInfo) -> None:
        self.info = info
        self._typing_only = 0  # inside ``if TYPE_CHECKING:``: names for annotations, absent at run time
        self._in_branch = 0  # inside an ``if`` body

    def run(self, tree: ast.Module, analysed: bool) -> ModuleInfo:
        self._block(tree.body, self.info.bindings, None, conditional=False)
        self._filled_placeholders(tree)
        if analysed:
            self._helpers_tests_call()
        return self.info

    def _helpers_tests_call(self) -> None:
        """``self.x = ...`` in the methods the module's tests call as
        ``self.helper()``, of their own class or of a base the module defines
        (keystonemiddleware 13.0.1's ``self.set_middleware()``, a method of the
        base class, at the top of a subclass's test); what set-up assigns comes first."""
        classes: list[ClassInfo] = []
        pending = [self.info.bindings]
        while pending:
            for binding in pending.pop().values():
                if binding.kind == "class" and binding.cls is not None and binding.cls.module == self.info.name \
                        and all(binding.cls is not known for known in classes):
                    classes.append(binding.cls)
                    pending.append(binding.cls.members)
        called: set[str] = set()
        for cls in classes:
            for name, binding in cls.members.items():
                method = binding.function
                if method is not None and name.startswith(TEST_PREFIX) and method.args.args:
                    called |= _called_on_self(method, method.args.args[0].arg)
        for cls in classes:
            for name in sorted(called & cls.members.keys()):
                method = cls.members[name].function
                if method is not None and not _binds_instance_state(method):
                    self._instance_attrs(method, cls)

    def _filled_placeholders(self, tree: ast.Module) -> None:
        """A module-level ``X = None`` that one top-level function fills under
        ``global X`` with a call (``_CLIENT = Client()``, made on first use)
        holds what that call makes once filled in, as a declared ``X: C = None``
        does; filled with a name the function imports (click's ``_getchar =
        f`` after ``from ._impl import getchar as f``), it holds what that names."""
        bindings = self.info.bindings
        placeholders = {
            name for name, binding in bindings.items()
            if binding.kind == "value" and binding.declared is None and is_none(binding.value)
        }
        if not placeholders:
            return
        fills: dict[str, list[ast.expr]] = {}
        imported: dict[int, str] = {}  # id(fill) -> the dotted name a fill the function imports names
        for function in tree.body:
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            declared = {
                name for statement in function.body[:3] if isinstance(statement, ast.Global)
                for name in statement.names
            } & placeholders
            if not declared:
                continue
            nodes = walk(function)
            local_imports = {
                bound: absolute_import(self.info.name, self.info.is_package, level, dotted)
                for node in nodes if isinstance(node, (ast.Import, ast.ImportFrom))
                for bound, level, dotted in import_bindings(node)
            }
            for node in nodes:
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    if node.targets[0].id in declared and not is_none(node.value):
                        fills.setdefault(node.targets[0].id, []).append(node.value)
                        if isinstance(node.value, ast.Name) and node.value.id in local_imports:
                            imported[id(node.value)] = local_imports[node.value.id]
        for name, values in fills.items():
            if len(values) == 1 and isinstance(values[0], ast.Call):
                bindings[name] = dataclasses.replace(bindings[name], declared=values[0])
            elif len(values) == 1 and id(values[0]) in imported:  # click's ``_getchar = f`` after ``from ._impl import getchar as f``
                placeholder = bindings[name]  # (its None stays its value: putting None back fakes nothing)
                bindings[name] = Binding("import", placeholder.lineno, imported[id(values[0])], value=placeholder.value)

    def _bind(self, table: dict[str, Binding], name: str, binding: Binding, conditional: bool) -> None:
        if conditional and name in table:
            return
        if self._in_branch and name in table and binding.kind == "value" and binding.declared is None \
                and is_none(binding.value):
            return  # ``if not have_paramiko: Client = None``: the placeholder of a branch that skips its tests
        table[name] = binding

    def _block(
        self,
        body: list[ast.stmt],
        table: dict[str, Binding],
        cls: ClassInfo | None,
        conditional: bool,
    ) -> None:
        for stmt in body:
            self._statement(stmt, table, cls, conditional)

    def _statement(
        self, stmt: ast.stmt, table: dict[str, Binding], cls: ClassInfo | None, conditional: bool
    ) -> None:
        info = self.info
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if not (cls is not None and stmt.name in table and _extends_property(stmt)):
                self._bind(table, stmt.name, Binding("def", stmt.lineno, function=stmt), conditional)
            if cls is None and stmt.name == "__getattr__":
                info.has_getattr = True
            if cls is not None and _binds_instance_state(stmt):
                self._instance_attrs(stmt, cls)
        elif isinstance(stmt, ast.ClassDef):
            prefix = f"{cls.qualname}." if cls else ""
            child = ClassInfo(info.name, prefix + stmt.name, [_unsubscripted(base) for base in stmt.bases])
            self._block(stmt.body, child.members, child, conditional=False)
            self._helpers_instance_attrs(child)
            child.metaclass = next((keyword.value for keyword in stmt.keywords if keyword.arg == "metaclass"), None)
            child.dynamic = any(not _adds_no_attributes(keyword) for keyword in stmt.keywords) or bool(
                {"__getattr__", "__getattribute__"} & child.members.keys()
            )
            self._bind(table, stmt.name, Binding("class", stmt.lineno, cls=child), conditional)
        elif isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.asname:
                    self._bind(table, alias.asname, Binding("import", stmt.lineno, alias.name), conditional)
                else:
                    top = alias.name.partition(".")[0]
                    self._bind(table, top, Binding("import", stmt.lineno, top), conditional)
        elif isinstance(stmt, ast.ImportFrom):
            base = absolute_import(info.name, info.is_package, stmt.level, stmt.module)
            for alias in stmt.names:
                if alias.name == "*":
                    info.star_imports.append(base)
                    continue
                dotted = f"{base}.{alias.name}" if base else alias.name
                self._bind(table, alias.asname or alias.name, Binding("import", stmt.lineno, dotted), conditional)
                if cls is None and not self._typing_only:
                    info.imported.setdefault(dotted, []).append(alias.asname or alias.name)
        elif isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                self._assign(target, stmt.value, stmt.lineno, table, conditional)
        elif isinstance(stmt, ast.AnnAssign):
            declared = instance_of_declared(stmt.annotation) if cls is None and is_none(stmt.value) else None
            if declared is not None and isinstance(stmt.target, ast.Name):  # ``console: ConsoleOutput = None``
                binding = Binding("value", stmt.lineno, value=stmt.value, declared=declared)
                self._bind(table, stmt.target.id, binding, conditional)
            elif stmt.value is not None:
                self._assign(stmt.target, stmt.value, stmt.lineno, table, conditional)
            elif isinstance(stmt.target, ast.Name):  # declared, set elsewhere
                self._bind(table, stmt.target.id, Binding("unknown", stmt.lineno), conditional)
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            self._bind(table, stmt.target.id, Binding("unknown", stmt.lineno), conditional)
        elif isinstance(stmt, ast.If) and cls is None and _import_failed(stmt.test, table):
            bound: dict[str, Binding] = {}  # ``if not ssl: HTTPSConnection = DummyConnection``: the module's
            self._block(stmt.body, bound, cls, True)  # stand-ins when an optional import failed; its names stay
            for name, binding in bound.items():
                table.setdefault(name, binding)
            self._block(stmt.orelse, table, cls, True)
        elif isinstance(stmt, ast.If) and _is_type_checking(stmt.test):
            earlier = set(table)
            self._typing_only += 1
            self._in_branch += 1
            self._block(stmt.body, table, cls, conditional)
            self._in_branch -= 1
            self._typing_only -= 1
            bare = {name for name in table.keys() - earlier if table[name].kind == "unknown"}
            at_run_time: dict[str, Binding] = {}  # ``if TYPE_CHECKING: Reload: type[Base]`` / ``else: from .a import A as Reload``:
            self._block(stmt.orelse, at_run_time, cls, True)  # what the else binds runs, not the bare declaration
            for name, binding in at_run_time.items():
                if name in bare:
                    table[name] = binding
                else:
                    self._bind(table, name, binding, True)
        elif isinstance(stmt, ast.If) and (taken := decided_here(stmt.test, table)) is not None:
            self._block(stmt.body if taken else stmt.orelse, table, cls, conditional)  # the other runs elsewhere
        elif isinstance(stmt, ast.If):
            self._in_branch += 1
            self._block(stmt.body, table, cls, conditional)
            self._in_branch -= 1
            self._block(stmt.orelse, table, cls, True)
        elif isinstance(stmt, TRY_STATEMENTS):
            self._block(stmt.body, table, cls, conditional)
            for handler in stmt.handlers:
                self._handler(handler, stmt, table, cls)
            self._block(stmt.orelse, table, cls, conditional)
            self._block(stmt.finalbody, table, cls, conditional)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            self._block(stmt.body, table, cls, conditional)
        if cls is None and not info.has_getattr and _rewrites_namespace(stmt):
            info.has_getattr = True
        if cls is None:
            for changed in _classes_set_on(stmt, table):
                changed.dynamic = True  # ``setattr(Authenticator, old_name, shim)``: names added at run time

    def _handler(
        self, handler: ast.ExceptHandler, guarded: ast.stmt, table: dict[str, Binding], cls: ClassInfo | None
    ) -> None:
        """A handler's bindings are conditional: the ``try`` body's stand. When the
        handler catches a failed import and binds a name the body imported
        (``except ImportError: name = default``), that binding is the import's
        fallback, what the name holds when the imported module is absent."""
        bound: dict[str, Binding] = {}
        self._block(handler.body, bound, cls, True)
        catches_import = _catches_import_error(handler.type)
        for name, binding in bound.items():
            current = table.get(name)
            if current is None:
                table[name] = binding
            elif (
                catches_import and current.kind == "import" and current.fallback is None
                and guarded.lineno <= current.lineno <= (guarded.end_lineno or current.lineno)
            ):
                table[name] = dataclasses.replace(current, fallback=binding)

    def _assign(
        self, target: ast.expr, value: ast.expr, lineno: int, table: dict[str, Binding], conditional: bool
    ) -> None:
        if isinstance(target, ast.Name):
            previous = table.get(target.id)
            if previous is not None and any(
                isinstance(node, ast.Name) and node.id == target.id for node in walk(value)
            ):  # ``utcnow = partial(utcnow, with_tz=False)``: the value reads what the name held
                self._bind(table, target.id, Binding("value", lineno, value=value, previous=previous), conditional)
                return
            self._bind(table, target.id, Binding("value", lineno, value=value), conditional)
        elif isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
                for element, element_value in zip(target.elts, value.elts):
                    self._assign(element, element_value, lineno, table, conditional)
                return
            for element in target.elts:
                if isinstance(element, ast.Name):
                    self._bind(table, element.id, Binding("unknown", lineno), conditional)

    @classmethod
    def _helpers_instance_attrs(cls, info: ClassInfo) -> None:
        """``self.x = ...`` in the class's own methods that a set-up method or
        ``__init__`` calls as ``self.helper()`` (``self._setup_enforcer()``),
        and, in a class of tests, in its methods named as set-up hooks
        (``setup_beets``, which a base class's fixture calls before each
        test); what the set-up methods assign themselves comes first."""
        methods = {name: binding.function for name, binding in info.members.items() if binding.function is not None}
        called: set[str] = set()
        for method in methods.values():
            if _binds_instance_state(method) and method.args.args:
                called |= _called_on_self(method, method.args.args[0].arg) & methods.keys()
        if _a_class_of_tests(info.qualname.rpartition(".")[2], methods):
            called |= {name for name in methods if _named_as_a_set_up_hook(name)}
        for name in sorted(called):
            if not _binds_instance_state(methods[name]):
                cls._instance_attrs(methods[name], info)

    @staticmethod
    def _instance_attrs(init: ast.FunctionDef | ast.AsyncFunctionDef, cls: ClassInfo) -> None:
        if not init.args.args:
            return
        self_name = init.args.args[0].arg
        for node in walk(init):
            if isinstance(node, ast.Assign):
                for target, assigned in (pair for whole in node.targets for pair in paired_elements(whole, node.value)):
                    if (
                        isinstance(target, ast.Attribute)
                        and isinstance(target.value, ast.Name)
                        and target.value.id == self_name
                    ):
                        cls.instance_attrs.setdefault(target.attr, (assigned, init))
            elif (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Attribute)
                and isinstance(node.target.value, ast.Name)
                and node.target.value.id == self_name
            ):
                value = node.value
                if value is None or (isinstance(value, ast.Constant) and value.value is None):
                    value = instance_of_declared(node.annotation)  # set later: the declared type says what
                if value is not None:
                    cls.instance_attrs.setdefault(node.target.attr, (value, init))


def paired_elements(target: ast.expr, value: ast.expr) -> Iterator[tuple[ast.expr, ast.expr]]:
    """Each target of an assignment with the value it gets: element by element
    for a tuple or list unpacking a literal of as many elements, none starred
    (``self.engine, self.other = Engine(), Mock()``); else ``target`` and ``value``."""
    if (
        isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List))
        and len(target.elts) == len(value.elts)
        and not any(isinstance(element, ast.Starred) for element in (*target.elts, *value.elts))
    ):
        for inner_target, inner_value in zip(target.elts, value.elts):
            yield from paired_elements(inner_target, inner_value)
    else:
        yield target, value


def _called_on_self(method: ast.FunctionDef | ast.AsyncFunctionDef, self_name: str) -> set[str]:
    """The names ``method`` calls as methods of ``self_name`` (``self.helper()``)."""
    return {
        node.func.attr for node in walk(method)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name) and node.func.value.id == self_name
    }


def _extends_property(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether ``function`` is decorated ``@<its name>.setter`` (or ``.deleter``):
    the name still holds the property, read through the getter defined before."""
    return any(
        isinstance(decorator, ast.Attribute) and decorator.attr in ("setter", "deleter")
        and isinstance(decorator.value, ast.Name) and decorator.value.id == function.name
        for decorator in function.decorator_list
    )


def _unsubscripted(base: ast.expr) -> ast.expr:
    """A class's base as a name: ``Worker`` for ``Worker[Segment]`` (a generic's
    parameters change none of its members)."""
    return base.value if isinstance(base, ast.Subscript) else base


def instance_of_declared(annotation: ast.expr) -> ast.expr | None:
    """``C()`` for an attribute declared ``C``, ``C | None`` or ``Optional[C]``
    (a quoted annotation too), as an expression the resolver evaluates to an
    instance of ``C``. A union of classes (``A | B``, ``Union[A, B]``) gives
    ``(A | B)()``, which the resolver reads as an instance of the classes'
    nearest shared project base. None for any other annotation."""
    parsed = unquoted(annotation)
    if parsed is None:
        return None
    members = [member for member in _union_members(parsed) if not is_none(member)]
    if not members or any(dotted_parts(member) is None for member in members):
        return None
    func = members[0]
    for member in members[1:]:
        func = ast.BinOp(left=func, op=ast.BitOr(), right=member, lineno=member.lineno, col_offset=member.col_offset)
    return ast.Call(func=func, args=[], keywords=[], lineno=parsed.lineno, col_offset=parsed.col_offset)


def _union_members(annotation: ast.expr) -> list[ast.expr]:
    """The alternatives of ``A | B | None``, ``Optional[A]`` or ``Union[A, B]``;
    ``[annotation]`` for anything else."""
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        return [*_union_members(annotation.left), *_union_members(annotation.right)]
    if isinstance(annotation, ast.Subscript) and (dotted_parts(annotation.value) or [""])[-1] in ("Optional", "Union"):
        inner = annotation.slice
        return [member for element in (inner.elts if isinstance(inner, ast.Tuple) else [inner])
                for member in _union_members(element)]
    return [annotation]


def _a_class_of_tests(name: str, members: Collection[str]) -> bool:
    """Whether a class so named with such members holds tests (a method named
    as pytest collects one), or is named as a base of classes of tests
    (``TidalPluginTest``, ``TestHelper``, ``BaseTestCase``)."""
    return any(member.startswith(TEST_PREFIX) for member in members) or name.startswith("Test") \
        or name.endswith(("Test", "Tests", "TestCase"))


def _named_as_a_set_up_hook(name: str) -> bool:
    """``setup_beets``, ``set_up_env``, ``_setUpData``: a method a test class's
    base may call to set each test up (a fixture, a set-up method)."""
    folded = name.lower()
    return not folded.startswith(TEST_PREFIX) and ("setup" in folded or "set_up" in folded) \
        and "teardown" not in folded and "tear_down" not in folded


def _binds_instance_state(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether ``self.x = ...`` in ``func`` sets up state the other methods read:
    ``__init__``, unittest/pytest set-up methods, the ``fixtures`` package's
    ``Fixture._setUp``, and fixtures defined on the class."""
    return func.name in ("__init__", FIXTURE_SET_UP) or func.name in CLASS_SETUP_NAMES or is_fixture(func.decorator_list)


def local_class(module: str, node: ast.ClassDef, qualname: str, bases_scope: Scope) -> ClassInfo:
    """The ``ClassInfo`` of a class defined inside a function; its bases are
    evaluated in ``bases_scope`` (the function's names)."""
    summarizer = _Summarizer(ModuleInfo(module, None, False))
    info = ClassInfo(module, qualname, [_unsubscripted(base) for base in node.bases], bases_scope=bases_scope)
    summarizer._block(node.body, info.members, info, conditional=False)
    return info


_WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


def _import_words(source: bytes) -> frozenset[str]:
    """Every identifier on the import lines of a source (a parenthesized import
    list included), without parsing it."""
    words: set[str] = set()
    open_list = False
    for line in source.splitlines():
        if open_list or b"import" in line:
            words.update(w.decode("ascii") for w in _WORD.findall(line.split(b"#", 1)[0]))
            if b"(" in line and b"import" in line:
                open_list = b")" not in line
            elif open_list and b")" in line:
                open_list = False
    return frozenset(words)


def _classes_set_on(stmt: ast.stmt, table: dict[str, Binding]) -> list[ClassInfo]:
    """The classes of the module that a top-level statement (not a definition)
    gives attributes with ``setattr`` (jupyterhub's deprecated method names,
    set on ``Authenticator`` in a loop)."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
        return []
    found: list[ClassInfo] = []
    for node in walk(stmt):
        if isinstance(node, ast.Call) and callee_name(node) == "setattr" and node.args \
                and isinstance(node.args[0], ast.Name):
            binding = table.get(node.args[0].id)
            if binding is not None and binding.kind == "class" and binding.cls is not None:
                found.append(binding.cls)
    return found


def _rewrites_namespace(stmt: ast.stmt) -> bool:
    """Whether a top-level statement may add names to its module at run time:
    it hands ``__name__`` to a module-making call (``recreate_module``, lazy
    loaders' ``attach``), assigns ``sys.modules[...]``, or uses
    ``globals()``/``setattr``/``exec``."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
        return False
    for node in walk(stmt):
        if isinstance(node, ast.Call):
            name = callee_name(node)
            if name in ("globals", "setattr", "exec", "vars"):
                return True
            rewriting = "module" in name.lower() or name in ("attach", "lazy_import")
            if rewriting and any(isinstance(a, ast.Name) and a.id == "__name__" for a in node.args):
                return True
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            if isinstance(node.value, ast.Attribute) and node.value.attr == "modules":
                return True
        elif isinstance(node, ast.Name) and node.id == "__getattr__" and isinstance(node.ctx, ast.Store):
            return True
    return False


def summarize(name: str, path: Path | None, is_package: bool, tree: ast.Module, analysed: bool = False) -> ModuleInfo:
    """The ``ModuleInfo`` of an already parsed module; ``analysed``: the file
    under analysis, whose tests' calls of helper methods are read too (the
    bodies of a module the index reads are not all at hand)."""
    info = _Summarizer(ModuleInfo(name, path, is_package)).run(tree, analysed)
    if is_package:
        info.imported_at_run_time = _imported_by_functions(tree, name)
    return info


def _imported_by_functions(tree: ast.Module, package: str) -> list[str]:
    """The modules of ``package`` its top-level functions import by a constant
    name (``__import__("pkg.widget")``, ``importlib.import_module(...)``)."""
    found: list[str] = []
    for function in tree.body:
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in walk(function):
            if (
                isinstance(node, ast.Call) and callee_name(node) in ("__import__", "import_module") and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
                and node.args[0].value.startswith(package + ".")
            ):
                found.append(node.args[0].value)
    return found


class SummaryStore(Protocol):
    """Where what is learnt of a module's bytes outlives the run (the persistent
    cache): records of a ``kind`` by a key naming those bytes. A record is plain
    JSON data; ``load`` gives None for a record it does not hold or cannot trust."""

    def load(self, kind: str, key: str) -> object | None: ...

    def save(self, kind: str, key: str, record: object) -> None: ...

    def load_derived(self, kind: str, key: str) -> tuple[object, dict[str, str]] | None:
        """A record derived from the project's files, with the facts
        (``Tracker.facts_of``) it was computed from, when they all hold now."""

    def save_derived(self, kind: str, key: str, record: object, facts: dict[str, str]) -> None: ...


class ModuleIndex:
    """Finds and summarizes the modules under a project's source roots.

    ``get(name)`` is ``None`` for a module with no source under the roots, and
    a ``ModuleInfo`` with no bindings for a namespace package or a module whose
    source does not parse.

    With a ``store``, a module read before is parsed as its skeleton (its text
    without function bodies, ``mockpolicy.bodies.skeleton``), whose bodies are
    parsed when first used: what the summary reads of a body comes from the
    same text, so the summary is the same. That pays in a run analysing few
    files (a pre-commit hook, an edited test file); a run analysing many reads
    most bodies of the modules it meets, and parses them whole (``skeletons``
    off). The other records of the store serve either way.
    """

    def __init__(
        self, source_roots: tuple[Path, ...], defer_bodies: bool = False, tracker: Tracker | None = None, tag: str = "p",
        store: SummaryStore | None = None,
    ) -> None:
        self.source_roots = source_roots
        self.defer_bodies = defer_bodies  # parse function bodies again on first use (see mockpolicy.bodies)
        self.tracker = tracker or Tracker()  # what analyses read (see mockpolicy.deps)
        self.tag = tag  # names this index in the tracker's dependencies
        self.store = store
        self.skeletons = store is not None  # read modules from their skeletons (see above)
        self._modules: dict[str, ModuleInfo | None] = {}
        self._located: dict[str, tuple[Path | None, bool] | None] = {}
        # extension module -> (its C source, that source's fact, the names it adds as values)
        self._compiled: dict[str, tuple[Path, str, frozenset[str]] | None] = {}
        self._import_words: dict[Path, frozenset[str]] = {}
        self._texts: dict[Path, tuple[Lines, str]] = {}  # the lines deferred bodies are parsed from, with their digest

    def text(self, path: Path) -> tuple[Lines, str] | None:
        """The lines of the module file ``path`` that the index keeps (to parse
        its deferred bodies) and the digest of the bytes they came from; None
        when it keeps none. The engine's ``Memo`` reads them instead of a copy."""
        return self._texts.get(path)

    def locate(self, name: str) -> tuple[Path | None, bool] | None:
        """``(file, is_package)`` for a project module, ``(None, True)`` for a
        namespace package directory, ``(None, False)`` for an extension module
        of a package (``compiled_module_file``), ``None`` when there is no such module."""
        if name in self._located:
            self.tracker.note(("l", self.tag, name))
            return self._located[name]
        analysed = self._modules.get(name)
        if analysed is not None and analysed.volatile:  # the file under analysis, wherever it lies
            return analysed.path, analysed.is_package
        result: tuple[Path | None, bool] | None = None
        parts = name.split(".")
        if all(part.isidentifier() for part in parts):
            parent = parts[:-1]
            if parent and self.locate(".".join(parent)) is None:
                result = None
            else:
                for root in self.source_roots:
                    base = root.joinpath(*parts)
                    init = base / "__init__.py"
                    if init.is_file():
                        result = (None, True) if declares_namespace(init) else (init, True)
                        break
                    module = base.with_name(base.name + ".py")
                    if module.is_file():
                        result = (module, False)
                        break
                    if parent and compiled_module_file(base) is not None:
                        result = (None, False)
                        break
                    if base.is_dir():
                        result = (None, True)
                        break
        self._located[name] = result
        self.tracker.observe(("l", self.tag, name), located_fact(result))
        return result

    def compiled_file(self, name: str) -> Path | None:
        """The file making the extension module ``name`` (see ``locate``)."""
        return next(
            (found for root in self.source_roots
             if (found := compiled_module_file(root.joinpath(*name.split(".")))) is not None), None,
        )

    def compiled_constants(self, name: str) -> frozenset[str]:
        """The names the C source of the extension module ``name`` adds as
        values (``PyModule_AddIntConstant(mod, "version", ...)``), not functions;
        empty without such a source."""
        if name not in self._compiled:
            source = self.compiled_file(name)
            if source is None or source.suffix != ".c":
                self._compiled[name] = None
            else:
                try:
                    data = read_source(source)
                except SourceError:
                    data = b""
                added = frozenset(match.decode() for match in _ADDED_VALUE.findall(data))
                self._compiled[name] = (source, digest(data) if data else UNREADABLE, added)
        known = self._compiled[name]
        if known is None:
            return frozenset()
        source, fact, added = known
        self.tracker.observe(("r", "", str(source)), fact)  # read once per run, noted for every file using it
        return added

    def is_analysed(self, name: str) -> bool:
        """Whether ``name`` is the module of the file under analysis (``ModuleInfo.volatile``)."""
        known = self._modules.get(name)
        return known is not None and known.volatile

    def add(self, info: ModuleInfo) -> None:
        """Register an already summarized module (the file being analysed)."""
        self._modules[info.name] = info

    def discard(self, info: ModuleInfo) -> None:
        """Forget ``info`` (registered with ``add``) so its tree can be freed."""
        if self._modules.get(info.name) is info:
            del self._modules[info.name]

    def may_import(self, name: str, imported: str) -> bool:
        """A cheap test before parsing: whether module ``name`` may import the name
        ``imported``, read from the words of its import statements. True for a
        module already parsed."""
        if name in self._modules:
            self._note_module(name)
            return True
        located = self.locate(name)
        if located is None or located[0] is None:
            return False
        words = self._import_words.get(located[0])
        if words is None:
            try:
                data = read_source(located[0])
            except SourceError:
                data = None
            self._observe_module(name, located, data)
            words = self._import_words[located[0]] = _import_words(data) if data is not None else frozenset()
        else:
            self.tracker.note(("m", self.tag, name))
        return imported in words

    def _observe_module(
        self, name: str, located: tuple[Path | None, bool] | None, data: bytes | None, data_digest: str | None = None,
    ) -> None:
        if data is not None and data_digest is None:
            data_digest = digest(data)
        fact = located_fact(located) + "|" + (data_digest or UNREADABLE)
        self.tracker.observe(("m", self.tag, name), fact)

    def _note_module(self, name: str) -> None:
        info = self._modules[name]
        if info is None or not info.volatile:  # the file under analysis is keyed by its own bytes
            self.tracker.note(("m", self.tag, name))

    def get(self, name: str) -> ModuleInfo | None:
        if name in self._modules:
            self._note_module(name)
            return self._modules[name]
        located = self.locate(name)
        info: ModuleInfo | None = None
        data: bytes | None = None
        data_digest: str | None = None
        if located is not None:
            path, is_package = located
            info = ModuleInfo(name, path, is_package)
            if path is not None:
                try:
                    data = read_source(path)
                except SourceError:
                    data = None
                if data is not None:
                    data_digest = digest(data)
                    info = self._summary(name, path, is_package, data, data_digest) or info
        self._observe_module(name, located, data, data_digest)
        self._modules[name] = info
        return info

    def _summary(self, name: str, path: Path, is_package: bool, data: bytes, data_digest: str) -> ModuleInfo | None:
        """The summary of the module ``name`` read from ``data``; None when it does not parse."""
        key = f"{data_digest}:{name}:{int(is_package)}"
        store = self.store if self.skeletons else None
        if store is not None:
            found = self._skeleton_tree(store.load("skeleton", key), data)
            if found is not None:
                tree, lines = found
                info = summarize(name, path, is_package, tree)
                if self.defer_bodies:
                    defer_bodies(tree, lines)  # the bodies the summary read too
                info.summary_key = key
                self._texts[path] = (lines, data_digest)
                return info
        try:
            tree = ast.parse(data, filename=str(path))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        info = summarize(name, path, is_package, tree)
        info.summary_key = key
        if store is not None or self.defer_bodies:
            try:
                lines = Lines(decode_source(data))
            except (UnicodeDecodeError, SyntaxError):
                return info  # bodies stay as parsed
            if store is not None:
                kept = functools.partial(_read_by_summary, is_package=is_package)
                record = {"spans": body_spans(tree, lines, kept), "functions": function_lines(tree)}
                store.save("skeleton", key, record)
            if self.defer_bodies:
                # Which functions call which names, read now that the bodies are
                # parsed: the search for callers would parse each body again.
                info.calls = calls_record(info)
                if store is not None:
                    store.save("calls", key, info.calls)
                defer_bodies(tree, lines)
                self._texts[path] = (lines, data_digest)
        return info

    def _skeleton_tree(self, record: object, data: bytes) -> tuple[ast.Module, Lines] | None:
        """The tree of the skeleton ``record`` describes, the bodies it left
        out deferred, and the module's lines; None when the record does not fit ``data``."""
        if not (isinstance(record, dict) and isinstance(record.get("spans"), list)):
            return None
        try:
            spans = [(int(first), int(last), str(indentation)) for first, last, indentation in record["spans"]]
            functions = [(int(first), int(last)) for first, last in record["functions"]]
            lines = Lines(decode_source(data))
            tree = ast.parse(skeleton(lines, spans))
        except (TypeError, ValueError, KeyError, SyntaxError, RecursionError, MemoryError):
            return None
        if function_lines(tree) != functions:
            return None
        defer_bodies(tree, lines, keep=not self.defer_bodies, only={last for _, last, _ in spans})
        return tree, lines


# What an extension module of a package is built to (``_speedups.cpython-311-x86_64-linux-gnu.so``,
# ``_speedups.pyd``) or built from, beside the package's modules (psutil's
# ``_psutil_linux.c``, a Cython ``.pyx``).
_COMPILED_SUFFIXES = (".so", ".pyd", ".c", ".pyx")
# A value a C extension module's init function adds to the module by name.
_ADDED_VALUE = re.compile(rb"PyModule_Add\w*\(\s*[^,()]+,\s*\"(\w+)\"")


def compiled_module_file(base: Path) -> Path | None:
    """The file that makes the module at ``base`` (its path without a suffix)
    an extension module: a built library, or a C or Cython source of that
    name; None for none."""
    folder = base.parent
    if not folder.is_dir():
        return None
    for suffix in _COMPILED_SUFFIXES:
        candidate = base.with_name(base.name + suffix)
        if candidate.is_file():
            return candidate
    return next(folder.glob(f"{base.name}.*.so"), None) or next(folder.glob(f"{base.name}.*.pyd"), None)


def module_functions(info: ModuleInfo) -> Iterator[tuple[str, FunctionNode, str]]:
    """The functions and methods (classes at any depth) a module binds, with
    dotted names and, for a method, its class's dotted name."""
    stack: list[tuple[str, dict[str, Binding], str]] = [(info.name, info.bindings, "")]
    while stack:
        prefix, table, owner = stack.pop()
        for name, binding in table.items():
            if binding.kind == "def" and binding.function is not None:
                yield f"{prefix}.{name}", binding.function, owner
            elif binding.kind == "class" and binding.cls is not None and binding.cls.module == info.name:
                stack.append((f"{prefix}.{name}", binding.cls.members, f"{prefix}.{name}"))


def calls_in(node: FunctionNode) -> dict[str, list[ast.Call]]:
    """The calls in ``node``'s own body by their callee's last name."""
    by_name: dict[str, list[ast.Call]] = {}
    for call in own_nodes(node):
        if isinstance(call, ast.Call):
            by_name.setdefault(callee_name(call.func), []).append(call)
    by_name.pop("", None)
    return by_name


def calls_record(info: ModuleInfo) -> dict[str, list[int]]:
    """For each name the functions of ``info`` call (a callee's last name), the
    numbers of those functions in ``module_functions`` order: what the summary
    store keeps of a module as its "calls"."""
    numbers: dict[str, list[int]] = {}
    for number, (_, node, _) in enumerate(module_functions(info)):
        for name in calls_in(node):
            numbers.setdefault(name, []).append(number)
    return numbers


def _read_by_summary(function: ast.FunctionDef | ast.AsyncFunctionDef, is_method: bool, is_package: bool) -> bool:
    """Whether the summary reads ``function``'s body (a skeleton keeps it):
    a set-up method's, a function's filling module globals, a package's functions."""
    if is_method:
        return _binds_instance_state(function)
    return is_package or any(isinstance(statement, ast.Global) for statement in function.body[:3])


def module_name_for(path: Path, tracker: Tracker | None = None) -> tuple[str, bool]:
    """The dotted module name of a source file and whether it is a package.

    The name is found as pytest's default import mode finds it: climb while the
    directory holds ``__init__.py`` (each look noted in ``tracker``).
    """
    is_package = path.name == "__init__.py"
    prefix = _package_prefix(path.parent, tracker or Tracker())
    if is_package:
        return ".".join(prefix) or path.parent.name, True
    return ".".join([*prefix, path.stem]), False


def _package_prefix(directory: Path, tracker: Tracker) -> tuple[str, ...]:
    """The package names from the outermost package down to ``directory``
    (read from the file system each time: packages may appear between runs)."""
    names: list[str] = []
    while is_file(directory / "__init__.py", tracker) and directory.parent != directory:
        names.append(directory.name)
        directory = directory.parent
    return tuple(reversed(names))


def is_file(path: Path, tracker: Tracker) -> bool:
    """Whether ``path`` is a regular file, noted in ``tracker``."""
    found = path.is_file()
    tracker.observe(("e", "", str(path)), "1" if found else "0")
    return found


def _is_type_checking(test: ast.expr) -> bool:
    """``TYPE_CHECKING`` or ``typing.TYPE_CHECKING``: true for type checkers only."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def decided_here(test: ast.expr, table: dict[str, Binding]) -> bool | None:
    """The value of a check of the platform or of Python's version, as type
    checkers read it, on the machine and Python running the analysis:
    ``sys.platform == "win32"``, ``sys.platform.startswith(("win", "cygwin"))``,
    ``os.name != "nt"``, ``sys.version_info >= (3, 11)``, and ``not``/``and``/``or``
    of them (``sys`` and ``os`` imported in ``table``); None for any other test."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = decided_here(test.operand, table)
        return None if inner is None else not inner
    if isinstance(test, ast.BoolOp):
        values = [decided_here(value, table) for value in test.values]
        if any(value is None for value in values):
            return None
        return all(values) if isinstance(test.op, ast.And) else any(values)
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr == "startswith" \
            and len(test.args) == 1 and not test.keywords and _platform_value(test.func.value, table) is not None:
        prefixes = _strings(test.args[0])
        platform = _platform_value(test.func.value, table)
        return None if prefixes is None or not isinstance(platform, str) else platform.startswith(tuple(prefixes))
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    value, op, other = _platform_value(test.left, table), test.ops[0], test.comparators[0]
    if isinstance(value, str):
        if isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(other, ast.Constant) and isinstance(other.value, str):
            return (value == other.value) == isinstance(op, ast.Eq)
        choices = _strings(other)
        if isinstance(op, (ast.In, ast.NotIn)) and choices is not None:
            return (value in choices) == isinstance(op, ast.In)
        return None
    if isinstance(value, tuple) and isinstance(other, ast.Tuple) and len(other.elts) <= 3 and all(
        isinstance(item, ast.Constant) and type(item.value) is int for item in other.elts
    ):
        version = cast("tuple[int, ...]", tuple(cast("ast.Constant", item).value for item in other.elts))
        running = cast("tuple[int, ...]", value)  # its ints decide against at most three
        value = running
        compared = {ast.Lt: value < version, ast.LtE: value <= version, ast.Gt: value > version,
                    ast.GtE: value >= version, ast.Eq: value == version, ast.NotEq: value != version}
        return compared.get(type(op))
    return None


def _platform_value(expr: ast.expr, table: dict[str, Binding]) -> str | tuple[object, ...] | None:
    """``sys.platform``, ``os.name`` or ``sys.version_info`` (the module imported
    by that name in ``table``) as the running Python has it; None for anything else."""
    if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name)):
        return None
    binding = table.get(expr.value.id)
    module = binding.target if binding is not None and binding.kind == "import" else None
    if module == "sys" and expr.attr == "platform":
        return sys.platform
    if module == "os" and expr.attr == "name":
        return os.name
    if module == "sys" and expr.attr == "version_info":
        return tuple(sys.version_info)  # (3, 11, 7, 'final', 0) compares as the interpreter's does
    return None


def _strings(expr: ast.expr) -> list[str] | None:
    """The strings a constant or a tuple, list or set of constants spells; None otherwise."""
    items = expr.elts if isinstance(expr, (ast.Tuple, ast.List, ast.Set)) else [expr]
    found = [item.value for item in items if isinstance(item, ast.Constant) and isinstance(item.value, str)]
    return found if len(found) == len(items) else None


_PLAIN_METACLASSES = frozenset({"ABCMeta"})  # abc's metaclass checks abstract methods; it adds no attributes


def _adds_no_attributes(keyword: ast.keyword) -> bool:
    """Whether a class keyword leaves the class's attributes as written
    (``metaclass=abc.ABCMeta``); other metaclasses and keywords may add some."""
    value = keyword.value
    name = value.attr if isinstance(value, ast.Attribute) else value.id if isinstance(value, ast.Name) else ""
    return keyword.arg == "metaclass" and name in _PLAIN_METACLASSES
