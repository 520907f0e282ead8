"""Static evaluation of mock targets: what object does a dotted path or an
expression denote, and where is it defined?

The resolver follows imports, re-exports, class bodies and their bases,
module-level assignments and constructor calls through the ``ModuleIndex``.
It answers ``UNKNOWN`` rather than guess, so a rule that acts only on definite
answers stays precise.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from mockpolicy.deps import NO_DEPS, Deps
from mockpolicy.functions import (
    CONTEXT_MANAGER_DECORATORS,
    PROPERTY_DECORATORS,
    FunctionFacts,
    FunctionNode,
    decorator_names,
    dotted_parts,
    function_facts,
    is_none,
    own_nodes,
    unquoted,
)
from mockpolicy.index import ModuleIndex, absolute_import, instance_of_declared, local_class
from mockpolicy.project import Project
from mockpolicy.symbols import (
    CODE_KINDS,
    MISSING,
    UNKNOWN,
    Binding,
    ClassInfo,
    Kind,
    Lookup,
    ModuleInfo,
    Scope,
    Value,
    class_of,
    external,
)
from mockpolicy.vocabulary import USE_FIXTURE, callee_name

MAX_DEPTH = 60
SINGLETON_GETTER = "instance"  # a library's singleton base gives the class's one instance by this classmethod
MAX_TUPLE = 8  # tuples are followed item by item up to this length
BUILTIN_NAMES = frozenset(dir(builtins))
PROTOCOL_CLASSES = frozenset({"typing.Protocol", "typing_extensions.Protocol"})


# Decorators known to replace a function with an object of another kind: a
# descriptor, a command, a task. Any other decorator is taken to wrap the
# function and keep its module (functools.wraps), as mock and the oracle see it.
OBJECT_MAKING_DECORATORS = frozenset(
    {"cached_property", "cachedproperty", "lazy_property", "lazyproperty", "reify", "hybrid_property",
     "command", "group", "option", "argument", "pass_context", "pass_obj",
     "task", "shared_task", "fixture"}
)

# Functions of libraries that import an object named by a string
# ("pkg.mod:Class" or "pkg.mod.Class"): with a constant name they are imports
# like any other.
DYNAMIC_IMPORTERS = frozenset({"import_module", "import_class", "symbol_by_name", "import_string", "import_object", "locate"})
# ... and Twisted's, of a library or of the project itself (Twisted's own
# suite): names no project gives a function doing anything else.
NAMED_IMPORTERS = frozenset({"requireModule", "namedAny", "namedModule", "namedObject", "namedClass"})
# ... of which these also call what they import (oslo's importutils.import_object("pkg.Class")).
INSTANTIATING_IMPORTERS = frozenset({"import_object"})
# Proxies that hand every attribute to a backend named by module path: oslo.db's
# ``DBAPI.from_config(CONF, backend_mapping={"sqlalchemy": "pkg.db.api"})`` is
# what ``pkg.db.api.get_backend()`` returns.
BACKEND_PROXIES = frozenset({"oslo_db.api.DBAPI", "oslo_db.api.DBAPI.from_config"})

# Calls whose result stands for the function given first: ``partial`` calls it,
# the caches wrap it with ``functools.update_wrapper`` (its module and name), as
# does the decorator a parametrised ``lru_cache(maxsize=...)`` returns.
SEE_THROUGH_WRAPPERS = frozenset({
    "functools.partial", "functools.cache", "functools.lru_cache", "functools.lru_cache()",
    "builtins.staticmethod", "builtins.classmethod",  # a class body's ls = staticmethod(_ls)
})


# The configuration objects whose attributes are options (oslo.config's global
# ``cfg.CONF``): an option read there is its declared default, the value a test
# sees unless it overrides the option.
CONFIG_OBJECTS = frozenset({"oslo_config.cfg.CONF"})


class Resolver:
    """Evaluates targets for one project; shares the project's ``ModuleIndex``."""

    def __init__(self, project: Project, index: ModuleIndex) -> None:
        self.project = project
        self.index = index
        self.tracker = index.tracker
        self._depth = 0
        # Remembered with the dependencies of their computation (see mockpolicy.deps).
        self._dotted: dict[str, tuple[Value, Deps]] = {}
        self._display: dict[str, tuple[str, Deps]] = {}
        self._facts: dict[int, FunctionFacts] = {}
        self._results: dict[tuple[int, int, bool, bool], tuple[Value, Deps]] = {}
        self._binding_instance: set[tuple[int, str]] = set()
        self._options: dict[tuple[str, str], tuple[str | None, Deps]] = {}
        # The known classes combining a class, set by the engine (``Subclasses.known``):
        # ``self.x`` in a mixin's method is what the classes running it give it.
        self.hosts: Callable[[ClassInfo], list[ClassInfo]] | None = None
        self._hosting: set[tuple[int, str]] = set()
        self._called_with_arguments: set[tuple[int, int]] = set()  # functions whose result with arguments is being found

    def forget_facts(self, function: FunctionNode) -> None:
        """Drop the facts of ``function``'s body, which is about to be unloaded."""
        self._facts.pop(id(function), None)

    # -- public API -------------------------------------------------------

    def is_first_party(self, value: Value) -> bool:
        return value.kind in CODE_KINDS and self.project.is_first_party(value.module)

    def resolve_dotted(self, path: str) -> Value:
        """What the import path ``a.b.C.attr`` denotes (as ``mock.patch`` resolves it)."""
        known = self._dotted.get(path)
        if known is not None:
            self.tracker.replay(known[1])
            return known[0]
        (found, volatile), deps = self.tracker.collect(lambda: self._resolve_dotted_once(path))
        if not volatile:
            self._dotted[path] = (found, deps)
        return found

    def _resolve_dotted_once(self, path: str) -> tuple[Value, bool]:
        """What ``path`` denotes, and whether that belongs to the file under analysis."""
        found = self._resolve_dotted(path)
        return found, self.is_volatile(found.cls) or self.is_volatile(found.owner) or self.index.is_analysed(found.module)

    def is_volatile(self, cls: ClassInfo | None) -> bool:
        """Whether ``cls`` belongs to the file under analysis (whose trees are not kept)."""
        if cls is None:
            return False
        info = self.index.get(cls.module)
        return info is not None and info.volatile

    def _resolve_dotted(self, path: str) -> Value:
        parts = path.split(".")
        if not path or not all(part.isidentifier() for part in parts):
            return MISSING
        if self.index.locate(parts[0]) is None:
            if parts[0] == "builtins" and len(parts) == 2:
                return external(path) if parts[1] in BUILTIN_NAMES else MISSING
            return external(path)
        # Longest prefix that is a module of the project.
        cut = 1
        while cut < len(parts) and self.index.locate(".".join(parts[: cut + 1])) is not None:
            cut += 1
        value = Value(Kind.MODULE, module=".".join(parts[:cut]), qualname=".".join(parts[:cut]))
        for name in parts[cut:]:
            value = self.attribute(value, name)
        return value

    def definition(self, path: str, depth: int = 0) -> tuple[Binding, ModuleInfo] | None:
        """The top-level binding that the import path ``a.b.name`` finally names
        (following re-exports), with its module; None outside the project."""
        module, _, name = path.rpartition(".")
        info = self.index.get(module) if module and depth < 10 else None
        binding = info.bindings.get(name) if info is not None else None
        if binding is None or info is None:
            return None
        if binding.kind == "import":
            found = self.definition(binding.target, depth + 1)
            if found is None and binding.fallback is not None and self.resolve_dotted(binding.target).kind is Kind.MISSING:
                return (binding.fallback, info) if binding.fallback.kind != "import" else self.definition(
                    binding.fallback.target, depth + 1)
            return found
        return binding, info

    def attribute(self, value: Value, name: str) -> Value:
        """``getattr(value, name)``, statically."""
        return self._guarded(lambda: self._attribute(value, name))

    def evaluate(self, expr: ast.expr, scope: Scope) -> Value:
        """What ``expr`` denotes when evaluated in ``scope``."""
        return self._guarded(lambda: self._evaluate(expr, scope))

    def module_scope(self, module: str) -> Scope | None:
        info = self.index.get(module)
        return Scope(info) if info is not None else None

    def display_path(self, value: Value) -> str:
        """The file (relative to the project root) that defines ``value``."""
        return self.tracker.remembered(self._display, value.module, lambda: self._display_path(value.module))

    def _display_path(self, module: str) -> str:
        located = self.index.locate(module) if module else None
        compiled = self.index.compiled_file(module) if located == (None, False) else None
        if compiled is not None:
            return self.project.relative(compiled)
        if located is None or located[0] is None:
            return module.replace(".", "/")
        return self.project.relative(located[0])

    # -- internals --------------------------------------------------------

    def _guarded(self, compute: Callable[[], Value]) -> Value:
        if self._depth > MAX_DEPTH:
            return UNKNOWN
        self._depth += 1
        try:
            return compute()
        finally:
            self._depth -= 1

    def _attribute(self, value: Value, name: str) -> Value:
        kind = value.kind
        if name in _NAME_ATTRIBUTES and kind in (Kind.MODULE, Kind.CLASS, Kind.FUNCTION):
            spelt = _spelt_name(value, name)
            if spelt is not None:
                return Value(Kind.CONSTANT, qualname="builtins.str", const=spelt)
        if kind is Kind.MODULE:
            return self._module_attribute(value.module, name)
        if kind is Kind.CLASS and value.cls is not None:
            if name == "__bases__" and "__bases__" not in value.cls.members:
                return self._bases(value.cls)
            return self._member(value.cls, name, instance=False)
        if kind is Kind.INSTANCE and value.cls is not None:
            for given_name, given in value.given:
                if given_name == name:
                    return given
            member = self._member(value.cls, name, instance=True)
            if value.declared and member.kind in (Kind.UNKNOWN, Kind.MISSING):
                return self._subclass_member(value.cls, name) or member
            return member
        if kind in (Kind.EXTERNAL, Kind.CONSTANT):
            base = value.qualname or "builtins.object"
            return external(f"{base}.{name}")
        if kind is Kind.MISSING:
            return MISSING
        return UNKNOWN

    def _subclass_member(self, cls: ClassInfo, name: str) -> Value | None:
        """``name`` on an object only typed as ``cls`` (a return annotation)
        that ``cls`` lacks: what the known project subclasses defining it bind
        there, when each is a function or class of the project (kombu's
        ``default_channel() -> Channel`` gives a redis ``Channel``, whose
        ``_on_connection_disconnect`` the base lacks); None otherwise."""
        if self.hosts is None:
            return None
        found = [
            value for sub in self.hosts(cls)
            if name in sub.members and (value := self._member(sub, name, instance=True)).kind in (Kind.FUNCTION, Kind.CLASS)
        ]
        if not found or not all(self.is_first_party(value) for value in found):
            return None
        return found[0]

    def _bases(self, cls: ClassInfo) -> Value:
        """``Cls.__bases__``: a tuple of what its bases name, read where the class
        statement is (``patch.object(GeventWorker.__bases__[0], "init_process")``)."""
        scope = cls.bases_scope or self.module_scope(cls.module)
        if scope is None or len(cls.bases) > MAX_TUPLE:
            return Value(Kind.CONSTANT, qualname="builtins.tuple")
        elements = tuple(self._evaluate(base, scope) for base in cls.bases)
        return Value(Kind.CONSTANT, qualname="builtins.tuple", elements=elements)

    def _module_attribute(self, module: str, name: str) -> Value:
        info = self.index.get(module)
        if info is None:
            return external(f"{module}.{name}")
        binding = info.bindings.get(name)
        if binding is not None:
            return self._binding(binding, Scope(info), f"{module}.{name}")
        submodule = f"{module}.{name}"
        if self.index.locate(submodule) is not None:
            return Value(Kind.MODULE, module=submodule, qualname=submodule)
        unknown = False
        for star in info.star_imports:
            found = self.resolve_dotted(f"{star}.{name}")
            if found.kind not in (Kind.MISSING, Kind.UNKNOWN):
                return found
            unknown = unknown or found.kind is Kind.UNKNOWN
        for imported in info.imported_at_run_time:  # a class a registry sets on the package
            registered = self.index.get(imported)
            binding = registered.bindings.get(name) if registered is not None else None
            if registered is not None and binding is not None and binding.kind == "class":
                return self._binding(binding, Scope(registered), f"{imported}.{name}")
        if info.path is None and not info.is_package and not unknown:
            # a name of an extension module of the project: a function, unless its C source adds it as a value
            if name in self.index.compiled_constants(module):
                return UNKNOWN
            return Value(Kind.FUNCTION, module=module, qualname=f"{module}.{name}")
        if unknown or info.has_getattr or info.path is None:
            return UNKNOWN
        if name.startswith("__") and name.endswith("__"):
            return external(f"types.ModuleType.{name}")
        return MISSING

    def _binding(self, binding: Binding, scope: Scope, qualname: str, owner: ClassInfo | None = None) -> Value:
        module = scope.module.name
        if binding.kind == "def":
            if binding.function is not None and binding.function.decorator_list:
                return self._decorated(binding.function, scope, qualname, owner)
            return Value(Kind.FUNCTION, module=module, qualname=qualname, function=binding.function, owner=owner)
        if binding.kind == "class" and binding.cls is not None:
            return Value(Kind.CLASS, module=module, qualname=qualname, cls=binding.cls)
        if binding.kind == "import":
            imported = self.resolve_dotted(binding.target)
            if imported.kind is Kind.MISSING and binding.fallback is not None:  # the module is absent
                return self._binding(binding.fallback, scope, qualname, owner)
            return imported
        if binding.kind == "value" and binding.declared is not None:
            value = self._evaluate(binding.declared, Scope(scope.module))
            return dataclasses.replace(value, declared=True) if value.kind is Kind.INSTANCE else value
        if binding.kind == "value" and binding.value is not None and binding.previous is not None:
            return self._evaluate(binding.value, self._reading_previous(binding.previous, scope, qualname, owner))
        if binding.kind == "value" and binding.value is not None:
            return self._evaluate(binding.value, scope)
        return UNKNOWN

    def _reading_previous(self, previous: Binding, scope: Scope, qualname: str, owner: ClassInfo | None) -> Scope:
        """``scope`` where the name ``qualname`` ends with gives what ``previous``
        bound it to: ``utcnow = partial(utcnow, ...)`` wraps the imported ``utcnow``."""
        name = qualname.rpartition(".")[2]
        outer = scope.local

        def lookup(looked_up: str) -> Value | None:
            if looked_up == name:
                return self._binding(previous, Scope(scope.module), qualname, owner)
            return outer(looked_up) if outer is not None else None

        return Scope(scope.module, lookup, scope.narrow)

    def _decorated(self, function: FunctionNode, scope: Scope, qualname: str, owner: ClassInfo | None) -> Value:
        """A decorated def is what its decorators return. Most decorators wrap the
        function and keep its name and module (``functools.wraps``), so it stays
        the project's function; those known to turn it into another kind of object
        (cached properties, click commands, task objects, fixtures) make an
        outside object. A decorator of the project that returns an instance of
        a class (xonsh's ``@lazyobject`` gives a ``LazyObject``) makes that instance;
        a class of the project defining ``__get__`` (beets' ``@cached_classproperty``)
        makes a descriptor, whose value is not told."""
        for decorator in function.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            if callee_name(decorator) in OBJECT_MAKING_DECORATORS:
                made_by = self._evaluate(target, scope)
                if made_by.kind is Kind.EXTERNAL:
                    return external(f"{made_by.qualname}()")
                if target is decorator and self._returns_a_function(made_by):
                    continue  # the project's own ``@command`` wrapping with functools.wraps (Swift's manager)
                return UNKNOWN
            if self._is_descriptor_class(target, scope):
                return UNKNOWN  # ``@cached_classproperty``: the attribute is what the class's ``__get__`` gives
            if target is decorator:
                made = self._made_by_decorator(target, scope)
                if made is None:
                    continue
                if _is_proxy(made) and owner is None and not _has_parameters(function):
                    # a lazy object: every attribute is the loaded value's, what the function returns
                    return self.function_result(function, scope.module, None)
                return made
        return Value(Kind.FUNCTION, module=scope.module.name, qualname=qualname, function=function, owner=owner)

    def _is_descriptor_class(self, decorator: ast.expr, scope: Scope) -> bool:
        """Whether ``decorator`` names a class of the project defining ``__get__``
        (itself or a project base): what it makes of a function is a descriptor."""
        made_by = self._evaluate(decorator, scope)
        return made_by.kind is Kind.CLASS and made_by.cls is not None and any(
            "__get__" in known.members for known in self.project_lineage(made_by.cls)
        )

    @staticmethod
    def _returns_a_function(made_by: Value) -> bool:
        """Whether ``made_by`` is a function of the project that returns a
        function it defines (``def wrapped(...): ...; return wrapped``): a
        plain decorator, whatever its name."""
        if made_by.kind is not Kind.FUNCTION or made_by.function is None:
            return False
        body = made_by.function.body
        defined = {s.name for s in body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
        returns = [s for s in body if isinstance(s, ast.Return)]
        return bool(returns) and all(isinstance(r.value, ast.Name) and r.value.id in defined for r in returns)

    def _made_by_decorator(self, decorator: ast.expr, scope: Scope) -> Value | None:
        """The instance a plain decorator of the project returns in place of the
        function (every return of it makes one class's instance), else None."""
        made_by = self._evaluate(decorator, scope)
        if made_by.kind is not Kind.FUNCTION or made_by.function is None or made_by.module is None:
            return None
        info = self.index.get(made_by.module)
        if info is None:
            return None
        result = self.function_result(made_by.function, info, made_by.owner)
        return result if result.kind is Kind.INSTANCE else None

    def _member(self, cls: ClassInfo, name: str, instance: bool) -> Value:
        if instance and name == "__class__":
            return Value(Kind.CLASS, module=cls.module, qualname=f"{cls.module}.{cls.qualname}", cls=cls)
        if instance:
            bound = self._instance_attribute(cls, name, set())
            if bound is not None:
                return bound
        found, defined = self._class_member(cls, name, set(), instance, cls)
        if instance and found is not None and found.kind is Kind.UNKNOWN and not name.startswith("__"):
            made = self._made_by_getattr(cls)
            if made is not None:
                return made
        if not instance and not defined and (found is None or found.kind is Kind.UNKNOWN):
            on_metaclass = self._metaclass_member(cls, name)  # after the class's own lineage, as Python looks
            if on_metaclass is not None and on_metaclass.kind is not Kind.UNKNOWN:
                return on_metaclass
        if found is not None:
            return found
        if name.startswith("__") and name.endswith("__"):
            return external(f"builtins.object.{name}")
        private = self._private_member(cls, name, instance)
        if private is not None:
            return private
        if instance and cls.fallback is not None:
            provided = cls.fallback(name)
            if provided is not None:
                return provided
        if instance:
            hosted = self._hosted(cls, name)
            if hosted is not None:
                return hosted
        # An instance may get attributes anywhere (fixtures, other methods); a class may not.
        return UNKNOWN if instance or cls.dynamic else MISSING

    def _metaclass_member(self, cls: ClassInfo, name: str) -> Value | None:
        """What the class ``cls`` (not its instances) has as ``name`` from the
        project metaclass the nearest class of its lineage names
        (``class Client(metaclass=ClientMeta)``: ``Client.get_transport_class``
        is ``ClientMeta``'s method); None when none names one, it lacks ``name``,
        or ``name`` is a property of it (setting it runs code that stores elsewhere)."""
        for owner in self.project_lineage(cls):
            if owner.metaclass is None:
                continue
            scope = owner.bases_scope or self.module_scope(owner.module)
            meta = self._evaluate(owner.metaclass, scope) if scope is not None else UNKNOWN
            if meta.kind is not Kind.CLASS or meta.cls is None:
                return None
            found = self._class_lookup(meta.cls, name, set(), False, origin=meta.cls)
            function = found.function if found is not None else None
            if function is not None and decorator_names(function) & PROPERTY_DECORATORS:
                return None  # a property of the metaclass: what it reads or stores is not told
            return found
        return None

    def _made_by_getattr(self, cls: ClassInfo) -> Value | None:
        """What any attribute the instance lacks is, when a project class of
        ``cls``'s lineage defines ``__getattr__`` and every one of its returns
        gives one function of the project (zaqar's ``Pipeline.__getattr__``
        makes a ``consumer`` closure for each name); None when it returns
        anything else (``getattr(self._client, name)`` hands the read on)."""
        for owner in self.project_lineage(cls):
            binding = owner.members.get("__getattr__")
            if binding is None:
                continue
            module = self.index.get(owner.module)
            if binding.kind != "def" or binding.function is None or module is None:
                return None
            made = self.function_result(binding.function, module, cls)
            if made.kind is Kind.FUNCTION and made.function is not None and self.is_first_party(made):
                return made
            return None
        return None

    def _private_member(self, cls: ClassInfo, name: str, instance: bool) -> Value | None:
        """``_Owner__name``: the private ``__name`` that the class statement of
        ``Owner`` (``cls`` or a project base of it) binds, which Python stores
        under that mangled name (msal's ``patch.object(ManagedIdentityClient,
        "_ManagedIdentityClient__instance", ...)``)."""
        if not name.startswith("_") or name.startswith("__") or name.endswith("__"):
            return None
        for owner in self.project_lineage(cls):
            stripped = owner.qualname.rpartition(".")[2].lstrip("_")
            if not stripped:
                continue  # a class named only with underscores mangles nothing
            prefix = "_" + stripped
            private = name[len(prefix):]
            if not name.startswith(prefix) or not private.startswith("__") or private == "__":
                continue
            if instance:
                bound = self._instance_attribute(owner, private, set())
                if bound is not None:
                    return bound
            if private in owner.members:  # its own: a base's is under the base's name
                return self._class_lookup(owner, private, set(), instance, origin=cls)
        return None

    def _hosted(self, cls: ClassInfo, name: str) -> Value | None:
        """``self.name`` in a method of the mixin ``cls`` (``is_mixin``): what
        every known class combining it binds there, when they
        agree (neutron's ``class _HandlerMixin:`` testing ``self.handler``,
        which the set-up of the test case it is combined with makes); None
        when no class combines it, one binds nothing, or they differ."""
        key = (id(cls), name)
        if self.hosts is None or key in self._hosting or not self.is_mixin(cls):
            return None
        self._hosting.add(key)
        try:
            values = [self._member(host, name, instance=True) for host in self.hosts(cls) if not self.is_mixin(host)]
        finally:
            self._hosting.discard(key)
        if not values or any(value.kind in (Kind.UNKNOWN, Kind.MISSING) for value in values):
            return None
        first = values[0]
        same = all((v.kind, v.module, v.qualname) == (first.kind, first.module, first.qualname) for v in values)
        return first if same else None

    def is_mixin(self, cls: ClassInfo, seen: set[int] | None = None) -> bool:
        """Whether every class above ``cls`` is a project class, up to
        ``object``: it has no test case (or other outside class) of its own, so
        it runs only in the classes combining it."""
        seen = set() if seen is None else seen
        if id(cls) in seen:
            return True
        seen.add(id(cls))
        scope = cls.bases_scope or self.module_scope(cls.module)
        if scope is None:
            return False
        for base_expr in cls.bases:
            base = self._evaluate(base_expr, scope)
            if base.kind is Kind.CLASS and base.cls is not None:
                if not self.is_mixin(base.cls, seen):
                    return False
            elif base.qualname != "builtins.object":
                return False
        return True

    def _instance_attribute(
        self, cls: ClassInfo, name: str, seen: set[int], origin: ClassInfo | None = None
    ) -> Value | None:
        """``self.name`` as bound by ``__init__``/set-up methods of ``cls`` or its
        project bases, evaluated inside the method that binds it."""
        if id(cls) in seen:
            return None
        seen.add(id(cls))
        info = self.index.get(cls.module)
        if info is None:
            return None
        key = (id(cls), name)
        if name in cls.instance_attrs and key not in self._binding_instance:
            value, method = cls.instance_attrs[name]
            self._binding_instance.add(key)  # ``self.x = a or self.x``: the right side reads the class's x
            try:
                return self._evaluate(value, self.function_scope(method, info, origin or cls))
            finally:
                self._binding_instance.discard(key)
        scope = cls.bases_scope or Scope(info)
        for base_expr in cls.bases:
            base = self._evaluate(base_expr, scope)
            if base.kind is Kind.CLASS and base.cls is not None:
                found = self._instance_attribute(base.cls, name, seen, origin or cls)
                if found is not None:
                    return found
        return None

    def _class_lookup(
        self, cls: ClassInfo, name: str, seen: set[int], instance: bool = False, origin: ClassInfo | None = None
    ) -> Value | None:
        """The member ``name`` of ``cls`` or its bases; ``None`` when no project
        class in the hierarchy has it and every base is known to be ``object``.
        On an instance, a property is what its getter returns. A project base
        defining it wins over an outside base before it, which may or may not
        (``class T(BaseTestCase, RepositoryMixin)`` with oslotest's
        ``BaseTestCase`` under the first: the mixin's helpers are the ones)."""
        return self._class_member(cls, name, seen, instance, origin)[0]

    def _class_member(
        self, cls: ClassInfo, name: str, seen: set[int], instance: bool, origin: ClassInfo | None
    ) -> tuple[Value | None, bool]:
        """``_class_lookup``, and whether a project class defines the member."""
        if id(cls) in seen:
            return UNKNOWN, False
        seen.add(id(cls))
        qualname = f"{cls.module}.{cls.qualname}.{name}"
        binding = cls.members.get(name)
        scope = self.module_scope(cls.module)
        if binding is not None:
            if scope is None:
                return UNKNOWN, True
            function = binding.function
            owner = origin or cls  # ``self`` is an instance of the class looked up from
            if instance and function is not None and decorator_names(function) & PROPERTY_DECORATORS:
                return self.function_result(function, scope.module, owner), True
            if binding.kind == "value":  # read with the names the class body bound before it
                scope = self._class_body_scope(cls, cls.bases_scope or scope, name)
            return self._binding(binding, scope, qualname, owner=owner), True
        outside: Value | None = None
        bases_scope = cls.bases_scope or scope
        for base_expr in cls.bases:
            base = self._evaluate(base_expr, bases_scope) if bases_scope is not None else UNKNOWN
            if base.kind is Kind.CLASS and base.cls is not None:
                found, defined = self._class_member(base.cls, name, seen, instance, origin)
                if defined or (found is not None and found.kind is Kind.UNKNOWN):
                    return found, defined  # defined there, or may be (a metaclass, a __getattr__)
                outside = outside or found
            elif base.kind is Kind.EXTERNAL:
                if base.qualname not in ("builtins.object", "object"):
                    outside = outside or external(f"{base.qualname}.{name}")
            else:
                outside = UNKNOWN
        if outside is None and cls.dynamic:
            return UNKNOWN, False  # a metaclass or __getattr__ may provide it
        return outside, False

    def _class_body_scope(self, cls: ClassInfo, outer: Scope, assigned: str) -> Scope:
        """Where a class-body assignment to ``assigned`` reads its names: the
        class's other members (``ls = staticmethod(_ls)`` after an import of
        ``_ls`` in the body), then ``outer``."""
        return Scope(outer.module, _ClassBodyLookup(self, cls, outer, assigned), outer.narrow)

    def _lookup_name(self, name: str, scope: Scope) -> Value:
        if scope.local is not None:
            local = scope.local(name)
            if local is not None:
                return local
        binding = scope.module.bindings.get(name)
        if binding is not None:
            return self._binding(binding, scope, f"{scope.module.name}.{name}")
        if name == "__name__":  # the module's own name (``patch(f"{__name__}.Dummy.configure")``)
            return Value(Kind.CONSTANT, qualname="builtins.str", const=scope.module.name)
        for star in scope.module.star_imports:
            found = self.resolve_dotted(f"{star}.{name}")
            if found.kind is not Kind.MISSING:
                return found
        injected = scope.module.builtins_from.get(name)
        if injected is not None:  # a conftest set it on ``builtins``
            conftest, bound = injected
            return self._binding(conftest.bindings[bound], Scope(conftest), f"{conftest.name}.{bound}")
        if name in BUILTIN_NAMES:
            return external(f"builtins.{name}")
        return UNKNOWN

    def _evaluate(self, expr: ast.expr, scope: Scope) -> Value:
        """Every recursion of the resolver passes here, so this bounds its depth."""
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                return UNKNOWN
            value = self._evaluate_expr(expr, scope)
            if scope.narrow is not None and isinstance(expr, (ast.Name, ast.Attribute)):
                return self._narrowed(expr, scope) or value
            return value
        finally:
            self._depth -= 1

    def _narrowed(self, expr: ast.expr, scope: Scope) -> Value | None:
        """An instance of the project class the scope's function asserts ``expr``
        is, or the class or function it asserts ``expr`` equals: more precise
        than what the expression resolves to (an outside base class's object, or
        nothing known)."""
        assert scope.narrow is not None
        asserted = scope.narrow(expr)
        if asserted is None:
            return None
        named, instance = asserted
        value = self._evaluate(named, scope)
        if value.kind is Kind.CLASS and value.cls is not None:
            if not instance:
                return value
            return Value(Kind.INSTANCE, module=value.module, qualname=f"{value.qualname}()", cls=value.cls)
        if value.kind is Kind.FUNCTION and not instance:
            return value
        return None

    def _evaluate_expr(self, expr: ast.expr, scope: Scope) -> Value:
        if isinstance(expr, ast.Name):
            return self._lookup_name(expr.id, scope)
        if isinstance(expr, ast.Attribute):
            base = self._evaluate(expr.value, scope)
            if base.kind is Kind.EXTERNAL and base.qualname in CONFIG_OBJECTS and not scope.module.volatile:
                default = self.tracker.remembered(
                    self._options, (scope.module.name, expr.attr), lambda: self._option_default(scope.module, expr.attr)
                )
                if default is not None:
                    return Value(Kind.CONSTANT, qualname="builtins.str", const=default)
            return self._attribute(base, expr.attr)
        if isinstance(expr, ast.Constant):
            const = expr.value if isinstance(expr.value, str) else None
            return Value(Kind.CONSTANT, qualname=f"builtins.{type(expr.value).__name__}", const=const)
        if isinstance(expr, ast.JoinedStr):
            return self._fold_fstring(expr, scope)
        if isinstance(expr, ast.BinOp):
            return self._fold_binop(expr, scope)
        if isinstance(expr, ast.Call):
            return self._call_result(expr, scope)
        if isinstance(expr, ast.Await):
            return self._awaited(expr, scope)
        if isinstance(expr, ast.Lambda):
            return Value(Kind.FUNCTION, module=scope.module.name, qualname=f"{scope.module.name}.<lambda>")
        if isinstance(expr, ast.BoolOp) and isinstance(expr.op, ast.Or):
            return self._either(expr, scope)
        if isinstance(expr, (ast.Tuple, ast.List)) and len(expr.elts) <= MAX_TUPLE \
                and not any(isinstance(element, ast.Starred) for element in expr.elts):
            elements = tuple(self._evaluate(element, scope) for element in expr.elts)
            return Value(Kind.CONSTANT, qualname=f"builtins.{type(expr).__name__.lower()}", elements=elements)
        if isinstance(expr, ast.Subscript) and (entry := self._dict_entry(expr, scope)) is not None:
            return self._evaluate(entry, Scope(scope.module))  # ``_REGISTRY["rest"]`` of a module's dict literal
        if isinstance(expr, ast.Subscript):
            index = _int_index(expr.slice)
            items = self._evaluate(expr.value, scope).elements if index is not None else None  # ``parse(t)[0][-1]``
            return items[index] if items is not None and index is not None and -len(items) <= index < len(items) \
                else UNKNOWN
        if isinstance(
            expr,
            (ast.Tuple, ast.List, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp,
             ast.GeneratorExp, ast.Compare, ast.BoolOp, ast.UnaryOp),
        ):
            return Value(Kind.CONSTANT, qualname=f"builtins.{type(expr).__name__.lower()}")
        return UNKNOWN

    def _dict_entry(self, expr: ast.Subscript, scope: Scope) -> ast.expr | None:
        """The value a constant key picks from a dict literal a module binds
        once at its top level (a registry of classes: ``_REGISTRY = {"rest":
        RestTransport}``, then ``_REGISTRY["rest"]``); None otherwise."""
        if not isinstance(expr.value, ast.Name) or (scope.local is not None and scope.local(expr.value.id) is not None):
            return None
        binding = scope.module.bindings.get(expr.value.id)
        table = binding.value if binding is not None and binding.kind == "value" else None
        if not isinstance(table, ast.Dict):
            return None
        key = self._evaluate(expr.slice, scope).const
        if key is None:
            return None
        found = [value for item, value in zip(table.keys, table.values)
                 if isinstance(item, ast.Constant) and item.value == key]
        return found[0] if len(found) == 1 and None not in table.keys else None

    def _either(self, expr: ast.BoolOp, scope: Scope) -> Value:
        """``a or b``: the override-or-default idiom. Operands that are unknown
        (typically parameters), None, or taken from a library's container
        (``self.pool.get(block=False) or self._new_conn()``: the pool holds
        what the other operand makes) are passed over; the others must agree."""
        known = [
            value for value in (self._evaluate(operand, scope) for operand in expr.values)
            if value.kind is not Kind.UNKNOWN and value.qualname != "builtins.NoneType" and not _taken_from_a_container(value)
        ]
        if known and all(_same(known[0], other) or known[0].const == other.const is not None for other in known[1:]):
            return known[0]
        return Value(Kind.CONSTANT, qualname=_EITHER) if known else UNKNOWN

    def _fold_fstring(self, expr: ast.JoinedStr, scope: Scope) -> Value:
        pieces: list[str] = []
        for part in expr.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                pieces.append(part.value)
            elif isinstance(part, ast.FormattedValue) and part.format_spec is None:
                inner = self._evaluate(part.value, scope)
                if inner.const is None:
                    return Value(Kind.CONSTANT, qualname="builtins.str")
                pieces.append(inner.const)
            else:
                return Value(Kind.CONSTANT, qualname="builtins.str")
        return Value(Kind.CONSTANT, qualname="builtins.str", const="".join(pieces))

    def _fold_join(self, separator: str, items: ast.expr, scope: Scope) -> Value:
        """``"sep".join([...])`` of strings the engine can fold, also through
        ``filter(None, [...])`` (empty strings dropped): a dotted name built
        from ``__module__`` and ``__qualname__``."""
        dropping = False
        if isinstance(items, ast.Call) and callee_name(items.func) == "filter" and len(items.args) == 2:
            dropping = isinstance(items.args[0], ast.Constant) and items.args[0].value is None
            items = items.args[1] if dropping else items
        unknown = Value(Kind.CONSTANT, qualname="builtins.str")
        if not isinstance(items, (ast.List, ast.Tuple)):
            return unknown
        parts: list[str] = []
        for item in items.elts:
            text = self._evaluate(item, scope).const
            if text is None:
                return unknown
            if text or not dropping:
                parts.append(text)
        return Value(Kind.CONSTANT, qualname="builtins.str", const=separator.join(parts))

    def _fold_binop(self, expr: ast.BinOp, scope: Scope) -> Value:
        left = self._evaluate(expr.left, scope)
        right = self._evaluate(expr.right, scope)
        if isinstance(expr.op, ast.Add) and left.const is not None and right.const is not None:
            return Value(Kind.CONSTANT, qualname="builtins.str", const=left.const + right.const)
        if isinstance(expr.op, ast.Mod) and left.const is not None:
            return Value(Kind.CONSTANT, qualname="builtins.str", const=_percent_format(left.const, right))
        if left.kind is Kind.CONSTANT:
            return Value(Kind.CONSTANT, qualname=left.qualname)
        return UNKNOWN

    def _union_instance(self, union: ast.BinOp, scope: Scope) -> Value:
        """What ``(A | B)()`` stands for (``instance_of_declared`` of a union): an
        instance of the nearest project class that every alternative is or
        derives from; unknown when the alternatives share none."""
        alternatives: list[ast.expr] = []
        pending: list[ast.expr] = [union]
        while pending:
            expr = pending.pop()
            if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr):
                pending += [expr.right, expr.left]
            else:
                alternatives.append(expr)
        classes: list[ClassInfo] = []
        for alternative in alternatives:
            cls = self._evaluate(alternative, scope)
            if cls.kind is not Kind.CLASS or cls.cls is None:
                return UNKNOWN
            classes.append(cls.cls)
        return self._common_instance(classes)

    def _common_instance(self, classes: list[ClassInfo]) -> Value:
        """An instance of the nearest project class that every one of
        ``classes`` is or derives from; unknown when they share none."""
        lineages = [self.project_lineage(cls) for cls in classes]
        for candidate in lineages[0]:
            if all(any(other is candidate for other in lineage) for lineage in lineages[1:]):
                qualname = f"{candidate.module}.{candidate.qualname}()"
                return Value(Kind.INSTANCE, module=candidate.module, qualname=qualname, cls=candidate)
        return UNKNOWN

    def either_instance(self, values: list[Value]) -> Value:
        """What a name bound, or a function returning, one of several objects
        of the project's classes stands for (``executor = ThreadExecutor()`` in
        one branch, ``ProcessExecutor()`` in the other): an object declared of
        their nearest common project class, as an annotation ``A | B`` is read
        (``Value.declared``); unknown for anything else."""
        if len(values) < 2 or any(v.kind is not Kind.INSTANCE or v.cls is None for v in values):
            return UNKNOWN
        common = self._common_instance([v.cls for v in values if v.cls is not None])
        return dataclasses.replace(common, declared=True) if common.kind is Kind.INSTANCE else UNKNOWN

    def is_protocol(self, cls: ClassInfo) -> bool:
        """Whether ``cls`` is a ``typing.Protocol``: a class naming ``Protocol``
        (or ``Protocol[T]``) among its own bases, as PEP 544 requires of a
        protocol (a class merely deriving from one is a concrete class)."""
        scope = cls.bases_scope or self.module_scope(cls.module)
        if scope is None:
            return False
        for base_expr in cls.bases:
            written = base_expr.value if isinstance(base_expr, ast.Subscript) else base_expr
            if self._evaluate(written, scope).qualname in PROTOCOL_CLASSES:
                return True
        return False

    def project_lineage(self, cls: ClassInfo) -> list[ClassInfo]:
        """``cls`` and its project base classes, nearest first (breadth first)."""
        lineage = [cls]
        seen = {id(cls)}
        for known in lineage:
            scope = known.bases_scope or self.module_scope(known.module)
            if scope is None:
                continue
            for base_expr in known.bases:
                base = self._evaluate(base_expr, scope)
                if base.kind is Kind.CLASS and base.cls is not None and id(base.cls) not in seen:
                    seen.add(id(base.cls))
                    lineage.append(base.cls)
        return lineage

    def _option_default(self, module: ModuleInfo, name: str) -> str | None:
        """The default of the configuration option ``name`` that ``module`` reads
        as ``CONF.name``: a string declared (``cfg.StrOpt("name", default="pkg.Cls")``)
        in the module itself or in a project module it imports, and declared once
        there. None when no such declaration is found, or they disagree."""
        modules = [module]
        for binding in module.bindings.values():
            if binding.kind == "import":
                imported = self.index.get(binding.target)
                if imported is not None and imported is not module and imported.path is not None:
                    modules.append(imported)
        found = {default for info in modules for default in _declared_defaults(info, name)}
        return found.pop() if len(found) == 1 else None

    def _cast(self, declared: ast.expr, value: ast.expr, scope: Scope) -> Value:
        """``typing.cast(C, value)``: what ``value`` is when that is an instance of
        the project's class ``C`` (also spelt ``"C"``) or of a subclass of it,
        else an instance of ``C`` as declared (nox's logger, made by a logger
        class set with ``logging.setLoggerClass``), else what ``value`` is."""
        made = self._evaluate(value, scope)
        if isinstance(declared, ast.Constant) and isinstance(declared.value, str):
            try:
                declared = ast.parse(declared.value.strip(), mode="eval").body
            except (SyntaxError, ValueError, MemoryError, RecursionError):
                return made
        cls = self._evaluate(declared, scope)
        if cls.kind is not Kind.CLASS or cls.cls is None:
            return made
        if made.kind is Kind.INSTANCE and made.cls is not None and any(
            known is cls.cls for known in self.project_lineage(made.cls)
        ):
            return made
        return Value(Kind.INSTANCE, module=cls.module, qualname=f"{cls.qualname}()", cls=cls.cls)

    def _given_attributes(self, cls: ClassInfo, call: ast.Call, scope: Scope) -> tuple[tuple[str, Value], ...]:
        """The attributes the class's own ``__init__`` sets to one of its
        parameters as it is (``self._engine = engine``), directly or through a
        method it calls with the parameter (``self.setup(app)`` doing
        ``self.app = app``), with the project object ``call`` passes that
        parameter (by position or keyword), as the caller's ``scope`` reads it;
        the others are looked up as before."""
        init = cls.members.get("__init__")
        function = init.function if init is not None and init.kind == "def" else None
        if function is None or not cls.instance_attrs or not function.args.args:
            return ()
        instance = function.args.args[0].arg
        given: list[tuple[str, Value]] = []
        calls_on_self: dict[str, list[ast.Call]] | None = None  # the calls ``__init__`` makes of its own methods
        for attribute, (assigned, method) in cls.instance_attrs.items():
            if not isinstance(assigned, ast.Name):
                continue
            parameter: str | None = assigned.id
            if method is not function:  # set by a method ``__init__`` calls once: what it hands that parameter
                if calls_on_self is None:
                    calls_on_self = {}
                    for node in own_nodes(function):
                        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                                and isinstance(node.func.value, ast.Name) and node.func.value.id == instance:
                            calls_on_self.setdefault(node.func.attr, []).append(node)
                calls = calls_on_self.get(method.name, [])
                handed = _argument_for(method, calls[0], assigned.id) if len(calls) == 1 else None
                parameter = handed.id if isinstance(handed, ast.Name) else None
            passed = _argument_for(function, call, parameter) if parameter is not None else None
            if passed is None:
                continue
            value = self._evaluate(passed, scope)
            if value.kind in (Kind.INSTANCE, Kind.CLASS, Kind.FUNCTION, Kind.MODULE):  # the project's (a double is not)
                given.append((attribute, value))
        return tuple(given)

    def _call_result(self, expr: ast.Call, scope: Scope) -> Value:
        if isinstance(expr.func, ast.BinOp) and isinstance(expr.func.op, ast.BitOr):
            return self._union_instance(expr.func, scope)
        if (
            isinstance(expr.func, ast.Attribute) and expr.func.attr == "join" and len(expr.args) == 1
            and isinstance(expr.func.value, ast.Constant) and isinstance(expr.func.value.value, str)
        ):
            return self._fold_join(expr.func.value.value, expr.args[0], scope)
        if isinstance(expr.func, ast.Attribute) and expr.func.attr == USE_FIXTURE and len(expr.args) == 1:
            return self._evaluate(expr.args[0], scope)  # the fixture, set up
        func = self._evaluate(expr.func, scope)
        if func.qualname == "builtins.type" and len(expr.args) == 1:
            obj = self._evaluate(expr.args[0], scope)
            if obj.kind is Kind.INSTANCE:
                return class_of(obj)
            return UNKNOWN
        if func.kind is Kind.CLASS and func.cls is not None:
            return Value(
                Kind.INSTANCE, module=func.module, qualname=f"{func.qualname}()", cls=func.cls,
                given=self._given_attributes(func.cls, expr, scope),
            )
        if isinstance(expr.func, ast.Attribute) and expr.func.attr == "__new__" and expr.args:
            made = self._evaluate(expr.args[0], scope)  # object.__new__(C): a C whose __init__ did not run
            if made.kind is Kind.CLASS and made.cls is not None:
                return Value(Kind.INSTANCE, module=made.module, qualname=f"{made.qualname}()", cls=made.cls)
        if func.kind is Kind.EXTERNAL and isinstance(expr.func, ast.Attribute) and expr.func.attr == SINGLETON_GETTER:
            owner = self._evaluate(expr.func.value, scope)
            if owner.kind is Kind.CLASS and owner.cls is not None:
                # ``Shell.instance()``, inherited from a library's singleton base (traitlets,
                # tornado): the one instance of the class it is called on
                return Value(Kind.INSTANCE, module=owner.module, qualname=f"{owner.qualname}()", cls=owner.cls)
        if func.kind is Kind.EXTERNAL:
            if func.qualname in ("builtins.type", "collections.namedtuple", "typing.NamedTuple"):
                return UNKNOWN
            if func.qualname == "typing.cast" and len(expr.args) == 2:
                return self._cast(expr.args[0], expr.args[1], scope)
            if func.qualname in _COPIERS and len(expr.args) == 1 and not expr.keywords:
                copied = self._evaluate(expr.args[0], scope)  # ``copy.deepcopy(info)``: another object of its class
                if copied.kind is Kind.INSTANCE and copied.cls is not None:
                    return copied
            if func.qualname in SEE_THROUGH_WRAPPERS and expr.args:
                wrapped = self._evaluate(expr.args[0], scope)  # mock and the oracle see through these
                if wrapped.kind is Kind.FUNCTION:
                    return wrapped
            if func.qualname in BACKEND_PROXIES:
                return self._backend(expr, scope) or external(f"{func.qualname}()")
        short = func.qualname.rpartition(".")[2]
        if expr.args and ((func.kind is Kind.EXTERNAL and short in DYNAMIC_IMPORTERS)
                          or (func.kind in (Kind.EXTERNAL, Kind.FUNCTION) and short in NAMED_IMPORTERS)):
            name = self._evaluate(expr.args[0], scope).const
            if not isinstance(name, str):
                return UNKNOWN  # whatever the name names
            imported = self.resolve_dotted(name.replace(":", "."))  # a constant name: a static import
            if short in INSTANTIATING_IMPORTERS and imported.kind is Kind.CLASS:
                return Value(Kind.INSTANCE, module=imported.module, qualname=f"{imported.qualname}()", cls=imported.cls)
            return imported
        if func.kind is Kind.EXTERNAL:
            return external(f"{func.qualname}()")
        if func.kind is Kind.INSTANCE and func.cls is not None:
            # an instance of a project class called: its ``__call__`` (msal's
            # ``self.get = IndividualCache(...)(self.get)`` keeps the method)
            func = self._class_lookup(func.cls, "__call__", set(), instance=True) or UNKNOWN
        if func.kind is Kind.FUNCTION and func.function is not None:
            # a function a conftest set on ``builtins`` lives in that conftest: its name may be no import path
            info = next(
                (conftest for conftest, _ in scope.module.builtins_from.values() if conftest.name == func.module), None
            ) or self.index.get(func.module)
            if info is not None and not (decorator_names(func.function) & CONTEXT_MANAGER_DECORATORS):
                result = self.function_result(func.function, info, func.owner)
                declared = func.function.args
                unfolded = result.kind is Kind.UNKNOWN or (result.kind is Kind.CONSTANT and result.const is None)
                receiver = self._given_receiver(func, expr.func, scope) if unfolded else None
                if unfolded and (
                    expr.args or expr.keywords or declared.defaults or any(declared.kw_defaults) or receiver is not None
                ):
                    arguments = self._arguments(func, expr, scope, info, receiver)
                    result = self.function_result(func.function, info, func.owner, arguments)
                return result
        return UNKNOWN

    def _awaited(self, expr: ast.Await, scope: Scope) -> Value:
        """What ``await f(...)`` gives when ``f`` is a coroutine function of the
        project (``async def``, not an async context manager): what its returns
        agree on; else UNKNOWN (an awaitable from elsewhere gives what it likes)."""
        call = expr.value
        if not isinstance(call, ast.Call):
            return UNKNOWN
        func = self._evaluate(call.func, scope)
        function = func.function
        if func.kind is not Kind.FUNCTION or not isinstance(function, ast.AsyncFunctionDef) \
                or decorator_names(function) & CONTEXT_MANAGER_DECORATORS:
            return UNKNOWN
        info = self.index.get(func.module)
        if info is None:
            return UNKNOWN
        result = self.function_result(function, info, func.owner, awaited=True)
        if result.kind is Kind.UNKNOWN and (call.args or call.keywords):
            result = self.function_result(function, info, func.owner, self._arguments(func, call, scope, info), awaited=True)
        return result

    def _backend(self, call: ast.Call, scope: Scope) -> Value | None:
        """What a backend proxy made by ``call`` stands for: the result of
        ``get_backend()`` in the one module its ``backend_mapping`` names (a dict
        written in the call, or a name bound to one); None when that is not known."""
        mapping = next((k.value for k in call.keywords if k.arg == "backend_mapping"), None)
        if isinstance(mapping, ast.Name):
            binding = scope.module.bindings.get(mapping.id)
            mapping = binding.value if binding is not None and binding.kind == "value" else None
        if not isinstance(mapping, ast.Dict):
            return None
        modules = {v.value for v in mapping.values if isinstance(v, ast.Constant) and isinstance(v.value, str)}
        if len(modules) != 1 or len(mapping.values) != 1:
            return None
        factory = self.resolve_dotted(f"{modules.pop()}.get_backend")
        if factory.kind is not Kind.FUNCTION or factory.function is None:
            return None
        info = self.index.get(factory.module)
        result = self.function_result(factory.function, info, factory.owner) if info is not None else UNKNOWN
        return result if result.kind is Kind.INSTANCE else None

    def _given_receiver(self, func: Value, callee: ast.expr, scope: Scope) -> Value | None:
        """The object a method is called on (``Connection(transport=T).channel()``)
        when it was made knowing what its constructor was given (``Value.given``),
        which the method's own result may read (``self.transport_cls()``); None otherwise."""
        if func.owner is None or func.function is None or not isinstance(callee, ast.Attribute) \
                or decorator_names(func.function) & {"staticmethod", "classmethod"}:
            return None
        receiver = self._evaluate(callee.value, scope)
        return receiver if receiver.kind is Kind.INSTANCE and receiver.given else None

    def _arguments(
        self, func: Value, call: ast.Call, scope: Scope, module: ModuleInfo, receiver: Value | None = None,
    ) -> Lookup:
        """The call's arguments by parameter name, evaluated in the caller's scope
        when asked for (a result that depends on its arguments); a parameter the
        call leaves out is its default, evaluated where the function is defined
        (``def build(parser_type=AppParser)``, then ``build()``); the method's
        first parameter is ``receiver``, when given (``_given_receiver``)."""
        assert func.function is not None
        node = func.function
        positional = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
        defaults: dict[str, ast.expr] = dict(zip(reversed(positional), reversed(node.args.defaults)))
        defaults.update(
            (parameter.arg, default) for parameter, default in zip(node.args.kwonlyargs, node.args.kw_defaults)
            if default is not None
        )
        passed = _passed_arguments(node, call, bound=func.owner is not None and "staticmethod" not in decorator_names(node))

        def argument(name: str) -> Value | None:
            if receiver is not None and positional and name == positional[0]:
                return receiver
            value = passed.get(name)
            if value is not None:
                return self.evaluate(value, scope)
            default = defaults.get(name)
            return self.evaluate(default, Scope(module)) if default is not None else None

        return argument

    # -- what functions return --------------------------------------------

    def facts(self, function: FunctionNode, module: ModuleInfo) -> FunctionFacts:
        """The facts of ``function``, cached unless its module is the file under analysis."""
        if module.volatile:
            return function_facts(function)
        found = self._facts.get(id(function))
        if found is None:
            found = self._facts[id(function)] = function_facts(function)
        return found

    def function_scope(
        self,
        function: FunctionNode,
        module: ModuleInfo,
        owner: ClassInfo | None,
        params: Lookup | None = None,
        facts: FunctionFacts | None = None,
    ) -> Scope:
        """Name lookup inside ``function``: ``self``, single assignments, ``with``
        targets, tuple unpacking, local imports, then ``params`` for parameters
        (unknown without it), then the module. ``facts`` saves a walk when the
        caller already has them."""
        names = _FunctionNames(self, function, module, owner, params)
        names._facts = facts
        return Scope(module, names.lookup, names.narrowed)

    def function_result(
        self,
        function: FunctionNode,
        module: ModuleInfo,
        owner: ClassInfo | None,
        params: Lookup | None = None,
        yielded: bool = False,
        awaited: bool = False,
    ) -> Value:
        """What calling ``function`` gives (``yielded``: what its first ``yield``
        gives, as a context manager or a fixture does; ``awaited``: what awaiting
        the coroutine an ``async def`` makes gives): the common value of all its
        results, else UNKNOWN."""
        key = (id(function), id(owner), yielded, awaited)
        cached = params is None and not module.volatile and not self.is_volatile(owner)
        if not cached and params is not None:
            # A function reached again while its result with arguments is being
            # found gives UNKNOWN, as a recursive call does when cached: followed,
            # each recursive return doubles the work (keystoneauth1's
            # ``Session._send_request`` calls itself from two returns).
            calling = (id(function), id(owner))
            if calling in self._called_with_arguments:
                return UNKNOWN
            self._called_with_arguments.add(calling)
            try:
                return self._function_result(function, module, owner, params, yielded, awaited)
            finally:
                self._called_with_arguments.discard(calling)
        if not cached:
            return self._function_result(function, module, owner, params, yielded, awaited)
        known = self._results.get(key)
        if known is not None:
            self.tracker.replay(known[1])
            return known[0]
        self._results[key] = (UNKNOWN, NO_DEPS)  # a recursive call resolves to unknown
        self._results[key] = self.tracker.collect(
            lambda: self._function_result(function, module, owner, params, yielded, awaited)
        )
        return self._results[key][0]

    def _function_result(
        self, function: FunctionNode, module: ModuleInfo, owner: ClassInfo | None, params: Lookup | None,
        yielded: bool, awaited: bool,
    ) -> Value:
        facts = self.facts(function, module)
        if yielded:
            results = facts.yields[:1]
        elif facts.is_generator or (isinstance(function, ast.AsyncFunctionDef) and not awaited):
            results = []
        else:
            results = list(facts.returns)
            if facts.falls_through:
                results.append(None)
        value = UNKNOWN
        if results:
            scope = self.function_scope(function, module, owner, params)
            # a return of the function's own call gives what its other returns give
            results = [expr for expr in results if not self._calls_itself(expr, function, scope)] or results
            values = [
                self._evaluate(expr, scope) if expr is not None else Value(Kind.CONSTANT, qualname="builtins.NoneType")
                for expr in results
            ]
            for position, (expr, found) in enumerate(zip(results, values)):
                if found.kind in (Kind.UNKNOWN, Kind.MISSING) or found.qualname == "builtins.NoneType":
                    made = _made_when_unset(function, facts, expr)
                    if made is not None:
                        values[position] = self._evaluate(made, scope)
            first = values[0]
            if all(_same(first, other) for other in values[1:]):
                value = first
            elif len(values) <= _EITHER_BOUND:
                value = self.either_instance(values)  # ``return A()`` on one path, ``return B()`` on another
        if (value.kind in (Kind.UNKNOWN, Kind.EXTERNAL) or value.qualname == _EITHER or (
            value.qualname == "builtins.NoneType" and function.returns is not None and not _admits_none(function.returns)
        )) and function.returns is not None and (results or _only_raises(function)):
            # (``conn or self._new_conn()`` whose operands disagree: urllib3's ``_get_conn``; a ``None``
            # placeholder the annotation rules out: kombu's ``default_channel -> Channel``)
            declared = self._declared_result(function.returns, module, yielded)
            if declared is not None:
                return declared
        return value

    def _calls_itself(self, expr: ast.expr | None, function: FunctionNode, scope: Scope) -> bool:
        """Whether ``expr`` is a call of ``function`` itself (``return self.send(...)`` in ``send``)."""
        if not isinstance(expr, ast.Call) or callee_name(expr.func) != function.name:
            return False
        return self._evaluate(expr.func, scope).function is function

    def _declared_result(self, annotation: ast.expr, module: ModuleInfo, yielded: bool) -> Value | None:
        """An instance of the project class the return annotation declares
        (``-> Client``, ``-> Client | None``; for what a generator yields,
        ``-> Iterator[Path]`` or ``Generator[Path, None, None]``), when the
        results themselves say nothing sure: paths disagree (the operands of an
        ``or`` too), or give an outside object (``Path(d).resolve()`` typed by
        the library as its own class)."""
        parsed = unquoted(annotation)
        if parsed is None:
            return None
        annotation = parsed
        if yielded:
            if not (isinstance(annotation, ast.Subscript) and (dotted_parts(annotation.value) or [""])[-1] in _YIELDING):
                return None
            annotation = annotation.slice.elts[0] if isinstance(annotation.slice, ast.Tuple) else annotation.slice
        if isinstance(annotation, ast.Subscript) and (dotted_parts(annotation.value) or [""])[-1] in _CLASS_OF \
                and dotted_parts(annotation.slice) is not None:  # ``-> type[Spider]``: the class, or a subclass
            cls = self._evaluate(annotation.slice, Scope(module))
            return dataclasses.replace(cls, declared=True) if cls.kind is Kind.CLASS and cls.cls is not None else None
        expr = instance_of_declared(annotation)
        if expr is None:
            return None
        value = self._evaluate(expr, Scope(module))
        return dataclasses.replace(value, declared=True) if value.kind is Kind.INSTANCE and value.cls is not None else None

    def _entered(self, expr: ast.expr, scope: Scope) -> Value:
        """The value ``with expr as name`` (or ``async with``) binds to ``name``:
        the argument of ``contextlib.closing``/``nullcontext``, what a
        ``@contextmanager`` function yields, or what ``__enter__`` returns
        (what an ``async def __aenter__`` returns when awaited)."""
        if isinstance(expr, ast.Call):
            func = self._evaluate(expr.func, scope)
            if func.kind is Kind.EXTERNAL and func.qualname in _HANDING_BACK and len(expr.args) == 1:
                return self._evaluate(expr.args[0], scope)  # ``with closing(pool._new_conn()) as conn``
            if func.kind is Kind.FUNCTION and func.function is not None:
                if decorator_names(func.function) & CONTEXT_MANAGER_DECORATORS:
                    info = self.index.get(func.module)
                    if info is None:
                        return UNKNOWN
                    return self.function_result(func.function, info, func.owner, yielded=True)
        manager = self._evaluate(expr, scope)
        if manager.kind is Kind.INSTANCE and manager.cls is not None:
            enter = self._class_lookup(manager.cls, "__enter__", set(), origin=manager.cls)
            if enter is None or enter.function is None:  # ``async with``: the project's ``__aenter__``, if any
                enter = self._class_lookup(manager.cls, "__aenter__", set(), origin=manager.cls) or enter
            info = self.index.get(enter.module) if enter is not None and enter.function is not None else None
            if enter is not None and enter.function is not None and info is not None:
                awaited = isinstance(enter.function, ast.AsyncFunctionDef)
                return self.function_result(enter.function, info, manager.cls, awaited=awaited)
            return UNKNOWN
        if manager.kind is Kind.EXTERNAL:
            return external(f"{manager.qualname}.__enter__()")
        return UNKNOWN


