"""The runtime record: the one place that knows its JSON format.

A record is what ``pytest --mockpolicy-record`` saw while a suite ran: the
tests that ran, the state each left behind (``pollution``), every mock made
(``mocks``), every patcher started (``starts``) and every ``os.environ`` write
(``environ_writes``), and a digest of each test file it describes, so that a
record older than the files is refused. Paths are POSIX, relative to the
project root (absolute when outside it). Under pytest-xdist each worker makes
a record of its own and the controller merges them (``merged``).

This module imports only the standard library and ``mockpolicy.errors``: the
pytest plugin loads it inside the user's test process.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from mockpolicy.errors import MockpolicyError

FORMAT = "mockpolicy-runtime"
# 1: the first version (tests, pollution, mocks, starts, environ_writes, files).
VERSION = 1

STATES = ("patch", "environ", "sys.modules", "attribute", "cwd")
"""What a pollution changed: a patch still started, an ``os.environ`` entry, a
``sys.modules`` entry, an attribute of a first-party module or class, the
working directory."""


class RecordError(MockpolicyError):
    """A record cannot be read; the message is one sentence naming the file."""


@dataclass(frozen=True)
class RanTest:
    """One test that ran: pytest's node id, its file, the dotted name of its
    function within the file (``Class.test_name``), the line of its ``def``,
    its outcome (``passed``, ``failed``, ``skipped``), the process, and the
    state it left changed (``STATE NAME``: blamed or not, see ``Pollution``)."""

    nodeid: str
    path: str
    scope: str
    line: int
    outcome: str
    process: str
    left: list[str]


@dataclass(frozen=True)
class Pollution:
    """State a test (or a fixture) left changed after its teardown.

    ``polluter`` is the test's node id, or ``fixture NAME`` for a fixture that
    did not restore what it set; ``path``/``scope``/``line`` place its ``def``.
    ``state`` is one of ``STATES``, ``name`` what was changed
    (``os.environ['HOME']``, ``app.jobs.RETRIES``), ``before``/``after`` short
    descriptions, ``later`` how many later tests ran with the change in the
    same ``process``.
    """

    polluter: str
    path: str
    scope: str
    line: int
    state: str
    name: str
    before: str
    after: str
    later: int
    process: str


def left_behind(pollution: Pollution) -> str:
    """What ``pollution`` left, in a few words: ``os.environ['X'] set (was unset)``."""
    if pollution.state == "patch":
        return f"{pollution.name} still in place"
    if pollution.state == "environ":
        return f"{pollution.name} {pollution.after} (was {pollution.before})"
    return f"{pollution.name} changed from {pollution.before} to {pollution.after}"


@dataclass(frozen=True)
class MockUse:
    """A mock made at ``path:line`` (the first frame in the suite's code).

    ``kind`` is the vocabulary's site kind (``patch``, ``patch.object``,
    ``patch.multiple``, ``patch.dict``, ``mock``, ``autospec``, ``setattr``,
    ``delattr``, ``setitem``, ``delitem``, ``setenv``, ``delenv``) or ``spy``;
    ``api`` is ``unittest``, ``mocker`` or ``monkeypatch``. ``target`` is what
    the call named; ``module``/``qualname`` define the object replaced (or
    specced), ``what`` its sort (``function``, ``class``, ``module``,
    ``instance``, ``value``, ``missing``, ``mock``). ``called``: whether the mock
    (or any of its children) was called in any run, None when the replacement
    is not a mock. ``runs``: how many times the site ran.
    """

    path: str
    line: int
    kind: str
    api: str
    target: str
    module: str | None
    qualname: str | None
    what: str
    called: bool | None
    runs: int


@dataclass(frozen=True)
class Start:
    """A ``patcher.start()`` call at ``path:line``: how many times it ran, and
    how many of those the patcher was stopped by code that runs even when the
    test fails (a fixture's teardown, ``tearDown``, a cleanup)."""

    path: str
    line: int
    runs: int
    stopped_safely: int


@dataclass(frozen=True)
class EnvironWrite:
    """A write to ``os.environ`` at ``path:line`` during a test: how many times
    it ran, and how many of those the entry was back to its value from before
    the test when the test's teardown ended."""

    path: str
    line: int
    runs: int
    restored: int


@dataclass
class Record:
    """One run's record (or the merge of several processes' records)."""

    started: float  # the session's start, seconds since the epoch
    root: str
    first_party: list[str]
    tests: list[RanTest] = field(default_factory=list)
    pollution: list[Pollution] = field(default_factory=list)
    mocks: list[MockUse] = field(default_factory=list)
    starts: list[Start] = field(default_factory=list)
    environ_writes: list[EnvironWrite] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)  # path -> sha256 of the bytes the run saw
    processes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        return {"format": FORMAT, "version": VERSION, **data}


