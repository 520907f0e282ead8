"""The pylint checker: runs the engine on each module and reports its findings.

It translates only; every rule lives in ``mockpolicy.checks``. It analyses the
bytes pylint analyses (an editor's unsaved buffer under ``--from-stdin``, not
the file on disk), so lines and ``# pylint: disable`` comments line up with
pylint's own. Findings the project's baseline allows are dropped as
``mockpolicy check`` drops them (stale entries are ``mockpolicy check``'s to
report: pylint sees one module at a time).

Lifetimes: everything the engine learns lives in the ``Session`` made by
``open()`` and is dropped by ``close()``, once per lint run; what it learns of
the modules it reads from disk (never of the module pylint hands it) is kept
in the project's cache as ``mockpolicy check`` keeps it. The checker never
raises and never touches the host's global state: a broken configuration or
baseline, or an internal error, becomes a ``mock-analysis-error`` message on
the module, and the lint run goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pylint.checkers import BaseChecker
from pylint.checkers.utils import only_required_for_messages
from pylint.constants import WarningScope
from pylint.interfaces import HIGH, INFERENCE

from mockpolicy import baseline, matching
from mockpolicy.cache import summary_store
from mockpolicy.engine import Engine, Session, analysis_error
from mockpolicy.errors import MockpolicyError
from mockpolicy.findings import Finding
from mockpolicy.rules import ALL_RULES, COVERAGE_RULES, INFERRED_RULES, RUNTIME_RULES

if TYPE_CHECKING:
    from astroid import nodes
    from pylint.lint import PyLinter

# Every rule is known to pylint (`pylint --help-msg=W7316` works, and pylint's
# enable/disable accept every name), but coverage-based rules need a test run's
# data, runtime rules a runtime record and baseline-grew a change: only
# `mockpolicy branches`, `check --runtime` and `review` report them.
STATIC_RULES = tuple(rule for rule in ALL_RULES if rule.symbol not in COVERAGE_RULES | RUNTIME_RULES)
SYMBOLS = tuple(rule.symbol for rule in STATIC_RULES)


class MockPolicyChecker(BaseChecker):
    """Checks mocks against the project's mock policy."""

    name = "mockpolicy"
    msgs = {
        rule.msgid: ("%s", rule.symbol, rule.summary, {"scope": WarningScope.LINE})
        for rule in ALL_RULES
    }

    def __init__(self, linter: PyLinter) -> None:
        super().__init__(linter)
        self._session: Session | None = None
        self._baselines: dict[Path, baseline.Baseline | MockpolicyError] = {}

    def open(self) -> None:
        # pylint's memory is the user's: keep our share small (function bodies
        # parsed when read), and the module summaries in the project's cache,
        # with the callers found of partially mocked functions (kept with the
        # facts of what their search read: ``track``)
        self._session = Session(lean=True, track=True, store_for=summary_store)
        self._baselines = {}

    def close(self) -> None:
        self._session = None
        self._baselines = {}

    @only_required_for_messages(*SYMBOLS)
    def visit_module(self, node: nodes.Module) -> None:
        path = node.file
        if not path or not path.endswith(".py"):
            return
        try:
            findings = self._analyse(node, path)
        except Exception as exc:  # noqa: BLE001 - a plugin crash would end the user's whole run
            findings = [analysis_error(path, f"internal error while analysing {path}: {type(exc).__name__}: {exc}")]
        for finding in findings:
            self._report(finding)

    def _analyse(self, node: nodes.Module, path: str) -> list[Finding]:
        if self._session is None:  # visited outside a run (a harness that skips open())
            self.open()
        session = self._session
        assert session is not None
        try:
            engine = session.engine_for(path)
            project = engine.project
            if project.is_excluded(Path(path)):  # [tool.mockpolicy] exclude, as `mockpolicy check` honours it
                return []
            data = node.file_bytes if node.file_bytes is not None else engine.read(path)
        except MockpolicyError as exc:
            return [analysis_error(path, str(exc))]
        if isinstance(data, str):
            data = data.encode("utf-8")
        relative = project.relative(path)
        wanted = self._wanted(data, lambda symbol: project.selection.allows(symbol, relative))
        findings = [f for f in engine.analyse_source(path, data, wanted) if project.selection.allows(f.symbol, relative)]
        allowed = self._baseline(engine)
        if isinstance(allowed, MockpolicyError):
            return [*findings, analysis_error(path, f"{allowed} Nothing is filtered until it is fixed.")]
        return matching.not_allowed(allowed, findings, engine.project.relative)

    def _wanted(self, data: bytes, selected: Callable[[str], bool]) -> frozenset[str]:
        """The rules this module may report: enabled in pylint and selected by the
        project; a rule a comment in the module names (``# pylint: enable=...``)
        counts, so no family is skipped that the module's own pragmas want."""
        return frozenset(
            rule.symbol for rule in STATIC_RULES
            if selected(rule.symbol) and (
                self.linter.is_message_enabled(rule.msgid)
                or rule.symbol.encode() in data or rule.msgid.encode() in data
            )
        )

    def _baseline(self, engine: Engine) -> baseline.Baseline | MockpolicyError:
        """The project's baseline, read once per run (or the error reading it)."""
        root = engine.project.root
        if root not in self._baselines:
            try:
                self._baselines[root] = baseline.load_or_empty(engine.project.baseline_path)
            except MockpolicyError as exc:
                self._baselines[root] = exc
        return self._baselines[root]

    def _report(self, finding: Finding) -> None:
        self.add_message(
            finding.symbol,
            line=finding.line,
            col_offset=finding.column,
            end_lineno=finding.end_line,
            end_col_offset=finding.end_column,
            args=(finding.message,),
            confidence=INFERENCE if finding.symbol in INFERRED_RULES else HIGH,
        )
