"""Merging a runtime record into the static findings (``--runtime PATH``).

- ``test-pollution``: one finding per test (or fixture) that left state
  behind, on its ``def`` line, saying what and how many later tests ran with it.
- ``first-party-mock`` "(seen at run time)": a mock the run saw replace (or
  stand in for) the project's own code where static resolution found nothing
  first-party; a declared boundary and an inert spec'd collaborator stay
  allowed, as they are statically.
- Dropped: ``leaked-patcher`` when every run of that ``start()`` was stopped
  by code that runs even when the test fails; ``unrestored-environ-mutation``
  when every run of that write ended with the variable put back;
  ``unrestored-sys-modules-mutation`` and ``unrestored-attribute-assignment``
  when the test ran, passed, and left nothing of that kind changed;
  ``undocumented-partial-mock`` when the mock was never called. Never dropped:
  a change the test takes back only if it passes.

A record is refused when a file it describes changed since (it is older than
the tests), or when it cannot be read: one sentence, exit status 2.
"""

from __future__ import annotations

import ast
import functools
import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from mockpolicy.analysis import Analysis
from mockpolicy.checks.first_party import is_inert
from mockpolicy.checks.hygiene import ONLY_IF_IT_PASSES
from mockpolicy.engine import Session
from mockpolicy.findings import Finding
from mockpolicy.project import Project
from mockpolicy.rules import (
    FIRST_PARTY_MOCK,
    LEAKED_PATCHER,
    MULTIPLE_BOUNDARY_MOCKS,
    TEST_POLLUTION,
    UNDOCUMENTED_PARTIAL_MOCK,
    UNRESTORED_ATTRIBUTE,
    UNRESTORED_ENVIRON,
    UNRESTORED_SYS_MODULES,
)
from mockpolicy.runtime import record
from mockpolicy.runtime.record import MockUse, Pollution, Record, RecordError
from mockpolicy.source import SourceError, decode_source, read_source
from mockpolicy.symbols import Kind
from mockpolicy.vocabulary import SETUP_NAMES

# Kinds of mock that replace or stand in for an object (patch.dict and
# monkeypatch.setitem only for sys.modules entries; a spy runs the real code).
_REPLACING = frozenset({"patch", "patch.object", "patch.multiple", "mock", "autospec", "setattr", "delattr"})
_ENTRY_REPLACING = frozenset({"patch.dict", "setitem"})
_JUDGED_FIRST_PARTY = frozenset({FIRST_PARTY_MOCK.symbol, MULTIPLE_BOUNDARY_MOCKS.symbol})


def merge(project: Project, files: Sequence[Path], findings: Sequence[Finding], path: Path) -> list[Finding]:
    """``findings`` (paths relative to the project root) with the record at
    ``path`` merged; raises ``RecordError`` for an unreadable or stale record."""
    run = record.load(path)
    refuse_stale(project, run, str(path))
    analysed = {project.relative(file): file for file in files}
    evidence = _Evidence(run)
    cleared = [finding for finding in findings if evidence.clears(finding)]
    # The run watches attributes of the project's own modules and classes only.
    unseen = {id(f) for f in _outside_the_project(project, analysed, cleared)}
    kept = [finding for finding in findings if id(finding) in unseen or not evidence.clears(finding)]
    added = [*pollution_findings(project, run.pollution, analysed),
             *runtime_first_party(project, run.mocks, analysed, kept)]
    return sorted([*kept, *added])


def refuse_stale(project: Project, run: Record, shown: str) -> None:
    """Raise ``RecordError`` when a file the record describes changed since it was made."""
    for relative, digest in sorted(run.files.items()):
        try:
            current = hashlib.sha256((project.root / relative).read_bytes()).hexdigest()
        except OSError:
            current = None
        if current != digest:
            raise RecordError(
                f"{shown} is older than {relative}, which changed after the record was made; "
                "record it again with `pytest --mockpolicy-record`."
            )


# -- findings the record clears ------------------------------------------------

@dataclass(frozen=True)
class _Test:
    passed: bool
    left: frozenset[str]  # names of state the test (or its fixtures) left changed


