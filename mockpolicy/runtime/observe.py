"""Watching mocks being made: hooks on ``unittest.mock`` (and the ``mock``
backport), pytest's ``MonkeyPatch`` and ``os.environ`` while a run is recorded.

``Observer.install`` wraps a few methods of those classes; each wrapper calls
the original unchanged (its arguments, result and exceptions untouched) and
notes what happened on the side. ``Observer.uninstall`` puts the originals
back. A wrapper never raises: an error of ours is kept (``error``) and turns
the observer off, and the suite goes on as if it were not there.
"""

from __future__ import annotations

import functools
import inspect
import sys
import types
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mockpolicy.runtime.describe import MISSING, defined_by, is_a, is_mock, short
from mockpolicy.vocabulary import TEARDOWN_NAMES

# Frames in these files are machinery, not the suite's code: a site is the first frame outside them.
_MACHINERY = ("/unittest/mock.py", "/mock/mock.py", "/pytest_mock/", "/_pytest/", "/pluggy/", "/contextlib.py",
              "/mockpolicy/runtime/", "/_collections_abc.py", "/os.py", "/functools.py", "<frozen ")
# unittest's functions that run tear-downs and cleanups: what they stop is stopped even when a test fails.
_UNITTEST_CLEANUP = frozenset({"doCleanups", "_callTearDown", "_callCleanup", "doClassCleanups", "_callAsyncTearDown"})
_MAX_DEPTH = 64


@dataclass(frozen=True)
class Site:
    """Where the suite's code made a call: file (as the interpreter names it) and line;
    ``mocker`` when the call went through pytest-mock, ``spy`` through ``mocker.spy``."""

    filename: str
    line: int
    mocker: bool = False
    spy: bool = False


@dataclass
class MockStats:
    runs: int = 0
    called: bool | None = None


@dataclass
class Active:
    """A patch in place: what it patches, where it was made, the state it covers."""

    description: str
    site: Site | None
    covers: tuple[str, ...]  # a state key (or key prefix) the patch explains
    entered_during: str | None  # the test running when it was put in place


@dataclass
class StartStats:
    runs: int = 0
    stopped_safely: int = 0