_EITHER_BOUND = 4  # the most bindings (or returns) of a name read as one of several objects
_YIELDING = frozenset({"Iterator", "Generator", "AsyncIterator", "AsyncGenerator", "Iterable"})
_CLASS_OF = frozenset({"type", "Type"})  # ``type[C]``, ``typing.Type[C]``: a class, not an instance
_HANDING_BACK = frozenset({"contextlib.closing", "contextlib.nullcontext"})  # entered, they give their argument
_COPIERS = frozenset({"copy.copy", "copy.deepcopy"})  # an object of the class of their argument
_EITHER = "builtins.boolop"  # ``a or b`` whose operands disagree: one of them, which is not known


def _one_maker(values: list[ast.expr]) -> bool:
    """Whether every value a local is bound to is a call of one callee spelt
    alike (urllib3's ``conn = pool._get_conn()`` once per pool, nova's
    ``drvr = libvirt_driver.LibvirtDriver(...)`` twice): the local holds the
    same kind of object whichever binding reaches a line. Strings and other
    values bound twice spell different things, so are not read so."""
    first = values[0]
    if not isinstance(first, ast.Call):
        return False
    spelt = ast.dump(first.func)
    return all(isinstance(value, ast.Call) and ast.dump(value.func) == spelt for value in values[1:])


