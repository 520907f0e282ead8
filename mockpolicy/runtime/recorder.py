"""The recording pytest plugin object: registered by ``mockpolicy.runtime.plugin``
only when a record is asked for.

Around each test (setup, call and teardown) it compares the watched state
(``state.Watched``) with the state before, and blames what is left changed on
the test. Fixtures wider than a function are watched apart: what one sets up
and puts back at its own teardown is its business, not the business of the
test that happened to run first; what it leaves changed is blamed on it.
Every hook catches its own errors: a failure of ours ends the recording (said
once at the end of the run) and never a test.
"""

from __future__ import annotations

import hashlib
import inspect
import os
import sys
import time
import types
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from mockpolicy.project import in_packages
from mockpolicy.runtime import record
from mockpolicy.runtime.describe import MISSING, defined_by, is_a, is_mock, short
from mockpolicy.runtime.observe import Observer
from mockpolicy.runtime.state import Change, EnvironSnapshot, Watched, equivalent

WORKER_OUTPUT_KEY = "mockpolicy_record"
SHOWN_IN_SUMMARY = 20


@dataclass
class _Blamed:
    """A pollution being counted: later tests that ran with it, until it is undone."""

    polluter: str
    place: tuple[str, str, int]  # path, scope, line
    state: str
    name: str
    before: str
    after: str
    key: tuple[str, ...]
    value: Any  # the value it left (for a patch: the patch's id)
    later: int = 0
    open: bool = True


@dataclass
class _FixtureWatch:
    """A fixture wider than a function while it is in place: what it changed
    (each key with its value from before the fixture) and the patches it put in place."""

    name: str
    place: tuple[str, str, int]
    scope: str
    touched: dict[tuple[str, ...], Any] = field(default_factory=dict)
    names: dict[tuple[str, ...], Change] = field(default_factory=dict)
    patches: set[int] = field(default_factory=set)


