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
import enum
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from mockpolicy.index import Binding, ClassInfo, ModuleIndex, ModuleInfo
from mockpolicy.project import Project

MAX_DEPTH = 40
BUILTIN_NAMES = frozenset(dir(builtins))


class Kind(enum.Enum):
    MODULE = "module"
    CLASS = "class"
    FUNCTION = "function"
    INSTANCE = "instance"
    CONSTANT = "constant"
    EXTERNAL = "external"  # defined outside the project's source roots
    UNKNOWN = "unknown"  # cannot be told statically
    MISSING = "missing"  # the name does not exist


# Decorators that return the function itself (or a descriptor whose getter is
# the function, which is how mock and the oracle see it).
TRANSPARENT_DECORATORS = frozenset(
    {"staticmethod", "classmethod", "property", "abstractmethod", "abstractproperty",
     "abstractclassmethod", "abstractstaticmethod", "overload", "override", "final",
     "setter", "getter", "deleter", "contextmanager", "asynccontextmanager", "wraps"}
)

CODE_KINDS = frozenset({Kind.MODULE, Kind.CLASS, Kind.FUNCTION, Kind.INSTANCE})


@dataclass(frozen=True)
class Value:
    """The result of evaluating a target.

    ``module`` is the module that defines the object (for an instance: the
    module defining its class); ``qualname`` a dotted display name; ``cls`` the
    class for CLASS and INSTANCE; ``const`` the folded value of a string
    constant.
    """

    kind: Kind
    module: str = ""
    qualname: str = ""
    cls: ClassInfo | None = None
    const: str | None = None


UNKNOWN = Value(Kind.UNKNOWN)
MISSING = Value(Kind.MISSING)


def external(path: str) -> Value:
    return Value(Kind.EXTERNAL, module=path.partition(".")[0], qualname=path)


Lookup = Callable[[str], "Value | None"]


@dataclass(frozen=True)
class Scope:
    """Where a name is looked up: an optional local lookup first, then the module."""

    module: ModuleInfo
    local: Lookup | None = None


