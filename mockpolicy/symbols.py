"""The data model shared by the symbol index and the resolver: what a module
and a class bind (``ModuleInfo``, ``ClassInfo``, ``Binding``) and what an
expression denotes (``Value`` of a ``Kind``), looked up in a ``Scope``.

Plain data only: ``mockpolicy.index`` builds these from syntax trees and
``mockpolicy.resolve`` evaluates targets into them.
"""

from __future__ import annotations

import ast
import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from mockpolicy.functions import FunctionNode

BindingKind = Literal["import", "def", "class", "value", "unknown"]


@dataclass(frozen=True)
class Binding:
    """What a name is bound to: an import (``target`` is the absolute dotted
    path), a def (``function`` is its node), a class, or an assigned ``value``
    expression."""

    kind: BindingKind
    lineno: int
    target: str = ""
    value: ast.expr | None = None
    cls: ClassInfo | None = None
    function: ast.FunctionDef | ast.AsyncFunctionDef | None = None
    declared: ast.expr | None = None  # ``X: Cls = None``: what the name holds once filled in (``Cls()``)
    # an import in a ``try`` whose ``except ImportError:`` binds the name again:
    # what the name holds when the imported module is absent
    fallback: Binding | None = None
    # a value reading the name it is bound to (``utcnow = partial(utcnow, with_tz=False)``):
    # what the name held before, which that read gives
    previous: Binding | None = None


@dataclass(eq=False)
class ClassInfo:
    """A class body: its bases (unevaluated), its members, and the attributes
    ``__init__`` assigns on ``self``."""

    module: str
    qualname: str
    bases: list[ast.expr]
    members: dict[str, Binding] = field(default_factory=dict)
    # self.name = value in __init__/set-up methods: name -> (value, the method)
    instance_attrs: dict[str, tuple[ast.expr, ast.FunctionDef | ast.AsyncFunctionDef]] = field(default_factory=dict)
    # where the bases are evaluated when not at module level (a class defined in a function)
    bases_scope: Scope | None = None
    # attributes may appear at run time: a metaclass, __getattr__, or class keywords
    dynamic: bool = False
    # the ``metaclass=`` keyword of the class statement, unevaluated
    metaclass: ast.expr | None = None
    # Attributes set on instances from outside the class (pytest fixtures that
    # assign ``request.instance.x``): name -> value, or None when unknown.
    fallback: Callable[[str], Value | None] | None = None


@dataclass(eq=False)
class ModuleInfo:
    """The top-level namespace of one module."""

    name: str
    path: Path | None
    is_package: bool
    bindings: dict[str, Binding] = field(default_factory=dict)
    star_imports: list[str] = field(default_factory=list)
    # A package's functions importing its modules by name (``__import__("pkg.widget")``
    # in ``register_all``): a registry they fill may set their classes on the package.
    imported_at_run_time: list[str] = field(default_factory=list)
    has_getattr: bool = False  # names may appear at run time: __getattr__, or the module rewrites itself
    # The file under analysis. The engine adds its summary to the index for one
    # file and removes it after; what the resolver and the fixture finder
    # remember lives as long as the engine, so nothing derived from a volatile
    # module (or from a class it defines) may be stored in their caches. Their
    # caches are keyed by id() of index objects, which the index keeps alive for
    # the engine's lifetime; a volatile module's objects die with the file.
    volatile: bool = False
    # import path -> the top-level names this module bound it to (from x import y as z),
    # at run time: not those under ``if TYPE_CHECKING:``
    imported: dict[str, list[str]] = field(default_factory=dict)
    # A conftest's ``builtins.name = local``: name -> its top-level ``local``.
    sets_builtins: dict[str, str] = field(default_factory=dict)
    # For a test module: the names its conftests set on ``builtins`` -> (that conftest, its local).
    builtins_from: dict[str, tuple[ModuleInfo, str]] = field(default_factory=dict)
    # What the summary store keeps of this module under (its bytes' digest, name
    # and kind), when the index read it from a file; "" for the file under analysis.
    summary_key: str = ""
    # For a module whose bodies the index defers: which of its functions call
    # which names (``index.calls_record``), read before the bodies were dropped,
    # until the search for callers takes it.
    calls: dict[str, list[int]] | None = None


class Kind(enum.Enum):
    MODULE = "module"
    CLASS = "class"
    FUNCTION = "function"
    INSTANCE = "instance"
    CONSTANT = "constant"
    EXTERNAL = "external"  # defined outside the project's source roots
    UNKNOWN = "unknown"  # cannot be told statically
    MISSING = "missing"  # the name does not exist


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
    function: FunctionNode | None = field(default=None, compare=False)
    owner: ClassInfo | None = field(default=None, compare=False)
    elements: tuple[Value, ...] | None = field(default=None, compare=False)  # a tuple's items
    # An instance known only from an annotation (``-> BaseRequest``, ``x: C = None``,
    # a parameter's type): the object may be of a subclass of ``cls``.
    declared: bool = field(default=False, compare=False)
    # An instance made by a call of its class: the attributes ``__init__`` sets
    # to its parameters as they are (``self._engine = engine``), with what the
    # call passed them (``Listener(engine)``), when that is known.
    given: tuple[tuple[str, Value], ...] = field(default=(), compare=False)


UNKNOWN = Value(Kind.UNKNOWN)
MISSING = Value(Kind.MISSING)


def external(path: str) -> Value:
    return Value(Kind.EXTERNAL, module=path.partition(".")[0], qualname=path)


def class_of(instance: Value) -> Value:
    """The class of the INSTANCE value ``instance`` (``pkg.Storage()`` gives ``pkg.Storage``)."""
    return Value(Kind.CLASS, module=instance.module, qualname=instance.qualname.removesuffix("()"), cls=instance.cls)


Lookup = Callable[[str], "Value | None"]
Narrowing = Callable[[ast.expr], "tuple[ast.expr, bool] | None"]  # (C, instance of C or C itself)


@dataclass(frozen=True)
class Scope:
    """Where a name is looked up: an optional local lookup first, then the module.
    ``narrow`` gives the class a function asserts a name or dotted expression is
    an instance of (``assert isinstance(a.b, C)``), or the class or function it
    asserts it is (``assert a.b == C``), for what resolves to nothing else."""

    module: ModuleInfo
    local: Lookup | None = None
    narrow: Narrowing | None = None