def merged(records: list[Record]) -> Record:
    """One record of several processes' records of the same session: tests
    and pollution side by side, mocks, starts and writes of one site added up."""
    if not records:
        raise ValueError("no record to merge")
    first = records[0]
    out = Record(min(r.started for r in records), first.root, first.first_party)
    mocks: dict[tuple[Any, ...], MockUse] = {}
    starts: dict[tuple[str, int], Start] = {}
    writes: dict[tuple[str, int], EnvironWrite] = {}
    for record in records:
        out.tests += record.tests
        out.pollution += record.pollution
        out.files.update(record.files)
        out.processes += record.processes
        for mock in record.mocks:
            key = mock_key(mock)
            known = mocks.get(key)
            mocks[key] = mock if known is None else _add_mock(known, mock)
        for start in record.starts:
            had = starts.get((start.path, start.line))
            starts[(start.path, start.line)] = start if had is None else Start(
                start.path, start.line, had.runs + start.runs, had.stopped_safely + start.stopped_safely)
        for write in record.environ_writes:
            seen = writes.get((write.path, write.line))
            writes[(write.path, write.line)] = write if seen is None else EnvironWrite(
                write.path, write.line, seen.runs + write.runs, seen.restored + write.restored)
    out.mocks = sorted(mocks.values(), key=mock_key)
    out.starts = sorted(starts.values(), key=lambda s: (s.path, s.line))
    out.environ_writes = sorted(writes.values(), key=lambda w: (w.path, w.line))
    return out


def mock_key(mock: MockUse) -> tuple[str, int, str, str, str, str, str]:
    """What makes two mock uses the same: site, kind, target and what it replaced."""
    return (mock.path, mock.line, mock.kind, mock.target, mock.module or "", mock.qualname or "", mock.what)


def _add_mock(one: MockUse, other: MockUse) -> MockUse:
    called = None if one.called is None and other.called is None else bool(one.called) or bool(other.called)
    return MockUse(one.path, one.line, one.kind, one.api, one.target, one.module, one.qualname, one.what,
                   called, one.runs + other.runs)


def dumps(record: Record) -> str:
    return json.dumps(record.to_json(), indent=1, sort_keys=True)


def write(path: Path, record: Record) -> None:
    """Write ``record`` to ``path`` atomically (a reader sees the old file or the new)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(dumps(record))
            handle.write("\n")
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def loads(text: str, shown: str) -> Record:
    """The record in ``text`` (read from ``shown``); raises ``RecordError``."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise RecordError(f"{shown} is not a mockpolicy runtime record (not valid JSON).") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{shown} is not a mockpolicy runtime record (record one with `pytest --mockpolicy-record`).")
    version = data.get("version")
    if version != VERSION:
        raise RecordError(
            f"{shown} is a version {version!r} runtime record and this mockpolicy reads version {VERSION}; "
            "record it again with this mockpolicy's `pytest --mockpolicy-record`."
        )
    try:
        return Record(
            started=float(data["started"]),
            root=str(data["root"]),
            first_party=[str(name) for name in data["first_party"]],
            tests=[_build(RanTest, item) for item in data["tests"]],
            pollution=[_build(Pollution, item) for item in data["pollution"]],
            mocks=[_build(MockUse, item) for item in data["mocks"]],
            starts=[_build(Start, item) for item in data["starts"]],
            environ_writes=[_build(EnvironWrite, item) for item in data["environ_writes"]],
            files={str(k): str(v) for k, v in data["files"].items()},
            processes=[str(p) for p in data["processes"]],
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        raise RecordError(f"{shown} is a damaged mockpolicy runtime record (a field is missing or of the wrong type).") from None


_TYPES: dict[str, tuple[type, ...]] = {
    "str": (str,), "int": (int,), "bool": (bool,), "str | None": (str, type(None)),
    "bool | None": (bool, type(None)), "list[str]": (list,),
}


def _build(cls: Any, item: Any) -> Any:
    """An instance of the dataclass ``cls`` from the JSON object ``item``, each
    field of the declared type; raises ``TypeError`` otherwise."""
    if not isinstance(item, dict):
        raise TypeError(cls.__name__)
    values = {}
    for spec in fields(cls):
        value = item[spec.name]
        allowed = _TYPES[str(spec.type)]
        if not isinstance(value, allowed) or (isinstance(value, bool) and bool not in allowed):
            raise TypeError(spec.name)
        if isinstance(value, list) and not all(isinstance(element, str) for element in value):
            raise TypeError(spec.name)
        values[spec.name] = value
    return cls(**values)


def load(path: Path) -> Record:
    """The record at ``path``; raises ``RecordError``."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{path} does not exist; record one with `pytest --mockpolicy-record`.") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path} cannot be read ({getattr(exc, 'strerror', None) or exc}).") from None
    return loads(text, str(path))