class Resolver:
    """Evaluates targets for one project; shares the project's ``ModuleIndex``."""

    def __init__(self, project: Project, index: ModuleIndex) -> None:
        self.project = project
        self.index = index
        self._depth = 0
        self._dotted: dict[str, Value] = {}
        self._display: dict[str, str] = {}

    # -- public API -------------------------------------------------------

    def is_first_party(self, value: Value) -> bool:
        return value.kind in CODE_KINDS and self.project.is_first_party(value.module)

    def resolve_dotted(self, path: str) -> Value:
        """What the import path ``a.b.C.attr`` denotes (as ``mock.patch`` resolves it)."""
        found = self._dotted.get(path)
        if found is None:
            found = self._dotted[path] = self._resolve_dotted(path)
        return found

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
        shown = self._display.get(value.module)
        if shown is None:
            located = self.index.locate(value.module) if value.module else None
            if located is None or located[0] is None:
                shown = value.module.replace(".", "/")
            else:
                shown = self.project.relative(located[0])
            self._display[value.module] = shown
        return shown

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
        if kind is Kind.MODULE:
            return self._module_attribute(value.module, name)
        if kind is Kind.CLASS and value.cls is not None:
            return self._member(value.cls, name, instance=False)
        if kind is Kind.INSTANCE and value.cls is not None:
            return self._member(value.cls, name, instance=True)
        if kind in (Kind.EXTERNAL, Kind.CONSTANT):
            base = value.qualname or "builtins.object"
            return external(f"{base}.{name}")
        if kind is Kind.MISSING:
            return MISSING
        return UNKNOWN

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
        for star in info.star_imports:
            found = self.resolve_dotted(f"{star}.{name}")
            if found.kind is not Kind.MISSING:
                return found
        if info.has_getattr or info.path is None:
            return UNKNOWN
        if name.startswith("__") and name.endswith("__"):
            return external(f"types.ModuleType.{name}")
        return MISSING

    def _binding(self, binding: Binding, scope: Scope, qualname: str) -> Value:
        module = scope.module.name
        if binding.kind == "def":
            if binding.function is not None and binding.function.decorator_list:
                return self._decorated(binding.function, scope, qualname)
            return Value(Kind.FUNCTION, module=module, qualname=qualname)
        if binding.kind == "class" and binding.cls is not None:
            return Value(Kind.CLASS, module=module, qualname=qualname, cls=binding.cls)
        if binding.kind == "import":
            return self.resolve_dotted(binding.target)
        if binding.kind == "value" and binding.value is not None:
            return self._evaluate(binding.value, scope)
        return UNKNOWN

    def _decorated(self, function: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope, qualname: str) -> Value:
        """A decorated def is what its decorators return: still the function for
        the well-known transparent ones, an outside object (a cached property, a
        click command) for other outside decorators, unknown for the project's own."""
        for decorator in function.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            if name in TRANSPARENT_DECORATORS:
                continue
            made_by = self._evaluate(target, scope)
            if made_by.kind is Kind.EXTERNAL:
                return external(f"{made_by.qualname}()")
            return UNKNOWN
        return Value(Kind.FUNCTION, module=scope.module.name, qualname=qualname)

    def _member(self, cls: ClassInfo, name: str, instance: bool) -> Value:
        if instance:
            bound = self._instance_attribute(cls, name, set())
            if bound is not None:
                return bound
        found = self._class_lookup(cls, name, set())
        if found is not None:
            return found
        if name.startswith("__") and name.endswith("__"):
            return external(f"builtins.object.{name}")
        # An instance may get attributes anywhere (fixtures, other methods); a class may not.
        return UNKNOWN if instance else MISSING

    def _instance_attribute(self, cls: ClassInfo, name: str, seen: set[int]) -> Value | None:
        """``self.name`` as bound by ``__init__``/set-up methods of ``cls`` or its project bases."""
        if id(cls) in seen:
            return None
        seen.add(id(cls))
        scope = self.module_scope(cls.module)
        if scope is None:
            return None
        if name in cls.instance_attrs:
            return self._evaluate(cls.instance_attrs[name], scope)
        for base_expr in cls.bases:
            base = self._evaluate(base_expr, scope)
            if base.kind is Kind.CLASS and base.cls is not None:
                found = self._instance_attribute(base.cls, name, seen)
                if found is not None:
                    return found
        return None

    def _class_lookup(self, cls: ClassInfo, name: str, seen: set[int]) -> Value | None:
        """The member ``name`` of ``cls`` or its bases; ``None`` when no project
        class in the hierarchy has it and every base is known to be ``object``."""
        if id(cls) in seen:
            return UNKNOWN
        seen.add(id(cls))
        qualname = f"{cls.module}.{cls.qualname}.{name}"
        binding = cls.members.get(name)
        scope = self.module_scope(cls.module)
        if binding is not None:
            if scope is None:
                return UNKNOWN
            return self._binding(binding, scope, qualname)
        outside: Value | None = None
        for base_expr in cls.bases:
            base = self._evaluate(base_expr, scope) if scope is not None else UNKNOWN
            if base.kind is Kind.CLASS and base.cls is not None:
                found = self._class_lookup(base.cls, name, seen)
                if found is not None:
                    return found
            elif base.kind is Kind.EXTERNAL:
                if base.qualname not in ("builtins.object", "object"):
                    outside = outside or external(f"{base.qualname}.{name}")
            else:
                outside = UNKNOWN
        return outside

    def _lookup_name(self, name: str, scope: Scope) -> Value:
        if scope.local is not None:
            local = scope.local(name)
            if local is not None:
                return local
        binding = scope.module.bindings.get(name)
        if binding is not None:
            return self._binding(binding, scope, f"{scope.module.name}.{name}")
        for star in scope.module.star_imports:
            found = self.resolve_dotted(f"{star}.{name}")
            if found.kind is not Kind.MISSING:
                return found
        if name in BUILTIN_NAMES:
            return external(f"builtins.{name}")
        return UNKNOWN

    def _evaluate(self, expr: ast.expr, scope: Scope) -> Value:
        if isinstance(expr, ast.Name):
            return self._lookup_name(expr.id, scope)
        if isinstance(expr, ast.Attribute):
            return self._attribute(self._evaluate(expr.value, scope), expr.attr)
        if isinstance(expr, ast.Constant):
            const = expr.value if isinstance(expr.value, str) else None
            return Value(Kind.CONSTANT, qualname=f"builtins.{type(expr.value).__name__}", const=const)
        if isinstance(expr, ast.JoinedStr):
            return self._fold_fstring(expr, scope)
        if isinstance(expr, ast.BinOp):
            return self._fold_binop(expr, scope)
        if isinstance(expr, ast.Call):
            return self._call_result(expr, scope)
        if isinstance(expr, ast.Lambda):
            return Value(Kind.FUNCTION, module=scope.module.name, qualname=f"{scope.module.name}.<lambda>")
        if isinstance(
            expr,
            (ast.Tuple, ast.List, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp,
             ast.GeneratorExp, ast.Compare, ast.BoolOp, ast.UnaryOp),
        ):
            return Value(Kind.CONSTANT, qualname=f"builtins.{type(expr).__name__.lower()}")
        return UNKNOWN

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

    def _fold_binop(self, expr: ast.BinOp, scope: Scope) -> Value:
        left = self._evaluate(expr.left, scope)
        right = self._evaluate(expr.right, scope)
        if isinstance(expr.op, ast.Add) and left.const is not None and right.const is not None:
            return Value(Kind.CONSTANT, qualname="builtins.str", const=left.const + right.const)
        if left.kind is Kind.CONSTANT:
            return Value(Kind.CONSTANT, qualname=left.qualname)
        return UNKNOWN

    def _call_result(self, expr: ast.Call, scope: Scope) -> Value:
        func = self._evaluate(expr.func, scope)
        if func.qualname == "builtins.type" and len(expr.args) == 1:
            obj = self._evaluate(expr.args[0], scope)
            if obj.kind is Kind.INSTANCE:
                return Value(Kind.CLASS, module=obj.module, qualname=obj.qualname.removesuffix("()"), cls=obj.cls)
            return UNKNOWN
        if func.kind is Kind.CLASS and func.cls is not None:
            return Value(Kind.INSTANCE, module=func.module, qualname=f"{func.qualname}()", cls=func.cls)
        if func.kind is Kind.EXTERNAL:
            if func.qualname in ("builtins.type", "collections.namedtuple", "typing.NamedTuple"):
                return UNKNOWN
            return external(f"{func.qualname}()")
        return UNKNOWN


def string_constant(resolver: Resolver, expr: ast.expr, scope: Scope) -> str | None:
    """The value of a string-constant expression (literals, names of module
    constants, ``+`` concatenations and f-strings of those), else None."""
    return resolver.evaluate(expr, scope).const


def local_lookup(table: Mapping[str, Value]) -> Lookup:
    return table.get


def is_stdlib(module: str) -> bool:
    return module.partition(".")[0] in sys.stdlib_module_names