class _Evidence:
    """What the record says about sites and tests, by place."""

    def __init__(self, run: Record) -> None:
        self.starts = _by_line((start.path, start.line, start) for start in run.starts)
        self.writes = _by_line((write.path, write.line, write) for write in run.environ_writes)
        self.mocks = _by_line((mock.path, mock.line, mock) for mock in run.mocks)
        left: dict[tuple[str, str], set[str]] = {}
        for pollution in run.pollution:
            left.setdefault((pollution.path, pollution.scope), set()).add(f"{pollution.state} {pollution.name}")
        self.tests: dict[tuple[str, str], list[_Test]] = {}
        for test in run.tests:
            names = left.get((test.path, test.scope), set()) | set(test.left)
            self.tests.setdefault((test.path, test.scope), []).append(_Test(test.outcome == "passed", frozenset(names)))

    def clears(self, finding: Finding) -> bool:
        """Whether the record shows ``finding``'s concern did not happen. A
        change taken back only when the test passes is never cleared: a run
        that passed shows nothing of what a failure leaves."""
        symbol, lines = finding.symbol, range(finding.line, (finding.end_line or finding.line) + 1)
        if ONLY_IF_IT_PASSES in finding.message:
            return False
        if symbol == LEAKED_PATCHER.symbol:
            starts = _at(self.starts, finding.path, lines)
            return bool(starts) and all(start.runs and start.stopped_safely == start.runs for start in starts)
        if symbol == UNRESTORED_ENVIRON.symbol:
            writes = _at(self.writes, finding.path, lines)
            return bool(writes) and all(write.runs and write.restored == write.runs for write in writes)
        if symbol == UNDOCUMENTED_PARTIAL_MOCK.symbol:
            mocks = _at(self.mocks, finding.path, lines)
            return bool(mocks) and all(mock.called is False for mock in mocks)
        if symbol == UNRESTORED_SYS_MODULES.symbol:
            return self._ran_clean(finding, "sys.modules ")
        if symbol == UNRESTORED_ATTRIBUTE.symbol:
            attribute = _assigned_attribute(finding.statement)
            return attribute is not None and self._ran_clean(finding, "attribute ", "." + attribute)
        return False

    def _ran_clean(self, finding: Finding, state: str, suffix: str = "") -> bool:
        """The finding's test (every test of its class, for a set-up method)
        ran, passed at least once, and never left that state changed."""
        scope = finding.scope
        owner, _, name = scope.rpartition(".")
        if name in SETUP_NAMES and owner:
            runs = [run for (path, test), found in self.tests.items()
                    if path == finding.path and test.startswith(owner + ".") for run in found]
        else:
            runs = self.tests.get((finding.path, scope), [])
        if not any(run.passed for run in runs):
            return False
        return not any(left.startswith(state) and left.endswith(suffix) for run in runs for left in run.left)


def _by_line(items: Iterable[tuple[str, int, object]]) -> dict[tuple[str, int], list[object]]:
    table: dict[tuple[str, int], list[object]] = {}
    for path, line, item in items:
        table.setdefault((path, line), []).append(item)
    return table


def _at(table: dict[tuple[str, int], list[object]], path: str, lines: range) -> list[Any]:
    return [item for line in lines for item in table.get((path, line), [])]


def _assigned_attribute(statement: str) -> str | None:
    """The attribute ``mod.x = ...`` assigns (``x``), read from the statement's text."""
    try:
        tree = ast.parse(statement.strip())
    except (SyntaxError, ValueError):
        return None
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            for target in targets:
                if isinstance(target, ast.Attribute):
                    return target.attr
    return None


def _outside_the_project(project: Project, analysed: dict[str, Path], cleared: Sequence[Finding]) -> list[Finding]:
    """The ``unrestored-attribute-assignment`` findings of ``cleared`` whose
    assigned object is not a module or class of the project (``builtins``, a
    library): the run did not watch them, so it cannot clear them."""
    wanted: dict[str, list[Finding]] = {}
    for finding in cleared:
        if finding.symbol == UNRESTORED_ATTRIBUTE.symbol and finding.path in analysed:
            wanted.setdefault(finding.path, []).append(finding)
    return _each_file(analysed, wanted, lambda analysis, found: [
        finding for finding in found if not _assigns_project_object(project, analysis, finding)
    ], unreadable=lambda found: found)