@dataclass
class Observer:
    """What the hooks saw, and the hooks themselves."""

    test: str | None = None  # node id of the running test
    phase: str | None = None  # setup, call or teardown
    mocks: dict[tuple[Any, ...], MockStats] = field(default_factory=dict)
    active: dict[int, Active] = field(default_factory=dict)
    starts: dict[tuple[str, int], StartStats] = field(default_factory=dict)
    environ_writes: dict[tuple[str, int], set[str]] = field(default_factory=dict)  # of the running test
    error: str | None = None

    def __post_init__(self) -> None:
        self._sites: weakref.WeakKeyDictionary[Any, Site] = weakref.WeakKeyDictionary()
        self._started: dict[int, tuple[str, int]] = {}
        self._tracked: dict[int, tuple[weakref.ref[Any], list[tuple[Any, ...]]]] = {}
        self._skip: dict[Any, bool] = {}
        self._undo: list[tuple[Any, str, Any, Any]] = []
        self._hooked: set[str] = set()
        self._depth = 0  # inside a patch's __enter__ (its spec'd mock is the patch's, not a site of its own)
        self._monkeypatching = 0  # inside a MonkeyPatch method (setenv calls setitem)

    # -- installing ------------------------------------------------------

    def install(self) -> None:
        import os
        import unittest.mock

        self._hook_mock_module(unittest.mock)
        self.refresh()
        self._wrap(type(os.environ), "__setitem__", self._environ_write)
        self._wrap(type(os.environ), "__delitem__", self._environ_write)
        try:
            from _pytest.monkeypatch import MonkeyPatch
        except ImportError:  # pragma: no cover - pytest always has it
            return
        for name in ("setattr", "delattr", "setitem", "delitem", "setenv", "delenv"):
            self._wrap(MonkeyPatch, name, functools.partial(self._monkeypatch, name))

    def refresh(self) -> None:
        """Hook the ``mock`` backport once something has imported it."""
        backport = sys.modules.get("mock.mock")
        if backport is not None and "mock.mock" not in self._hooked and is_a(backport, types.ModuleType):
            self._hook_mock_module(backport)

    def uninstall(self) -> None:
        """Put every original back (where nobody has wrapped ours since)."""
        while self._undo:
            owner, name, original, wrapper = self._undo.pop()
            if vars(owner).get(name) is wrapper:
                setattr(owner, name, original)
        self._hooked.clear()

    def _hook_mock_module(self, module: types.ModuleType) -> None:
        self._hooked.add(module.__name__)
        patch, patch_dict = getattr(module, "_patch", None), getattr(module, "_patch_dict", None)
        default = getattr(module, "DEFAULT", None)
        if patch is not None:
            self._wrap(patch, "__init__", self._patch_init)
            self._wrap(patch, "__enter__", functools.partial(self._patch_enter, default))
            self._wrap(patch, "__exit__", self._patch_exit)
            self._wrap(patch, "start", self._start)
            self._wrap(patch, "stop", self._stop)
        if patch_dict is not None:
            self._wrap(patch_dict, "__init__", self._patch_init)
            self._wrap(patch_dict, "_patch_dict", self._dict_patched)
            self._wrap(patch_dict, "_unpatch_dict", self._patch_exit)
            self._wrap(patch_dict, "start", self._start)
            self._wrap(patch_dict, "stop", self._stop)
        mock_class = getattr(module, "NonCallableMock", None)
        if mock_class is not None:
            self._wrap(mock_class, "_mock_add_spec", self._specced)
        callable_mixin = getattr(module, "CallableMixin", None)
        if callable_mixin is not None and "_increment_mock_call" in vars(callable_mixin):
            self._wrap(callable_mixin, "_increment_mock_call", self._mock_called)

    def _wrap(self, owner: Any, name: str, hook: Callable[..., Any]) -> None:
        original = vars(owner).get(name)
        if original is None:
            return

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if self.error is not None:
                return original(*args, **kwargs)
            return hook(original, *args, **kwargs)

        functools.update_wrapper(wrapper, original)
        setattr(owner, name, wrapper)
        self._undo.append((owner, name, original, wrapper))

    def _fail(self, where: str, exc: BaseException) -> None:
        if self.error is None:
            self.error = f"{where}: {type(exc).__name__}: {exc}"

    # -- sites -------------------------------------------------------------

    def site(self) -> Site | None:
        """The first frame of the suite's own code above the caller (our own
        frames are machinery too)."""
        frame: types.FrameType | None = sys._getframe(1)
        mocker = spy = False
        for _ in range(_MAX_DEPTH):
            if frame is None:
                return None
            code = frame.f_code
            skipped = self._skip.get(code)
            if skipped is None:
                name = code.co_filename.replace("\\", "/")
                skipped = self._skip[code] = any(part in name for part in _MACHINERY)
            if not skipped:
                return Site(code.co_filename, frame.f_lineno, mocker, spy)
            if "pytest_mock" in code.co_filename:
                mocker = True
                spy = spy or code.co_name == "spy"
            frame = frame.f_back
        return None

    def _safely_stopped(self) -> bool:
        """Whether code running now runs even when the test fails: pytest's
        teardown, unittest's tearDown and cleanups, a tear-down method."""
        if self.phase == "teardown":
            return True
        frame: types.FrameType | None = sys._getframe(2)
        for _ in range(_MAX_DEPTH):
            if frame is None:
                return False
            name = frame.f_code.co_name
            if name in TEARDOWN_NAMES or (name in _UNITTEST_CLEANUP and "unittest" in frame.f_code.co_filename):
                return True
            frame = frame.f_back
        return False

    # -- what the hooks note -------------------------------------------------

    def _note(self, site: Site | None, kind: str, target: str, original: Any, replacement: Any) -> None:
        if site is None or self.test is None:
            return
        module, qualname, what = (None, None, "missing") if original is MISSING else defined_by(original)
        api = "mocker" if site.mocker else "unittest"
        if kind in ("setattr", "delattr", "setitem", "delitem", "setenv", "delenv"):
            api = "monkeypatch"
        if kind in ("setenv", "delenv"):
            module, qualname, what = None, None, "environ"
        key = (site.filename, site.line, "spy" if site.spy else kind, api, target, module, qualname, what)
        stats = self.mocks.get(key)
        if stats is None:
            stats = self.mocks[key] = MockStats()
        stats.runs += 1
        if is_a(replacement, types.FunctionType) and is_mock(vars(replacement).get("mock")):
            replacement = vars(replacement)["mock"]  # create_autospec of a function: a function over a mock
        if is_mock(replacement):
            if stats.called is None:
                stats.called = False
            self._track(replacement, key)

    def _track(self, mock: Any, key: tuple[Any, ...]) -> None:
        known = self._tracked.get(id(mock))
        if known is not None and known[0]() is mock:
            known[1].append(key)
            return
        identity = id(mock)
        try:
            ref = weakref.ref(mock, lambda _ref: self._tracked.pop(identity, None))
        except TypeError:
            return
        self._tracked[identity] = (ref, [key])

    def _mock_called(self, original: Any, mock: Any, *args: Any, **kwargs: Any) -> Any:
        if self._tracked:
            try:
                current, hops = mock, 0
                while current is not None and hops < _MAX_DEPTH:
                    known = self._tracked.get(id(current))
                    if known is not None and known[0]() is current:
                        for key in known[1]:
                            self.mocks[key].called = True
                    current = vars(current).get("_mock_new_parent")
                    hops += 1
            except Exception as exc:  # noqa: BLE001 - never into the suite
                self._fail("a mock call", exc)
        return original(mock, *args, **kwargs)

    def _patch_init(self, original: Any, patcher: Any, *args: Any, **kwargs: Any) -> Any:
        result = original(patcher, *args, **kwargs)
        try:
            site = self.site()
            if site is not None:
                self._sites[patcher] = site
        except Exception as exc:  # noqa: BLE001
            self._fail("a patch", exc)
        return result

    def _patch_enter(self, default: Any, original: Any, patcher: Any) -> Any:
        self._depth += 1
        try:
            result = original(patcher)
        finally:
            self._depth -= 1
        try:
            self._entered(patcher, result, default)
        except Exception as exc:  # noqa: BLE001
            self._fail("entering a patch", exc)
        return result

    def _entered(self, patcher: Any, result: Any, default: Any) -> None:
        site = self._sites.get(patcher) or self.site()
        target, attribute = vars(patcher).get("target"), vars(patcher).get("attribute")
        getter = vars(patcher).get("getter")
        multiple = vars(patcher).get("attribute_name") is not None
        if multiple:
            kind = "patch.multiple"
        elif is_a(getter, functools.partial):
            kind = "patch"
        else:
            kind = "patch.object"
        owner = _owner_name(target)
        original = vars(patcher).get("temp_original", MISSING)
        if original is default:
            original = MISSING
        replacement = result
        if multiple:
            new = vars(patcher).get("new")
            replacement = result.get(attribute) if new is default and is_a(result, dict) else new
        self._note(site, kind, f"{owner}.{attribute}", original, replacement)
        self.active[id(patcher)] = Active(
            f"patch of {owner}.{attribute}", site, ("attribute", owner, str(attribute)), self.test)

    def _patch_exit(self, original: Any, patcher: Any, *args: Any) -> Any:
        self.active.pop(id(patcher), None)
        return original(patcher, *args)

    def _dict_patched(self, original: Any, patcher: Any) -> Any:
        result = original(patcher)
        try:
            in_dict = vars(patcher).get("in_dict")
            site = self._sites.get(patcher) or self.site()
            name = _dict_name(in_dict)
            values = vars(patcher).get("values") or {}
            before = vars(patcher).get("_original") or {}
            if in_dict is sys.modules:
                for key in values:
                    self._note(site, "patch.dict", f"sys.modules[{key!r}]", before.get(key, MISSING), values[key])
                covers: tuple[str, ...] = ("sys.modules",)
            else:
                self._note(site, "patch.dict", name, in_dict, None)
                covers = ("environ",) if name == "os.environ" else ("dict", str(id(in_dict)))
            self.active[id(patcher)] = Active(f"patch.dict of {name}", site, covers, self.test)
        except Exception as exc:  # noqa: BLE001
            self._fail("patch.dict", exc)
        return result

    def _start(self, original: Any, patcher: Any) -> Any:
        try:
            site = self.site()
        except Exception as exc:  # noqa: BLE001
            site = None
            self._fail("a patcher's start", exc)
        result = original(patcher)
        if site is not None and self.test is not None:
            where = (site.filename, site.line)
            self.starts.setdefault(where, StartStats()).runs += 1
            self._started[id(patcher)] = where
        return result

    def _stop(self, original: Any, patcher: Any) -> Any:
        where = self._started.pop(id(patcher), None)
        if where is not None:
            try:
                if self._safely_stopped():
                    self.starts[where].stopped_safely += 1
            except Exception as exc:  # noqa: BLE001
                self._fail("a patcher's stop", exc)
        return original(patcher)

    def _specced(self, original: Any, mock: Any, spec: Any, *args: Any, **kwargs: Any) -> Any:
        if spec is not None and self._depth == 0 and self.test is not None:
            try:
                own = vars(mock)
                if own.get("_mock_parent") is None and own.get("_mock_new_parent") is None \
                        and not (is_a(spec, list, tuple) and all(is_a(item, str) for item in spec)):
                    site = self.site()
                    kind = "autospec" if _called_from("create_autospec") else "mock"
                    self._note(site, kind, _spec_name(spec), spec if not is_mock(spec) else MISSING, mock)
            except Exception as exc:  # noqa: BLE001
                self._fail("a spec'd mock", exc)
        return original(mock, spec, *args, **kwargs)

    def _monkeypatch(self, method: str, original: Any, monkeypatch: Any, *args: Any, **kwargs: Any) -> Any:
        outermost = self._monkeypatching == 0
        self._monkeypatching += 1
        try:
            setattrs = len(vars(monkeypatch).get("_setattr", ()))
            setitems = len(vars(monkeypatch).get("_setitem", ()))
            result = original(monkeypatch, *args, **kwargs)
        finally:
            self._monkeypatching -= 1
        if outermost and self.test is not None:
            try:
                self._monkeypatched(method, monkeypatch, setattrs, setitems, args, kwargs)
            except Exception as exc:  # noqa: BLE001
                self._fail(f"monkeypatch.{method}", exc)
        return result

    def _monkeypatched(self, method: str, monkeypatch: Any, setattrs: int, setitems: int,
                       args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        site = self.site()
        if method in ("setenv", "delenv"):
            name = args[0] if args else kwargs.get("name")
            self._note(site, method, f"os.environ[{name!r}]", MISSING, None)
            return
        if method in ("setattr", "delattr"):
            done = vars(monkeypatch).get("_setattr", [])
            if len(done) <= setattrs:
                return  # nothing was changed (raising=False on a missing name)
            target, name, old = done[-1]
            value = kwargs.get("value", args[2] if len(args) > 2 else (args[1] if len(args) == 2 else None))
            if method == "delattr":
                value = None
            self._note(site, method, f"{_owner_name(target)}.{name}", _shadowed(target, name, _old_value(old)), value)
            return
        done = vars(monkeypatch).get("_setitem", [])
        if len(done) <= setitems:
            return
        dic, key, old = done[-1]
        value = None if method == "delitem" else kwargs.get("value", args[2] if len(args) > 2 else None)
        self._note(site, method, f"{_dict_name(dic)}[{key!r}]", _old_value(old), value)

    def _environ_write(self, original: Any, environ: Any, key: Any, *args: Any) -> Any:
        if self.test is not None and key != "PYTEST_CURRENT_TEST":
            try:
                site = self.site()
                if site is not None:
                    self.environ_writes.setdefault((site.filename, site.line), set()).add(str(key))
            except Exception as exc:  # noqa: BLE001
                self._fail("an os.environ write", exc)
        return original(environ, key, *args)


def _old_value(old: Any) -> Any:
    """MonkeyPatch's record of an old value: its ``notset`` marker (pytest 8's
    ``Notset``, pytest 9's ``NotSetType``) means missing."""
    kind = type(old)
    marker = (kind.__name__, kind.__module__) in (("Notset", "_pytest.monkeypatch"), ("NotSetType", "_pytest.compat"))
    return MISSING if marker else old


def _shadowed(target: Any, name: str, old: Any) -> Any:
    """What an attribute set on an instance replaces when the instance's own
    ``__dict__`` lacked it (pytest 9 records only that, to delete it again):
    its class's attribute, read without running a descriptor."""
    if old is not MISSING or isinstance(target, (type, types.ModuleType)):
        return old
    found = inspect.getattr_static(type(target), name, MISSING)
    return found.__func__ if isinstance(found, (staticmethod, classmethod)) else found


def _called_from(name: str) -> bool:
    frame: types.FrameType | None = sys._getframe(2)
    for _ in range(_MAX_DEPTH):
        if frame is None:
            return False
        if frame.f_code.co_name == name and frame.f_code.co_filename.replace("\\", "/").endswith("mock.py"):
            return True
        frame = frame.f_back
    return False


def _owner_name(target: object) -> str:
    """The dotted name of a patched object, as the state watcher names owners."""
    module, qualname, what = defined_by(target)
    if what == "module":
        return module or "?"
    if what == "class":
        return f"{module}.{qualname}"
    if what == "instance" or (what == "value" and module != "builtins"):
        return f"<{module}.{qualname} object>"
    return short(target)


def _spec_name(spec: object) -> str:
    module, qualname, what = defined_by(spec)
    if what == "module":
        return module or "?"
    return f"{module}.{qualname}" if module and qualname else short(spec)


def _dict_name(mapping: object) -> str:
    import os

    if mapping is sys.modules:
        return "sys.modules"
    if mapping is os.environ:
        return "os.environ"
    return short(mapping)
