"""pytest fixtures, found statically: what a test's parameters and the
attributes fixtures set on ``request.instance`` denote.

Fixtures are looked up as pytest does, nearest first: the test module, the
``conftest.py`` files from the test's folder up to the project root, the modules
those name in ``pytest_plugins``, then the project's own pytest plugins
(``pytest11`` entry points). A fixture's value is what it returns, or what it
first yields.
"""

from __future__ import annotations

import ast
from pathlib import Path

from mockpolicy.deps import NO_DEPS, UNREADABLE, Deps, digest
from mockpolicy.index import ModuleIndex, is_file, module_name_for, summarize
from mockpolicy.project import Project
from mockpolicy.resolve import Resolver
from mockpolicy.source import SourceError, read_source
from mockpolicy.symbols import ClassInfo, Kind, ModuleInfo, Value
from mockpolicy.vocabulary import fixture_decorator, is_fixture

FixtureDef = tuple[ast.FunctionDef | ast.AsyncFunctionDef, ModuleInfo]


def fixture_name(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """The name pytest registers ``node`` under, or None if it is no fixture."""
    decorator = fixture_decorator(node.decorator_list)
    if decorator is None:
        return None
    if isinstance(decorator, ast.Call):
        for keyword in decorator.keywords:
            if keyword.arg == "name" and isinstance(keyword.value, ast.Constant):
                return str(keyword.value.value)
    return node.name


def is_autouse(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(
        isinstance(d, ast.Call) and any(
            k.arg == "autouse" and isinstance(k.value, ast.Constant) and k.value.value is True for k in d.keywords
        )
        for d in node.decorator_list
    )


class Fixtures:
    """The fixtures of one project, per folder; shares the engine's index and resolver."""

    def __init__(self, project: Project, index: ModuleIndex, resolver: Resolver) -> None:
        self.project = project
        self.index = index
        self.resolver = resolver
        self.tracker = index.tracker
        # Remembered with the dependencies of their computation (see mockpolicy.deps).
        self._conftests: dict[Path, tuple[ModuleInfo | None, Deps]] = {}
        self._chains: dict[Path, tuple[list[ModuleInfo], Deps]] = {}
        self._defs: dict[int, dict[str, FixtureDef]] = {}
        self._values: dict[tuple[int, str], tuple[Value, Deps]] = {}
        self._instance: dict[int, dict[str, tuple[ast.expr, FixtureDef]]] = {}

    # -- where fixtures come from -----------------------------------------

    def _conftest(self, directory: Path) -> ModuleInfo | None:
        return self.tracker.remembered(self._conftests, directory, lambda: self._read_conftest(directory / "conftest.py"))

    def _read_conftest(self, path: Path) -> ModuleInfo | None:
        if not is_file(path, self.tracker):
            return None
        try:
            data = read_source(path)
        except SourceError:
            data = None
        self.tracker.observe(("r", "", str(path)), digest(data) if data is not None else UNREADABLE)
        try:
            tree = ast.parse(data, filename=str(path)) if data is not None else None
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            tree = None
        if tree is None:
            return None
        name, is_package = module_name_for(path, self.tracker)
        info = summarize(name, path, is_package, tree)
        for node in ast.walk(tree):  # ``builtins.get_ipython = get_ipython``, at import or in a hook
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id in info.bindings:
                for target in node.targets:
                    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                            and target.value.id in ("builtins", "__builtins__"):
                        info.sets_builtins.setdefault(target.attr, node.value.id)
        return info

    def builtins_set_for(self, directory: Path) -> dict[str, tuple[ModuleInfo, str]]:
        """The names the conftests a test in ``directory`` sees set on ``builtins``
        (IPython's ``get_ipython``), nearest first: name -> (conftest, its local)."""
        found: dict[str, tuple[ModuleInfo, str]] = {}
        for conftest in self.chain(directory):
            for name, local in conftest.sets_builtins.items():
                found.setdefault(name, (conftest, local))
        return found

    def chain(self, directory: Path) -> list[ModuleInfo]:
        """The modules whose fixtures a test in ``directory`` sees, nearest first
        (the test module itself excluded)."""
        return self.tracker.remembered(self._chains, directory, lambda: self._chain(directory))

    def _chain(self, directory: Path) -> list[ModuleInfo]:
        modules: list[ModuleInfo] = []
        current = directory
        while True:
            conftest = self._conftest(current)
            if conftest is not None:
                modules.append(conftest)
            if current == self.project.root or current.parent == current:
                break
            if self.project.root not in current.parents:
                break
            current = current.parent
        plugins = [name for module in modules for name in self._declared_plugins(module)]
        plugins += list(self.project.pytest_plugins)
        for name in plugins:
            info = self.index.get(name)
            if info is not None:
                modules.append(info)
        return modules

    def _declared_plugins(self, module: ModuleInfo) -> list[str]:
        binding = module.bindings.get("pytest_plugins")
        if binding is None or binding.value is None:
            return []
        value = binding.value
        elements = value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value]
        return [e.value for e in elements if isinstance(e, ast.Constant) and isinstance(e.value, str)]

    def _definitions(self, module: ModuleInfo) -> dict[str, FixtureDef]:
        found = None if module.volatile else self._defs.get(id(module))
        if found is None:
            found = {}
            for binding in module.bindings.values():
                if binding.kind == "def" and binding.function is not None:
                    name = fixture_name(binding.function)
                    if name is not None:
                        found[name] = (binding.function, module)
            if not module.volatile:
                self._defs[id(module)] = found
        return found

    def autouse(self, test_module: ModuleInfo, directory: Path) -> list[FixtureDef]:
        """The autouse fixtures a test in ``directory`` gets: its module's and
        those of the conftest files and plugins above it."""
        return [
            found for module in (test_module, *self.chain(directory))
            for found in self._definitions(module).values() if is_autouse(found[0])
        ]

    def find(self, name: str, test_module: ModuleInfo, directory: Path) -> FixtureDef | None:
        for module in (test_module, *self.chain(directory)):
            found = self._definitions(module).get(name) or self._imported(module, name)
            if found is not None:
                return found
        return None

    def overriding_chain(self, name: str, test_module: ModuleInfo, directory: Path) -> list[FixtureDef]:
        """The fixture ``name`` a test in ``directory`` gets, then each one it
        overrides and asks for by its own name (``def tools(tools): ...``)."""
        chain: list[FixtureDef] = []
        found = self.find(name, test_module, directory)
        while found is not None and len(chain) < 10:
            chain.append(found)
            function, module = found
            arguments = function.args
            if name not in {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}:
                break
            found = self._overridden(name, module, directory)
        return chain

    def _imported(self, module: ModuleInfo, name: str) -> FixtureDef | None:
        """A fixture function imported into ``module`` under ``name`` (pytest registers those too)."""
        binding = module.bindings.get(name)
        if binding is None or binding.kind != "import":
            return None
        found = self.resolver.definition(binding.target)
        if found is not None and found[0].function is not None and fixture_name(found[0].function):
            return found[0].function, found[1]
        return None

    # -- what fixtures give -----------------------------------------------

    def value(self, name: str, test_module: ModuleInfo, directory: Path) -> Value | None:
        """What the fixture ``name`` gives a test in ``directory``; None if there is no such fixture."""
        found = self.find(name, test_module, directory)
        if found is None:
            return None
        return self._value_of(found, directory)

    def class_value(self, name: str, cls: ClassInfo, directory: Path) -> Value | None:
        """What the fixture ``name`` defined as a method of the test class ``cls``
        or of a project base of it gives (pytest looks there before the module);
        None if none of them defines it."""
        for owner in self.resolver.project_lineage(cls):
            for binding in owner.members.values():
                function = binding.function
                if binding.kind != "def" or function is None or fixture_name(function) != name:
                    continue
                scope = self.resolver.module_scope(owner.module)
                return self._value_of((function, scope.module), directory) if scope is not None else None
        return None

    def _value_of(self, fixture: FixtureDef, directory: Path) -> Value:
        function, module = fixture
        key = (id(function), str(directory))
        known = self._values.get(key)
        if known is not None:
            self.tracker.replay(known[1])
            return known[0]
        if module.volatile:  # a fixture of the file under analysis: not cached
            return self._evaluate_fixture(fixture, directory)
        self._values[key] = (Value(Kind.UNKNOWN), NO_DEPS)  # a fixture cycle resolves to unknown
        value, deps = self.tracker.collect(lambda: self._evaluate_fixture(fixture, directory))
        self._values[key] = (value, deps)
        return value

    def _evaluate_fixture(self, fixture: FixtureDef, directory: Path) -> Value:
        function, module = fixture
        generator = self.resolver.facts(function, module).is_generator

        def params(name: str) -> Value | None:
            if name != function.name:
                return self.value(name, module, directory)
            overridden = self._overridden(name, module, directory)  # ``def session(session): ...``
            return self._value_of(overridden, directory) if overridden is not None else None

        awaited = isinstance(function, ast.AsyncFunctionDef) and not generator  # pytest-asyncio awaits it
        return self.resolver.function_result(function, module, None, params, yielded=generator, awaited=awaited)

    def _overridden(self, name: str, module: ModuleInfo, directory: Path) -> FixtureDef | None:
        """The fixture ``name`` that the one of that name in ``module`` overrides
        (and receives when it asks for its own name, as pytest gives it): the
        next definition further out than ``module``."""
        chain = self.chain(directory)
        further = not any(candidate is module for candidate in chain)  # the test module itself
        for candidate in chain:
            if further:
                found = self._definitions(candidate).get(name) or self._imported(candidate, name)
                if found is not None:
                    return found
            elif candidate is module:
                further = True
        return None

    def instance_attribute(self, name: str, test_module: ModuleInfo, directory: Path) -> Value | None:
        """What an autouse fixture assigns to ``request.instance.<name>`` for
        tests in ``directory`` (nearest conftest first); None if none does."""
        for module in (test_module, *self.chain(directory)):
            assigned = self._instance_assignments(module).get(name)
            if assigned is not None:
                expr, (function, owner) = assigned
                facts_module = owner

                def params(param: str, owner: ModuleInfo = facts_module) -> Value | None:
                    return self.value(param, owner, directory)

                scope = self.resolver.function_scope(function, owner, None, params)
                return self.resolver.evaluate(expr, scope)
        return None

    def _instance_assignments(self, module: ModuleInfo) -> dict[str, tuple[ast.expr, FixtureDef]]:
        found = None if module.volatile else self._instance.get(id(module))
        if found is None:
            found = {}
            for function, _ in self._definitions(module).values():
                if not is_autouse(function) or not is_fixture(function.decorator_list):
                    continue
                for node in ast.walk(function):
                    if not isinstance(node, ast.Assign):
                        continue
                    for target in node.targets:
                        if (
                            isinstance(target, ast.Attribute)
                            and isinstance(target.value, ast.Attribute)
                            and target.value.attr == "instance"
                            and isinstance(target.value.value, ast.Name)
                        ):
                            found.setdefault(target.attr, (node.value, (function, module)))
            if not module.volatile:
                self._instance[id(module)] = found
        return found