class _FunctionNames:
    """The local names of one function, for ``Resolver.function_scope``.

    Facts are read on the first lookup, so a scope nobody asks costs nothing;
    scopes are made per lookup so no reference cycle keeps a tree alive.
    """

    def __init__(
        self, resolver: Resolver, function: FunctionNode, module: ModuleInfo,
        owner: ClassInfo | None, params: Lookup | None,
    ) -> None:
        self.resolver = resolver
        self.function = function
        self.module = module
        self.owner = owner
        self.params = params
        self.evaluating: set[str] = set()
        self._facts: FunctionFacts | None = None
        self._classes: dict[str, Value] = {}

    def _qualname(self) -> str:
        """The function's dotted name: in the class of ``owner``'s project
        lineage that defines it, for a method."""
        if self.owner is not None:
            for cls in self.resolver.project_lineage(self.owner):
                if any(binding.function is self.function for binding in cls.members.values()):
                    return f"{cls.module}.{cls.qualname}.{self.function.name}"
        return f"{self.module.name}.{self.function.name}"

    def _local_class(self, name: str, node: ast.ClassDef) -> Value:
        """A class defined in this function: its bases are read with the
        function's names, through names of their own (this object holds the
        class: reading through it would make a reference cycle)."""
        found = self._classes.get(name)
        if found is None:
            qualname = f"{self.function.name}.<locals>.{name}"
            names = _FunctionNames(self.resolver, self.function, self.module, self.owner, self.params)
            info = local_class(self.module.name, node, qualname, Scope(self.module, names.lookup))
            found = self._classes[name] = Value(Kind.CLASS, module=self.module.name, qualname=qualname, cls=info)
        return found

    def narrowed(self, expr: ast.expr) -> tuple[ast.expr, bool] | None:
        """What this function asserts ``expr`` is an instance of, or is, if anything."""
        facts = self._facts
        if facts is None:
            facts = self._facts = self.resolver.facts(self.function, self.module)
        if not facts.narrowed:
            return None
        parts = dotted_parts(expr)
        return facts.narrowed.get(".".join(parts)) if parts is not None else None

    def _declared_parameter(self, name: str) -> Value | None:
        """An instance of the project class a parameter is annotated with
        (``console: ConsoleStream``), when what it is given says nothing sure."""
        arguments = self.function.args
        for parameter in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
            if parameter.arg == name and parameter.annotation is not None:
                expr = instance_of_declared(parameter.annotation)
                if expr is None:
                    return None
                value = self.resolver._evaluate(expr, Scope(self.module))
                return dataclasses.replace(value, declared=True) \
                    if value.kind is Kind.INSTANCE and value.cls is not None else None
        return None

    def _class_default(self, name: str) -> Value | None:
        """The class a parameter defaults to (``transport=Transport``: a class
        injected for tests to replace), when what it is given says nothing sure."""
        arguments = self.function.args
        positional = [*arguments.posonlyargs, *arguments.args]
        pairs = [
            *zip(reversed(positional), reversed(arguments.defaults)),
            *zip(arguments.kwonlyargs, arguments.kw_defaults),
        ]
        for parameter, default in pairs:
            if parameter.arg == name and isinstance(default, (ast.Name, ast.Attribute)):
                value = self.resolver._evaluate(default, Scope(self.module))
                return value if value.kind is Kind.CLASS and value.cls is not None else None
        return None

    def _made_for_a_cache(self, name: str, values: list[ast.expr]) -> list[ast.expr] | None:
        """``[made]`` when ``name`` is read from a cache and, failing that, made
        and put in it: ``bot = _bots.get(key)``, then ``bot = make_bot()`` and
        ``_bots[key] = bot`` (python-telegram-bot's ``default_bot`` fixture).
        The cache holds only what this function made, so the name is that."""
        looked_up: ast.expr | None = None
        cache = ""
        for value in values:
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "get" \
                    and isinstance(value.func.value, ast.Name):
                if looked_up is not None:
                    return None
                looked_up, cache = value, value.func.value.id
        if looked_up is None:
            return None
        filled = any(
            isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id == name
            and any(isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == cache
                    for t in node.targets)
            for node in own_nodes(self.function)
        )
        return [value for value in values if value is not looked_up] if filled else None

    def _wrapped_by(self, closure: FunctionNode) -> Value:
        """A closure decorated only with ``functools.wraps(function)``: the
        function it wraps, whose name and module it takes (as mock and the
        oracle see it), when that is a known function; else UNKNOWN."""
        [decorator, *others] = closure.decorator_list
        if others or not isinstance(decorator, ast.Call) or callee_name(decorator.func) != "wraps" \
                or len(decorator.args) != 1:
            return UNKNOWN
        wrapped = self.resolver._evaluate(decorator.args[0], Scope(self.module, self.lookup, self.narrowed))
        return wrapped if wrapped.kind in (Kind.FUNCTION, Kind.EXTERNAL) else UNKNOWN

    def _either(self, name: str, values: list[ast.expr], scope: Scope) -> Value:
        """A name bound to one of several objects (``Resolver.either_instance``)."""
        self.evaluating.add(name)
        try:
            return self.resolver.either_instance([self.resolver._evaluate(value, scope) for value in values])
        finally:
            self.evaluating.discard(name)

    def lookup(self, name: str) -> Value | None:
        facts = self._facts
        if facts is None:
            facts = self._facts = self.resolver.facts(self.function, self.module)
        owner = self.owner
        if owner is not None and facts.params and name == facts.params[0]:
            decorators = decorator_names(self.function)
            if "classmethod" in decorators:  # ``cls``: the class (``return cls(crawler)`` makes an instance)
                return Value(Kind.CLASS, module=owner.module, qualname=f"{owner.module}.{owner.qualname}", cls=owner)
            if "staticmethod" not in decorators:
                called_on = self.params(name) if self.params is not None else None
                if called_on is not None and called_on.given and called_on.cls is not None:
                    return called_on  # the very object the method is called on (``Resolver._given_receiver``)
                return Value(Kind.INSTANCE, module=owner.module, qualname=owner.qualname, cls=owner)
        if name in self.evaluating:
            return UNKNOWN
        resolver = self.resolver
        scope = Scope(self.module, self.lookup, self.narrowed)
        values = facts.assigns.get(name) or facts.entered.get(name)
        if values is not None and len(values) == 2 and name not in facts.entered:
            if sum(map(is_none, values)) == 1:
                values = [value for value in values if not is_none(value)]  # ``app = None`` first, a placeholder
            else:
                values = self._made_for_a_cache(name, values) or values
        if values is not None and len(values) > 1 and _one_maker(values) and not (
            name in facts.assigns and name in facts.entered
        ):
            values = values[:1]  # bound each time by a call of the same callee: one kind of object
        if values is not None:
            if name in facts.assigns and name in facts.entered:
                return UNKNOWN
            if len(values) != 1:
                return self._either(name, values, scope) if len(values) <= _EITHER_BOUND and name not in facts.entered \
                    else UNKNOWN
            self.evaluating.add(name)
            try:
                if name in facts.entered:
                    return resolver._entered(values[0], scope)
                return resolver._evaluate(values[0], scope)
            finally:
                self.evaluating.discard(name)
        if name in facts.unpacked:
            source, position, entered = facts.unpacked[name]
            self.evaluating.add(name)
            try:
                whole = resolver._entered(source, scope) if entered else resolver._evaluate(source, scope)
            finally:
                self.evaluating.discard(name)
            if whole.elements is not None and position < len(whole.elements):
                return whole.elements[position]
            return UNKNOWN
        if name in facts.params:
            given = self.params(name) if self.params is not None else None
            if given is None or given.kind is Kind.UNKNOWN:
                return self._declared_parameter(name) or self._class_default(name) or UNKNOWN
            return given
        if name in facts.classes:
            return self._local_class(name, facts.classes[name])
        if name in facts.functions:
            local = facts.functions[name]
            if local.decorator_list:
                return self._wrapped_by(local)  # what other decorators make of a closure is not followed
            qualname = f"{self._qualname()}.<locals>.{name}"
            return Value(Kind.FUNCTION, module=self.module.name, qualname=qualname, function=local)
        if name in facts.imports:
            level, dotted = facts.imports[name]
            module = self.module
            return resolver.resolve_dotted(absolute_import(module.name, module.is_package, level, dotted))
        if name in facts.stored:
            return UNKNOWN
        return None


