"""The process state a test can leave behind, compared cheaply between tests.

``Watched`` keeps copies of ``os.environ``, ``sys.modules``, the working
directory and the namespaces of the project's own modules and classes, and
tells whether any changed (one C-level comparison per kind when nothing did:
the common case) and, when some did, what (``Change``), taking the new state
as its reference. Values are compared by identity (``==`` first, so an equal
value rebuilt is not a change).
"""

from __future__ import annotations

import os
import sys
import types
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from mockpolicy.runtime.describe import MISSING, class_name, is_a

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


def _cwd() -> str:
    try:
        return os.getcwd()
    except OSError:  # the folder was removed under us
        return "<removed folder>"


def _environ_data() -> Mapping[Any, Any]:
    """The mapping behind ``os.environ`` (its encoded dict when it is the real one)."""
    data = getattr(os.environ, "_data", None)
    return data if type(data) is dict else dict(os.environ)


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
    """Copies of the watched state, the reference later states are compared with."""

    def __init__(self, is_own_module: Callable[[str], bool]) -> None:
        self._is_own_module = is_own_module
        self.environ: Mapping[Any, Any] = {}
        self.environ_object: object = None
        self.modules: dict[str, Any] = {}
        self.cwd = ""
        self._owners: list[str] = []
        self._live: list[Mapping[str, Any]] = []
        self._saved: list[dict[str, Any]] = []
        self.take()

    # -- the reference ---------------------------------------------------

    def take(self) -> None:
        """Make the current state the reference."""
        self.environ_object = os.environ
        self.environ = dict(_environ_data())
        self.modules = dict(sys.modules)
        self.cwd = _cwd()
        self._scan()

    def _scan(self) -> None:
        owners, live = [], []
        for name, module in list(self.modules.items()):
            if not self._is_own_module(name) or not is_a(module, types.ModuleType):
                continue
            namespace = vars(module)
            owners.append(name)
            live.append(namespace)
            for value in list(namespace.values()):
                if is_a(value, type) and vars(value).get("__module__") == name:
                    owners.append(f"{name}.{class_name(value)}")
                    live.append(vars(value))
        self._owners, self._live = owners, live
        self._saved = [dict(namespace) for namespace in live]

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
        for owner, live in zip(self._owners, self._live):
            if owner == key[1]:
                return live.get(key[2], MISSING)
        return MISSING

    # -- comparing ---------------------------------------------------------

    def changed(self) -> bool:
        """Whether anything differs from the reference (cheap when nothing does)."""
        try:
            return not (
                os.environ is self.environ_object and self.environ == _environ_data()
                and self.modules == sys.modules and self._saved == self._live and self.cwd == _cwd()
            )
        except Exception:  # noqa: BLE001 - a value whose __eq__ fails: look closer
            return True

    def diff(self) -> list[Change]:
        """What differs from the reference; the current state becomes the reference."""
        if not self.changed():
            return []
        changes = [*self._environ_changes(), *self._module_changes(), *self._attribute_changes()]
        cwd = _cwd()
        if cwd != self.cwd:
            changes.append(Change("cwd", ("cwd",), "the working directory", self.cwd, cwd))
        modules_changed = self.modules != sys.modules
        self.environ_object = os.environ
        self.environ = dict(_environ_data())
        self.modules = dict(sys.modules)
        self.cwd = cwd
        if modules_changed or any(change.state == "attribute" for change in changes):
            self._scan()
        return changes

    def _environ_changes(self) -> Iterator[Change]:
        current = _environ_data()
        if os.environ is self.environ_object and current == self.environ:
            return
        decode = getattr(os.environ, "decodekey", None) if os.environ is self.environ_object else None
        value_of = getattr(os.environ, "decodevalue", None) if decode is not None else None
        for key in sorted(set(self.environ) | set(current), key=repr):
            before, after = self.environ.get(key, MISSING), current.get(key, MISSING)
            if before is MISSING or after is MISSING or before != after:
                name = decode(key) if decode is not None and isinstance(key, bytes) else key
                if value_of is not None:
                    before = before if before is MISSING else value_of(before)
                    after = after if after is MISSING else value_of(after)
                yield Change("environ", ("environ", str(name)), f"os.environ[{str(name)!r}]", before, after)

    def _module_changes(self) -> Iterator[Change]:
        current = sys.modules
        if current == self.modules:
            return
        for name in sorted(set(self.modules) | set(current)):
            before, after = self.modules.get(name, MISSING), current.get(name, MISSING)
            if before is not after:
                yield Change("sys.modules", ("sys.modules", name), f"sys.modules[{name!r}]", before, after)

    def _attribute_changes(self) -> Iterator[Change]:
        for owner, live, saved in zip(self._owners, self._live, self._saved):
            try:
                same = saved == live
            except Exception:  # noqa: BLE001 - compare by identity below
                same = False
            if same:
                continue
            for name in sorted(set(saved) | set(live)):
                if name in _VOLATILE_NAMES:
                    continue
                before, after = saved.get(name, MISSING), live.get(name, MISSING)
                if before is not after:
                    yield Change("attribute", ("attribute", owner, name), f"{owner}.{name}", before, after)
