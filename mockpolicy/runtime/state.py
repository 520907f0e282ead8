"""The process state a test can leave behind, compared cheaply between tests.

``Watched`` keeps copies of ``os.environ``, ``sys.modules``, the working
directory and the namespaces of the project's own modules and classes, and
tells whether any changed (one C-level comparison per kind when nothing did:
the common case) and, when some did, what (``Change``), taking the new state
as its reference. Values are compared by identity (``==`` first, so an equal
value rebuilt is not a change).
"""

from __future__ import annotations

import collections
import itertools
import operator
import os
import sys
import types
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from mockpolicy.runtime.describe import MISSING, class_name, defined_by, is_a

# Names Python itself adds to or changes in a class or module namespace.
_VOLATILE_NAMES = frozenset(
    {"__slotnames__", "_abc_impl", "__abstractmethods__", "__warningregistry__", "__loader__", "__spec__",
     "__cached__", "__builtins__", "__annotations__", "__orig_bases__", "__parameters__", "__weakref__"}
)


@dataclass(frozen=True)
class Change:
    """One piece of state that changed: its kind (``environ``, ``sys.modules``,
    ``attribute``, ``cwd``), a key unique among all state (``owner`` and name
    for an attribute), the name shown, and the values before and after
    (``MISSING`` when absent)."""

    state: str
    key: tuple[str, ...]
    name: str
    before: Any
    after: Any
    before_signature: Any = None  # the elements ``before`` held when it became current (containers)


def _cwd() -> str:
    try:
        return os.getcwd()
    except OSError:  # the folder was removed under us
        return "<removed folder>"


# pytest sets and removes this one around every test phase.
_PYTEST_VARIABLES = frozenset({"PYTEST_CURRENT_TEST", b"PYTEST_CURRENT_TEST"})


def _environ_data() -> Mapping[Any, Any]:
    """The mapping behind ``os.environ`` (its encoded dict when it is the real
    one), without pytest's own variable."""
    data = getattr(os.environ, "_data", None)
    data = data if type(data) is dict else dict(os.environ)
    if _PYTEST_VARIABLES.isdisjoint(data):
        return data
    return {key: value for key, value in data.items() if key not in _PYTEST_VARIABLES}


def _decoded(data: Mapping[Any, Any], environ: object) -> dict[Any, Any]:
    """``data`` (``_environ_data()`` while ``environ`` was ``os.environ``) with
    the keys and values ``environ`` gives: the real ``os.environ`` keeps
    them encoded (bytes on POSIX), a mapping put in its place keeps them as given."""
    key_of, value_of = getattr(environ, "decodekey", None), getattr(environ, "decodevalue", None)
    if key_of is None or value_of is None:
        return dict(data)
    decoded: dict[Any, Any] = {}
    for key, value in data.items():
        try:
            decoded[key_of(key)] = value_of(value)
        except Exception:  # noqa: BLE001 - an odd key or value: kept as it is
            decoded[key] = value
    return decoded


@dataclass(frozen=True)
class EnvironSnapshot:
    """``os.environ`` as it was at one moment."""

    data: Mapping[Any, Any]
    environ: object

    def get(self, key: str) -> Any:
        """The value of ``key`` then (``MISSING`` when unset)."""
        if self.environ is os.environ and hasattr(os.environ, "encodekey"):
            try:
                environ: Any = os.environ
                raw = self.data.get(environ.encodekey(key), MISSING)
                return raw if raw is MISSING else environ.decodevalue(raw)
            except Exception:  # noqa: BLE001 - an odd key, or os.environ replaced since
                return MISSING
        return self.data.get(key, MISSING)