def _admits_none(annotation: ast.expr) -> bool:
    """Whether a return annotation allows ``None`` (``None``, ``Optional[X]``,
    ``X | None``, or a string annotation saying so)."""
    text = annotation.value if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str) \
        else ast.unparse(annotation)
    return "None" in text or "Optional" in text or "Any" in text


def _int_index(expr: ast.expr) -> int | None:
    """The index a subscript's constant gives (``[0]``, ``[-1]``), else None."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        inner = _int_index(expr.operand)
        return -inner if inner is not None else None
    return expr.value if isinstance(expr, ast.Constant) and type(expr.value) is int else None


def _declared_defaults(module: ModuleInfo, name: str) -> list[str | None]:
    """The defaults of the options named ``name`` that ``module``'s top-level
    names declare (``x_opt = cfg.StrOpt(...)``, ``opts = [cfg.StrOpt(...), ...]``);
    None for a default that is no string constant."""
    found: list[str | None] = []
    for binding in module.bindings.values():
        if binding.kind != "value" or binding.value is None:
            continue
        for node in ast.walk(binding.value):
            if (
                isinstance(node, ast.Call) and callee_name(node.func).endswith("Opt") and node.args
                and isinstance(node.args[0], ast.Constant) and node.args[0].value == name
            ):
                default = next((k.value for k in node.keywords if k.arg == "default"), None)
                literal = default.value if isinstance(default, ast.Constant) else None
                found.append(literal if isinstance(literal, str) else None)
    return found


def _percent_format(template: str, arguments: Value) -> str | None:
    """``template % arguments`` when every argument is a string constant
    (``'%s.Driver' % PATH``); None when it cannot be told."""
    items = arguments.elements if arguments.elements is not None else (arguments,)
    if any(item.const is None for item in items):
        return None
    try:
        return template % tuple(item.const for item in items)
    except (TypeError, ValueError, KeyError):
        return None


def _same(one: Value, other: Value) -> bool:
    """Whether two results denote the same object (for a function's agreeing returns)."""
    if one.kind is not other.kind or one.kind is Kind.UNKNOWN:
        return False
    if one.kind is Kind.MISSING:
        return True
    if one.kind in (Kind.INSTANCE, Kind.CLASS):
        return one.cls is other.cls
    if one.elements is not None or other.elements is not None:
        return (
            one.elements is not None and other.elements is not None
            and len(one.elements) == len(other.elements)
            and all(_same(a, b) for a, b in zip(one.elements, other.elements))
        )
    return one.module == other.module and one.qualname == other.qualname


_NAME_ATTRIBUTES = frozenset({"__name__", "__qualname__", "__module__"})


def _spelt_name(value: Value, name: str) -> str | None:
    """What ``__name__``, ``__qualname__`` or ``__module__`` of a module, class
    or function of the project is (``patch.object(Client, Client.upload.__name__)``
    names ``"upload"``); None when it cannot be told."""
    if value.kind is Kind.MODULE:
        return value.module if name == "__name__" else None
    module = value.module
    if not module or not value.qualname.startswith(f"{module}."):
        return None
    qualname = value.qualname[len(module) + 1:]
    if name == "__module__":
        return module
    return qualname if name == "__qualname__" else qualname.rpartition(".")[2]


@dataclass(frozen=True)
class _ClassBodyLookup:
    """The local lookup of ``Resolver._class_body_scope``: an object rather
    than a closure over the scope it belongs to, so that the two make no
    reference cycle (the CLI runs without the cyclic collector)."""

    resolver: Resolver
    cls: ClassInfo
    outer: Scope
    assigned: str

    def __call__(self, name: str) -> Value | None:
        member = self.cls.members.get(name) if name != self.assigned else None
        if member is None:
            return self.outer.local(name) if self.outer.local is not None else None
        body = Scope(self.outer.module, self, self.outer.narrow)
        return self.resolver._binding(member, body, f"{self.cls.module}.{self.cls.qualname}.{name}", owner=self.cls)


_FORWARDING = ("__getattr__", "__getattribute__")


# What a library's container gives back of what was put in it: ``queue.Queue.get()``, ``dict.pop()``.
_CONTAINER_GETTERS = (".get()", ".get_nowait()", ".pop()", ".popleft()", ".popitem()")


def _taken_from_a_container(value: Value) -> bool:
    return value.kind is Kind.EXTERNAL and value.qualname.endswith(_CONTAINER_GETTERS)


def _only_raises(function: FunctionNode) -> bool:
    """Whether ``function``'s body, its docstring aside, is one ``raise``: an
    abstract method (``raise NotImplementedError``), whose annotation is what
    the implementations that replace it give."""
    body = list(function.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return len(body) == 1 and isinstance(body[0], ast.Raise)


def _made_when_unset(function: FunctionNode, facts: FunctionFacts, expr: ast.expr | None) -> ast.expr | None:
    """What a method returning an attribute of its instance that it makes
    itself when unset (``if self._qos is None: self._qos = QoS(self)`` ...
    ``return self._qos``, a lazily made property) gives: the one value the
    method assigns that attribute, when it is not None; None otherwise."""
    if not (facts.params and isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name)
            and expr.value.id == facts.params[0]):
        return None
    made = [
        node.value for node in own_nodes(function)
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Attribute) and target.attr == expr.attr and isinstance(target.value, ast.Name)
            and target.value.id == expr.value.id for target in node.targets
        )
    ]
    return made[0] if len(made) == 1 and not is_none(made[0]) else None