class Recorder:
    """Records one pytest process's run."""

    def __init__(self, config: pytest.Config, out: Path, root: Path, first_party: frozenset[str]) -> None:
        self.config = config
        self.out = out
        self.root = root
        self.first_party = first_party
        workerinput = getattr(config, "workerinput", None)
        self.process = str(workerinput.get("workerid", "worker")) if isinstance(workerinput, dict) else "main"
        self.is_worker = workerinput is not None
        self.started = time.time()
        self.observer = Observer()
        self.watched: Watched | None = None
        self.tests: list[record.RanTest] = []
        self.blamed: list[_Blamed] = []
        self.open: dict[tuple[str, ...], _Blamed] = {}
        self.outcomes: dict[str, str] = {}
        self.files: set[str] = set()
        self.parts: list[record.Record] = []  # the workers' records (xdist controller)
        self.fixtures: dict[int, _FixtureWatch] = {}
        self.error: str | None = None
        self.written: record.Record | None = None
        self._own: dict[tuple[str, ...], list[Any]] = {}
        self._patches_before: set[int] = set()
        self._environ_at_start: EnvironSnapshot | None = None
        self._writes: dict[tuple[str, int], list[int]] = {}
        self._origin: dict[tuple[str, ...], tuple[Any, Any]] = {}  # state key -> (first value seen, its elements)
        self._relative: dict[str, str] = {}
        self._test_modules: dict[str, bool] = {}

    # -- our own safety --------------------------------------------------------

    def _safely(self, step: Callable[..., Any], *args: Any) -> None:
        if self.error is not None:
            return
        try:
            step(*args)
        except Exception as exc:  # noqa: BLE001 - never into the suite
            self.error = f"{step.__name__}: {type(exc).__name__}: {exc}"
            self.observer.uninstall()

    def start(self) -> None:
        self._safely(self.observer.install)

    @pytest.hookimpl(trylast=True)
    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self.observer.uninstall()

    # -- places ----------------------------------------------------------------

    def relative(self, filename: str) -> str:
        shown = self._relative.get(filename)
        if shown is None:
            absolute = Path(os.path.realpath(filename))
            try:
                shown = absolute.relative_to(self.root).as_posix()
            except ValueError:
                shown = absolute.as_posix()
            self._relative[filename] = shown
        return shown

    def in_suite(self, filename: str) -> str | None:
        """``filename`` relative to the project root when it is the suite's
        own file (inside the project, not an installed library); else None."""
        shown = self.relative(filename)
        if shown.startswith("/") or shown.startswith("<") or "site-packages/" in shown or "dist-packages/" in shown:
            return None
        return shown

    def _test_place(self, item: pytest.Item) -> tuple[str, str, int]:
        parts = item.nodeid.split("::")[1:]
        scope = ".".join(part.split("[", 1)[0] for part in parts)
        line = 0
        function = getattr(item, "function", None)
        code = getattr(inspect.unwrap(function), "__code__", None) if function is not None else None
        if code is not None:
            line = code.co_firstlineno
        elif item.location[1] is not None:
            line = item.location[1] + 1
        return self.relative(str(item.path)), scope, line

    def _fixture_place(self, fixturedef: Any, request: Any) -> tuple[str, str, int]:
        function = inspect.unwrap(fixturedef.func)
        code = getattr(function, "__code__", None)
        filename = code.co_filename.replace("\\", "/") if code is not None else ""
        if code is not None and "/_pytest/" not in filename:
            return self.relative(code.co_filename), str(getattr(function, "__qualname__", fixturedef.argname)), code.co_firstlineno
        node = request.node  # pytest's own fixture for setUpClass, setup_class, setup_module
        parts = node.nodeid.split("::")[1:]
        method = next((m for m in ("setUpClass", "setup_class", "setUpModule", "setup_module") if m in fixturedef.argname), "")
        scope = ".".join([*parts, method] if method else parts)
        return self.relative(str(node.path)), scope, 0

    # -- the run -----------------------------------------------------------------

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
        self._safely(self._begin, item)
        try:
            return (yield)
        finally:
            self._safely(self._end, item)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Iterator[None]:
        self.observer.phase = "setup"
        return (yield)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Iterator[None]:
        self.observer.phase = "call"
        return (yield)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
        self.observer.phase = "teardown"
        return (yield)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.failed:
            outcome = "failed"
        elif report.skipped:
            outcome = "skipped"
        elif report.when == "call":
            outcome = "passed"
        else:
            return
        if self.outcomes.get(report.nodeid) != "failed":
            self.outcomes[report.nodeid] = outcome

    def _begin(self, item: pytest.Item) -> None:
        self.observer.refresh()
        if self.watched is None:
            self.watched = Watched(self._is_own_module)
        # Between two tests only pytest runs: the state after one test's teardown
        # is the state before the next one's setup, and is not compared again.
        for identity, blamed in list(self.open.items()):
            if blamed.state == "patch" and blamed.value not in self.observer.active:
                self._end_pollution(self.open.pop(identity))
        for blamed in self.open.values():
            blamed.later += 1
        self.observer.test = item.nodeid
        self.observer.environ_writes = {}
        self._own = {}
        self._patches_before = set(self.observer.active)
        self._environ_at_start = self.watched.environ_snapshot()
        self.files.add(str(item.path))

    def _end(self, item: pytest.Item) -> None:
        watched = self.watched
        assert watched is not None
        self._segment()
        place = self._test_place(item)
        leaked = [
            (identity, active) for identity, active in self.observer.active.items()
            if identity not in self._patches_before and active.entered_during == item.nodeid
        ]
        covered = [active.covers for _, active in leaked]
        left = [f"patch {active.description}" for _, active in leaked]
        for identity, active in leaked:
            where = f" (made at {self.relative(active.site.filename)}:{active.site.line})" if active.site else ""
            self._blame(item.nodeid, place, "patch", active.description + where, "not in place", "still in place",
                        ("patch", str(identity)), identity)
        for key, (before, after, change) in self._own.items():
            if _same(before, after) or not _same(watched.current(key), after) or self._undoes(change, before, after):
                continue
            left.append(f"{change.state} {change.name}")
            if any(key[: len(prefix)] == prefix for prefix in covered) or not self._worth_blaming(
                    change, before, after, lambda key: self._own[key][0] if key in self._own else _NOTHING):
                continue
            self._blame(item.nodeid, place, change.state, change.name, *self._shown(change.state, before, after),
                        key, after)
        self._environ_writes()
        self.tests.append(record.RanTest(item.nodeid, place[0], place[1], place[2],
                                         self.outcomes.get(item.nodeid, "skipped"), self.process, left[:20]))
        self.observer.test = None
        self.observer.phase = None

    def _environ_writes(self) -> None:
        """Count, per write site, the runs whose keys were back to their values
        from before the test when its teardown ended."""
        start = self._environ_at_start
        for (filename, line), keys in self.observer.environ_writes.items():
            restored = start is not None and all(_same(os.environ.get(key, MISSING), start.get(key)) for key in keys)
            stats = self._writes.setdefault((self.relative(filename), line), [0, 0])
            stats[0] += 1
            stats[1] += int(restored)

    def _segment(self) -> None:
        """What changed since the last look belongs to the running test."""
        assert self.watched is not None
        changes = self.watched.diff()
        self._close(changes)
        for change in changes:
            own = self._own.get(change.key)
            if own is None:
                self._own[change.key] = [change.before, change.after, change]
            else:
                own[1] = change.after

    def _close(self, changes: list[Change]) -> None:
        """Note where each changed state started, and end the pollutions the changes undo."""
        for change in changes:
            if change.key not in self._origin:
                self._origin[change.key] = (_Kept(change.before), change.before_signature)
            blamed = self.open.pop(change.key, None)
            if blamed is not None:
                self._end_pollution(blamed)

    @staticmethod
    def _end_pollution(blamed: _Blamed) -> None:
        blamed.open = False
        blamed.value = None  # what it left is gone: hold no reference to it

    def _blame(self, polluter: str, place: tuple[str, str, int], state: str, name: str, before: str, after: str,
               key: tuple[str, ...], value: Any) -> None:
        blamed = _Blamed(polluter, place, state, name, before, after, key, value)
        self.blamed.append(blamed)
        previous = self.open.pop(key, None)
        if previous is not None:
            self._end_pollution(previous)
        self.open[key] = blamed

    # -- what is worth blaming -----------------------------------------------

    def _is_own_module(self, name: str) -> bool:
        return in_packages(name, self.first_party) and not name.startswith("mockpolicy.runtime")

    def _a_library_module(self, module: Any) -> bool:
        """Whether ``module`` was loaded from a file outside the suite (an
        installed library, the standard library, the program running pytest),
        or built into Python: a module a test makes, or loads from the suite's files, is not."""
        if getattr(vars(module).get("__spec__"), "origin", None) in ("built-in", "frozen"):
            return True  # eventlet's __original_module__thread: _thread itself
        filename = vars(module).get("__file__")
        return isinstance(filename, str) and os.path.isfile(filename) and self.in_suite(filename) is None

    def _own_module(self, module: Any) -> bool:
        """Whether ``module`` is a module of the project's own packages."""
        name = getattr(vars(module).get("__spec__"), "name", None)
        return isinstance(name, str) and self._is_own_module(name)

    def _not_made_by_tests(self, value: object) -> bool:
        return not self._made_by_tests(value)

    def _made_by_tests(self, value: object) -> bool:
        """A mock, or a function, class or object of the suite's own test code."""
        if is_mock(value):
            return True
        module, _, what = defined_by(value)
        if module is None or what in ("module", "value") or in_packages(module, self.first_party):
            return False
        known = self._test_modules.get(module)
        if known is None:
            loaded = sys.modules.get(module)
            filename = vars(loaded).get("__file__") if is_a(loaded, types.ModuleType) else None
            known = isinstance(filename, str) and self.in_suite(filename) is not None
            self._test_modules[module] = known
        return known

    def _undoes(self, change: Change, before: Any, after: Any) -> bool:
        """Whether a change puts state back: where the session first found it
        (undoing an earlier change), or a copy of it (the same elements), or
        the same function or class defined again by a module imported again."""
        kept, origin_signature = self._origin.get(change.key, (_Kept(before), change.before_signature))
        origin, harmless = kept.value(), self._not_made_by_tests
        return kept.holds(after) or equivalent(origin, after, origin_signature, harmless) or (
            change.state not in ("environ", "cwd") and equivalent(before, after, change.before_signature, harmless))

    def _worth_blaming(
        self, change: Change, before: Any, after: Any, before_of: Callable[[tuple[str, ...]], Any],
    ) -> bool:
        """Whether a change left by a test (one that does not put state back)
        is pollution rather than the code's own lazy set-up: a module imported
        for the first time, with the entries it adds under its own name as it
        is (``before_of(key)``: what the same test or fixture found at ``key``,
        ``_NOTHING`` when it did not change it), a submodule bound on its
        package, a value filled in where there was none."""
        if change.state in ("environ", "cwd"):
            return True
        if change.state == "sys.modules":
            if is_a(after, types.ModuleType) and _imported(after, change.key[1]):
                # A module imported for the first time, or another file imported under
                # the same name (a plugin of a temporary project): not the same module twice.
                return _same_file_again(before, after)
            if before is MISSING and is_a(after, types.ModuleType) and (
                    self._a_library_module(after) or (_first_imported(after, before_of) and self._own_module(after))):
                # a library's module under a name of its making (gevent.queue installing
                # gevent._gevent_cqueue in its place, kombu's module object remade on import,
                # eventlet's __patched_module_socket, multiprocessing's __mp_main__), or the
                # project's own module doing so as it is first imported; a module of the tests
                # put under another name is a stand-in
                return False
            return not (before is MISSING and _added_by_a_first_import(change.key[1], before_of))
        name = change.key[-1]
        if before is MISSING and name.startswith("__") and name.endswith("__"):
            return False
        if is_a(after, types.ModuleType) and (before is MISSING or is_a(before, types.ModuleType)):
            return False
        if self._made_by_tests(after) or after is MISSING:
            return True
        return not (before is MISSING or before is None)

    @staticmethod
    def _shown(state: str, before: Any, after: Any) -> tuple[str, str]:
        if state == "environ":  # values of the environment are not recorded: they may be secrets
            def word(value: Any) -> str:
                return "unset" if value is MISSING else "set"
            if before is not MISSING and after is not MISSING:
                return "set", "set to another value"
            return word(before), word(after)
        if state == "sys.modules" and _same_file_again(before, after):
            return short(before), "a new import of the same file"
        return short(before), short(after)

    # -- fixtures wider than a function ---------------------------------------

    @pytest.hookimpl(wrapper=True)
    def pytest_fixture_setup(self, fixturedef: Any, request: Any) -> Iterator[Any]:
        wider = getattr(fixturedef, "scope", "function") != "function" and self.watched is not None \
            and self.observer.test is not None
        if wider:
            self._safely(self._segment)
            active_before = set(self.observer.active)
        try:
            return (yield)
        finally:
            if wider:
                self._safely(self._fixture_set_up, fixturedef, request, active_before)

    def _fixture_set_up(self, fixturedef: Any, request: Any, active_before: set[int]) -> None:
        assert self.watched is not None
        watch = _FixtureWatch(f"fixture {fixturedef.argname}", self._fixture_place(fixturedef, request), fixturedef.scope)
        self._fixture_changes(watch, self.watched.diff())
        for identity, active in self.observer.active.items():
            if identity not in active_before:
                active.entered_during = watch.name
                watch.patches.add(identity)
        self.fixtures[id(fixturedef)] = watch
        fixturedef.addfinalizer(lambda: self._safely(self._segment))  # runs first: before the fixture's teardown

    def _fixture_changes(self, watch: _FixtureWatch, changes: list[Change]) -> None:
        self._close(changes)
        for change in changes:
            watch.touched.setdefault(change.key, change.before)
            watch.names.setdefault(change.key, change)

    def pytest_fixture_post_finalizer(self, fixturedef: Any, request: Any) -> None:
        watch = self.fixtures.pop(id(fixturedef), None)
        if watch is not None:
            self._safely(self._fixture_torn_down, watch)

    def _fixture_torn_down(self, watch: _FixtureWatch) -> None:
        assert self.watched is not None
        self._fixture_changes(watch, self.watched.diff())
        if watch.scope == "session":
            return  # torn down after the last test: no test of this process runs with what it left
        for identity in watch.patches:
            active = self.observer.active.get(identity)
            if active is not None:
                self._blame(watch.name, watch.place, "patch", active.description, "not in place", "still in place",
                            ("patch", str(identity)), identity)
        for key, before in watch.touched.items():
            after = self.watched.current(key)
            change = watch.names[key]
            if not _same(before, after) and not self._undoes(change, before, after) \
                    and self._worth_blaming(change, before, after, lambda key: watch.touched.get(key, _NOTHING)):
                self._blame(watch.name, watch.place, change.state, change.name, *self._shown(change.state, before, after),
                            key, after)

    # -- the end ---------------------------------------------------------------

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.observer.uninstall()
        try:
            self._finish()
        except Exception as exc:  # noqa: BLE001 - never into the suite
            self.error = self.error or f"writing the record: {type(exc).__name__}: {exc}"

    def _finish(self) -> None:
        own = self._own_record()
        if self.is_worker:
            self.config.workeroutput[WORKER_OUTPUT_KEY] = record.dumps(own)  # type: ignore[attr-defined]
            return
        result = record.merged(self.parts) if self.parts else own  # under xdist, the workers' records
        record.write(self.out, result)
        self.written = result

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        output = getattr(node, "workeroutput", None) or {}
        text = output.get(WORKER_OUTPUT_KEY)
        if isinstance(text, str):
            try:
                self.parts.append(record.loads(text, f"the record of worker {output.get('workerid', '?')}"))
            except record.RecordError as exc:
                self.error = self.error or str(exc)

    def _own_record(self) -> record.Record:
        mocks, starts, files = [], [], set(self.files)
        for (filename, line, kind, api, target, module, qualname, what), stats in self.observer.mocks.items():
            shown = self.in_suite(filename)
            if shown is not None:
                mocks.append(record.MockUse(shown, line, kind, api, target, module, qualname, what, stats.called, stats.runs))
                files.add(filename)
        for (filename, line), started in self.observer.starts.items():
            shown = self.in_suite(filename)
            if shown is not None:
                starts.append(record.Start(shown, line, started.runs, started.stopped_safely))
        writes = [record.EnvironWrite(path, line, runs, restored)
                  for (path, line), (runs, restored) in self._writes.items() if self.in_suite(path) is not None]
        pollution = [record.Pollution(b.polluter, b.place[0], b.place[1], b.place[2], b.state, b.name, b.before, b.after,
                                      b.later, self.process) for b in self.blamed]
        out = record.Record(self.started, self.root.as_posix(), sorted(self.first_party), list(self.tests), pollution,
                            mocks, starts, writes, self._digests(files), [self.process])
        return record.merged([out])

    def _digests(self, filenames: set[str]) -> dict[str, str]:
        digests = {}
        for filename in filenames:
            shown = self.in_suite(filename)
            if shown is None:
                continue
            try:
                digests[shown] = hashlib.sha256(Path(filename).read_bytes()).hexdigest()
            except OSError:
                continue
        return digests

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        try:
            self._summary(terminalreporter)
        except Exception:  # noqa: BLE001 - a summary line is not worth a failure
            return

    def _summary(self, reporter: Any) -> None:
        if self.is_worker:
            return
        reporter.write_sep("-", "mockpolicy runtime record")
        if self.error is not None:
            reporter.write_line(f"mockpolicy: the record is incomplete: {self.error}")
        written = self.written
        if written is None:
            reporter.write_line(f"mockpolicy: no record was written to {self.out}")
            return
        shown = self.relative(str(self.out))
        reporter.write_line(
            f"mockpolicy: {len(written.tests)} test(s), {len(written.mocks)} mock site(s), "
            f"{len(written.pollution)} pollution(s) recorded in {shown}"
        )
        for item in sorted(written.pollution, key=lambda p: -p.later)[:SHOWN_IN_SUMMARY]:
            reporter.write_line(
                f"  {item.polluter} left {record.left_behind(item)}; {item.later} later test(s) in {item.process} ran with it"
            )
        if len(written.pollution) > SHOWN_IN_SUMMARY:
            reporter.write_line(f"  ... and {len(written.pollution) - SHOWN_IN_SUMMARY} more in {shown}")