def _assigns_project_object(project: Project, analysis: Analysis, finding: Finding) -> bool:
    context = next((c for c in analysis.module.contexts if c.qualname == finding.scope), None)
    if context is None:
        return False
    for node in ast.walk(context.node):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.lineno == finding.line:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute):
                    value = analysis.resolver.evaluate(target.value, analysis.module.scope(context))
                    if value.kind in (Kind.MODULE, Kind.CLASS) and value.module and project.is_first_party(value.module):
                        return True
    return False


# -- test-pollution --------------------------------------------------------------

def pollution_findings(project: Project, pollution: Sequence[Pollution], analysed: dict[str, Path]) -> list[Finding]:
    """One ``test-pollution`` finding per polluting test or fixture of the analysed files."""
    grouped: dict[tuple[str, str], list[Pollution]] = {}
    for item in pollution:
        if item.path in analysed:
            grouped.setdefault((item.path, item.scope), []).append(item)
    findings = []
    for (path, scope), items in sorted(grouped.items()):
        source = _Source.read(analysed[path], project)
        line, column, statement = source.definition(scope) if source else (None, 0, "")
        what = "fixture" if items[0].polluter.startswith("fixture ") else "test"
        parts, seen = [], set()
        for item in sorted(items, key=lambda p: (-p.later, p.name)):
            text = record.left_behind(item)
            if text in seen:
                continue
            seen.add(text)
            parts.append(f"{text} ({item.later} later test{'s' if item.later != 1 else ''} ran with it)")
        shown = "; ".join(parts[:10]) + (f"; and {len(parts) - 10} more" if len(parts) > 10 else "")
        ending = "at its teardown" if what == "fixture" else "after its teardown"
        findings.append(Finding(
            path=path, line=line or max(items[0].line, 1), column=column, symbol=TEST_POLLUTION.symbol,
            message=f"This {what} left state behind {ending}, seen at run time: {shown}. Later tests in the same "
            "process see it, so they pass or fail by the order they run in; put it back where it was set "
            "(monkeypatch, a patch as a context manager or decorator, a fixture's teardown).",
            scope=scope, statement=statement,
        ))
    return findings


class _Source:
    """One file's syntax tree and lines, for finding definitions."""

    def __init__(self, tree: ast.Module, lines: list[str]) -> None:
        self.tree, self.lines = tree, lines

    @classmethod
    def read(cls, path: Path, project: Project) -> _Source | None:
        try:
            text = decode_source(read_source(path, project.max_file_bytes))
            return cls(ast.parse(text), text.splitlines())
        except (SourceError, SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError):
            return None

    def definition(self, scope: str) -> tuple[int | None, int, str]:
        """``(line, column, text of the def line)`` of the function or class
        ``scope`` names (dotted), or ``(None, 0, "")``."""
        body: list[ast.stmt] = self.tree.body
        found: ast.stmt | None = None
        for name in scope.split(".") if scope else []:
            found = next((n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                          and n.name == name), None)
            if found is None:
                return None, 0, ""
            body = found.body
        if found is None:
            return None, 0, ""
        text = self.lines[found.lineno - 1].strip() if found.lineno <= len(self.lines) else ""
        return found.lineno, found.col_offset, text


# -- first-party-mock (seen at run time) ---------------------------------------

def runtime_first_party(
    project: Project, mocks: Sequence[MockUse], analysed: dict[str, Path], findings: Sequence[Finding]
) -> list[Finding]:
    """``first-party-mock`` findings for mocks the run saw replace first-party
    code at sites where no finding judged it so."""
    judged: dict[str, list[range]] = {}
    for finding in findings:
        if finding.symbol in _JUDGED_FIRST_PARTY:
            judged.setdefault(finding.path, []).append(range(finding.line, (finding.end_line or finding.line) + 1))
    wanted: dict[str, dict[int, MockUse]] = {}
    for mock in mocks:
        if mock.path not in analysed or not _replaces_first_party(project, mock):
            continue
        if any(mock.line in span for span in judged.get(mock.path, [])):
            continue
        wanted.setdefault(mock.path, {}).setdefault(mock.line, mock)
    return _each_file(analysed, wanted, _judge_file, unreadable=lambda _by_line: [])