class Watched:
    """Copies of the watched state, the reference later states are compared with.

    The namespaces watched are those of the project's modules (as
    ``is_own_module`` tells) and of the classes each defines; they are found
    again only where something changed (a module imported, a namespace
    rebound), so a test that changes nothing costs one comparison in C.
    """

    def __init__(self, is_own_module: Callable[[str], bool]) -> None:
        self._is_own_module = is_own_module
        self.environ: Mapping[Any, Any] = {}
        self.environ_object: object = None
        self.modules: dict[str, Any] = {}
        self.cwd = ""
        self._owners: list[str] = []
        self._live: list[Mapping[str, Any]] = []
        self._saved: list[dict[str, Any]] = []
        self._index: dict[str, int] = {}  # owner -> its place in the three lists above
        self._own_names: dict[str, bool] = {}
        self._modules_seen: dict[str, Any] = {}  # own module name -> the module object scanned
        self._signatures: dict[tuple[str, ...], Any] = {}  # elements of container values when they became current
        self.take()

    # -- the reference ---------------------------------------------------

    def take(self) -> None:
        """Make the current state the reference."""
        self.environ_object = os.environ
        self.environ = dict(_environ_data())
        self.modules = dict(sys.modules)
        self.cwd = _cwd()
        self._owners, self._live, self._saved, self._index, self._modules_seen = [], [], [], {}, {}
        self._signatures = {}
        self._scan_modules()

    def _is_own(self, name: str) -> bool:
        known = self._own_names.get(name)
        if known is None:
            known = self._own_names[name] = self._is_own_module(name)
        return known

    def _scan_modules(self, names: Iterable[str] | None = None) -> None:
        """Watch the namespaces of own modules imported (or replaced) since the
        last scan: those of ``names``, or of every module."""
        for name in list(self.modules) if names is None else names:
            module = self.modules.get(name)
            if self._is_own(name) and is_a(module, types.ModuleType) and self._modules_seen.get(name) is not module:
                self._modules_seen[name] = module
                self._watch(name, vars(module))
                self._scan_classes(name, vars(module))

    def _scan_classes(self, name: str, namespace: Mapping[str, Any]) -> None:
        for value in list(namespace.values()):
            if is_a(value, type) and vars(value).get("__module__") == name:
                self._watch(f"{name}.{class_name(value)}", vars(value))

    def _sign(self, key: tuple[str, ...], value: Any) -> None:
        found = signature(value)
        if found is None:
            self._signatures.pop(key, None)
        else:
            self._signatures[key] = found

    def _watch(self, owner: str, namespace: Mapping[str, Any]) -> None:
        for name, value in list(namespace.items()):
            if is_a(value, *_CONTAINERS):
                self._sign(("attribute", owner, name), value)
        place = self._index.get(owner)
        if place is None:
            self._index[owner] = len(self._owners)
            self._owners.append(owner)
            self._live.append(namespace)
            self._saved.append(_copy(namespace))
        elif self._live[place] is not namespace:  # a module imported again, a class defined again
            self._live[place] = namespace
            self._saved[place] = _copy(namespace)

    def environ_snapshot(self) -> EnvironSnapshot:
        """The reference environment, kept as it is now (the reference is
        replaced, never changed, when the state changes)."""
        return EnvironSnapshot(self.environ, self.environ_object)

    def current(self, key: tuple[str, ...]) -> Any:
        """The value the state ``key`` (of a ``Change``) has now; ``MISSING`` if absent."""
        state = key[0]
        if state == "environ":
            return os.environ.get(key[1], MISSING)
        if state == "sys.modules":
            return sys.modules.get(key[1], MISSING)
        if state == "cwd":
            return _cwd()
        place = self._index.get(key[1])
        return self._live[place].get(key[2], MISSING) if place is not None else MISSING

    # -- comparing ---------------------------------------------------------

    def diff(self) -> list[Change]:
        """What differs from the reference; the current state becomes the
        reference. Each kind of state is compared once, in C, and looked at
        closely only when it differs."""
        changes: list[Change] = []
        environ = _environ_data()
        if os.environ is not self.environ_object or environ != self.environ:
            changes += self._environ_changes(environ)
            self.environ_object, self.environ = os.environ, dict(environ)
        if sys.modules != self.modules:
            module_changes = list(self._module_changes())
            changes += module_changes
            self.modules = dict(sys.modules)
            self._scan_modules([change.key[1] for change in module_changes])
        changes += self._attribute_changes()
        cwd = _cwd()
        if cwd != self.cwd:
            changes.append(Change("cwd", ("cwd",), "the working directory", self.cwd, cwd))
            self.cwd = cwd
        return changes

    def _environ_changes(self, current: Mapping[Any, Any]) -> Iterator[Change]:
        reference = self.environ
        if os.environ is not self.environ_object:  # rebound (``os.environ = saved_copy``): compare what each holds
            reference, current = _decoded(reference, self.environ_object), _decoded(current, os.environ)
        decode = getattr(os.environ, "decodekey", None) if os.environ is self.environ_object else None
        value_of = getattr(os.environ, "decodevalue", None) if decode is not None else None
        for key in sorted(set(reference) | set(current), key=repr):
            before, after = reference.get(key, MISSING), current.get(key, MISSING)
            if before is MISSING or after is MISSING or before != after:
                name = decode(key) if decode is not None and isinstance(key, bytes) else key
                if value_of is not None:
                    before = before if before is MISSING else value_of(before)
                    after = after if after is MISSING else value_of(after)
                yield Change("environ", ("environ", str(name)), f"os.environ[{str(name)!r}]", before, after)

    def _module_changes(self) -> Iterator[Change]:
        current = sys.modules
        for name in sorted(set(self.modules) | set(current)):
            before, after = self.modules.get(name, MISSING), current.get(name, MISSING)
            if before is not after:
                yield Change("sys.modules", ("sys.modules", name), f"sys.modules[{name!r}]", before, after)

    def _attribute_changes(self) -> list[Change]:
        changes = []
        try:  # the namespaces that differ, found in C (most do not)
            differing = list(itertools.compress(range(len(self._live)), map(operator.ne, self._saved, self._live)))
        except Exception:  # noqa: BLE001 - a value whose __eq__ fails: look at each by identity
            differing = list(range(len(self._live)))
        for place in differing:
            owner, live, saved = self._owners[place], self._live[place], self._saved[place]
            rebound = False
            for name in sorted(set(saved) | set(live)):
                before, after = _unwrapped(saved.get(name, MISSING)), live.get(name, MISSING)
                if before is after:
                    continue
                rebound = rebound or is_a(after, type)
                if name not in _VOLATILE_NAMES:
                    key = ("attribute", owner, name)
                    changes.append(Change("attribute", key, f"{owner}.{name}", before, after, self._signatures.get(key)))
                    self._sign(key, after)
            self._saved[place] = _copy(live)
            if rebound and owner in self._modules_seen:
                self._scan_classes(owner, live)
        return changes