def _added_by_a_first_import(name: str, before_of: Callable[[tuple[str, ...]], Any]) -> bool:
    """Whether a module whose name ``name`` extends was imported for the first
    time by the same test (``before_of`` its entry was missing): a module may
    add entries under its own name as it is imported (zipp's
    ``sys.modules[__name__ + ".zipfile"] = ...``)."""
    parent = name
    while "." in parent:
        parent = parent.rpartition(".")[0]
        module = sys.modules.get(parent)
        if is_a(module, types.ModuleType) and _imported(module, parent) and before_of(("sys.modules", parent)) is MISSING:
            return True
    return False


def _first_imported(module: Any, before_of: Callable[[tuple[str, ...]], Any]) -> bool:
    """Whether ``module`` was imported under its own name for the first time
    by the same test (``before_of`` its own entry was missing)."""
    name = getattr(vars(module).get("__spec__"), "name", None)
    return isinstance(name, str) and sys.modules.get(name) is module and before_of(("sys.modules", name)) is MISSING


def _imported(module: Any, name: str) -> bool:
    """Whether ``module`` was made by an import of ``name`` (not by hand)."""
    spec = vars(module).get("__spec__")
    return getattr(spec, "name", None) == name


class _Kept:
    """A value remembered for the whole session without keeping it alive: plain
    values themselves, others by weak reference (None once gone, or when they
    take none: then only their elements, in a signature, are compared)."""

    __slots__ = ("_plain", "_ref")

    def __init__(self, value: Any) -> None:
        self._plain, self._ref = _NOTHING, None
        if value is MISSING or value is None or type(value) in (str, bytes, int, float, bool):
            self._plain = value
        else:
            try:
                self._ref = weakref.ref(value)
            except TypeError:
                pass

    def value(self) -> Any:
        if self._plain is not _NOTHING:
            return self._plain
        return self._ref() if self._ref is not None else _NOTHING

    def holds(self, other: Any) -> bool:
        value = self.value()
        return value is not _NOTHING and _same(value, other)


_NOTHING: Any = object()


def _same(one: Any, other: Any) -> bool:
    """Identity, or equality of text (environment values are rebuilt on each read)."""
    return one is other or (is_a(one, str) and is_a(other, str) and one == other)


def _same_file_again(before: Any, after: Any) -> bool:
    """Whether ``after`` is a module made again from the file of the module ``before``."""
    return is_a(before, types.ModuleType) and is_a(after, types.ModuleType) and before is not after and \
        vars(before).get("__file__") == vars(after).get("__file__")