def _passed_arguments(function: FunctionNode, call: ast.Call, bound: bool) -> dict[str, ast.expr]:
    """What ``call`` of ``function`` passes, by parameter name: by position up
    to the first starred argument (the first parameter left out when
    ``bound`` to an instance or class), and by keyword."""
    positional = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    if bound:
        positional = positional[1:]
    passed: dict[str, ast.expr] = {}
    for name, value in zip(positional, call.args):
        if isinstance(value, ast.Starred):
            break
        passed[name] = value
    for keyword in call.keywords:
        if keyword.arg is not None:
            passed[keyword.arg] = keyword.value
    return passed


def _argument_for(function: FunctionNode, call: ast.Call, parameter: str) -> ast.expr | None:
    """What ``call`` of the method ``function`` (its instance bound, not
    passed) gives its parameter ``parameter``; None when it gives nothing."""
    arguments = function.args
    if parameter not in {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}:
        return None
    return _passed_arguments(function, call, bound=True).get(parameter)


def _is_proxy(value: Value) -> bool:
    """Whether ``value`` is an instance of a class of the project that hands
    attribute reads on (defines ``__getattr__`` or ``__getattribute__``)."""
    return value.kind is Kind.INSTANCE and value.cls is not None and any(
        name in value.cls.members for name in _FORWARDING
    )


def _has_parameters(function: FunctionNode) -> bool:
    arguments = function.args
    return bool(arguments.posonlyargs or arguments.args or arguments.vararg or arguments.kwonlyargs or arguments.kwarg)