T = TypeVar("T")


def _judged(judge: Callable[[Analysis, T], list[Finding]], item: T, analysis: Analysis) -> list[Finding]:
    return judge(analysis, item)


def _each_file(
    analysed: dict[str, Path], wanted: dict[str, T], judge: Callable[[Analysis, T], list[Finding]],
    unreadable: Callable[[T], list[Finding]],
) -> list[Finding]:
    """``judge(analysis, wanted[path])`` for each file of ``wanted`` (relative
    paths), analysed by the engine; ``unreadable(...)`` for a file that cannot be."""
    session = Session()
    out: list[Finding] = []
    for path, item in sorted(wanted.items()):
        engine = session.engine_for(analysed[path])
        try:
            data = engine.read(analysed[path])
        except SourceError:
            out += unreadable(item)
            continue
        result, _ = engine.inspect(path, data, functools.partial(_judged, judge, item))
        out += unreadable(item) if result is None else result
    return out


def _replaces_first_party(project: Project, mock: MockUse) -> bool:
    if mock.kind not in _REPLACING and not (mock.kind in _ENTRY_REPLACING and mock.target.startswith("sys.modules[")):
        return False
    if mock.what in ("missing", "mock", "environ") or not mock.module:
        return False
    return project.is_code_under_test(mock.module)  # as the static rule judges: the tests' own fakes are not


def _judge_file(analysis: Analysis, by_line: dict[int, MockUse]) -> list[Finding]:
    out = []
    for line, mock in sorted(by_line.items()):
        site = next((s for s in analysis.module.sites if s.call.lineno <= line <= (s.call.end_lineno or s.call.lineno)), None)
        if site is not None:
            call = site.call
            if analysis.annotations.find("boundary", call.lineno, call.end_lineno or call.lineno) or is_inert(site):
                continue
            if mock.qualname and analysis.puts_back_real_code(site, f"{mock.module}.{mock.qualname}"):
                continue  # a hand-written spy, or the real object: no stand-in, as the static rule judges
            written = site.targets[0].text if len(site.targets) == 1 else mock.target  # as the test spells it
            finding = analysis.finding(call, FIRST_PARTY_MOCK.symbol, _message(mock, written), site.owner.qualname)
        else:
            if analysis.annotations.find("boundary", line, line):
                continue
            text = analysis.annotations.lines[line - 1] if line <= len(analysis.annotations.lines) else ""
            finding = Finding(analysis.path, line, len(text) - len(text.lstrip()), FIRST_PARTY_MOCK.symbol, _message(mock, mock.target),
                              scope=_scope_at(analysis, line), statement=text.strip())
        out.append(finding)
    return out


def _scope_at(analysis: Analysis, line: int) -> str:
    """The dotted name of the innermost function or class around ``line``."""
    best = ""
    for context in analysis.module.contexts:
        node = context.node
        if getattr(node, "lineno", 0) <= line <= (getattr(node, "end_lineno", 0) or 0):
            best = context.qualname if len(context.qualname) >= len(best) else best
    return best


def _message(mock: MockUse, written: str) -> str:
    replaced = f"{mock.module}.{mock.qualname}" if mock.qualname else str(mock.module)
    word = {"instance": "object of", "value": "value of"}.get(mock.what, mock.what)
    verb = "stands in for" if mock.kind in ("mock", "autospec") else "replaced"
    return (
        f"'{written}' {verb} the first-party {word} {replaced} (seen at run time): a mock of your own code "
        "tests a fiction that stays green when the real code breaks. Exercise the real code, or declare this "
        "test's one boundary mock with '# mock-boundary: <reason>'."
    )