class _Same:
    """Holds, in a saved namespace, a value whose ``==`` is Python code (a
    user's ``__eq__``, a ``WeakSet``'s): compared by identity, so comparing
    namespaces runs none of the suite's code and stays cheap."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return self.value is other

    def __ne__(self, other: object) -> bool:
        return self.value is not other

    __hash__ = None  # type: ignore[assignment]


_PYTHON_EQ: dict[type, bool] = {}


def _python_eq(cls: type) -> bool:
    """Whether instances of ``cls`` compare with a ``__eq__`` written in Python."""
    known = _PYTHON_EQ.get(cls)
    if known is None:
        found = next((vars(klass)["__eq__"] for klass in cls.__mro__ if "__eq__" in vars(klass)), None)
        known = _PYTHON_EQ[cls] = isinstance(found, types.FunctionType)
    return known


def _copy(namespace: Mapping[str, Any]) -> dict[str, Any]:
    """A saved copy of ``namespace`` (see ``_Same``)."""
    copy = dict(namespace)
    for name, value in copy.items():
        if _python_eq(type(value)):
            copy[name] = _Same(value)
    return copy


def _unwrapped(value: Any) -> Any:
    return value.value if type(value) is _Same else value


# Container types whose copies restore the same state: a copy holding the same
# elements is the same value. A weak container (a registry of live objects,
# whose elements come and go with the garbage collector) replaced by another of
# its type is taken for such a copy, unread.
_CONTAINERS = (list, tuple, set, frozenset, dict, collections.deque)
_WEAK = (weakref.WeakSet, weakref.WeakKeyDictionary, weakref.WeakValueDictionary)
_PLAIN = (str, bytes, int, float, bool, type(None))


def signature(value: Any) -> tuple[str, frozenset[Any] | tuple[Any, ...]] | None:
    """The elements of a container (plain values as themselves, others by
    identity, so that no element is kept alive), or None for other objects."""
    if not is_a(value, *_CONTAINERS):
        return None
    try:
        if is_a(value, dict):
            items = [(_element(k), _element(v)) for k, v in list(value.items())]
            return "mapping", frozenset(items)
        elements = tuple(_element(element) for element in list(value))
    except Exception:  # noqa: BLE001 - a container changed while we read it
        return None
    ordered = not is_a(value, set, frozenset)
    return ("sequence", elements) if ordered else ("set", frozenset(elements))


def _added(container: Any, known: Any) -> list[Any]:
    """The elements (for a mapping, the keys and values of the items) of
    ``container`` that ``known`` (a signature's elements) does not hold."""
    try:
        if is_a(container, dict):
            return [part for k, v in list(container.items()) if (_element(k), _element(v)) not in known for part in (k, v)]
        return [element for element in list(container) if _element(element) not in known]
    except Exception:  # noqa: BLE001 - changed while we read it
        return [container]


def _element(value: Any) -> Any:
    return value if type(value) in _PLAIN else ("id", id(value))


def equivalent(before: Any, after: Any, before_signature: Any, harmless: Callable[[Any], bool] = bool) -> bool:
    """Whether ``after`` is the same value as ``before`` was (``before_signature``,
    taken when ``before`` was current): the same elements in a copy (for a set or
    a mapping, at least the same, any more being ``harmless``: a registry copied
    after the code filled in an entry), or the same function or class defined
    again (a module imported or reloaded again)."""
    if is_a(after, *_WEAK) and type(before) is type(after):
        return True
    if before_signature is not None:
        now = signature(after)
        if now is not None and now[0] == before_signature[0]:
            if now[0] == "sequence" or not now[1] >= before_signature[1]:
                return bool(now[1] == before_signature[1])
            return all(harmless(extra) for extra in _added(after, before_signature[1]))
    if type(before) is type(after) and is_a(after, type, types.FunctionType):
        return defined_by(before)[:2] == defined_by(after)[:2]
    return False
