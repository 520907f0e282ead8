"""The pylint checker: runs the engine on each module and reports its findings.

It translates only; every rule lives in ``mockpolicy.checks``, and findings the
project's baseline allows are dropped as ``mockpolicy check`` drops them (stale
entries are ``mockpolicy check``'s to report: pylint sees one module at a time).
The checker never raises: a broken configuration or baseline, or an internal
error, becomes a ``mock-analysis-error`` message on the module, and the lint
run goes on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pylint.checkers import BaseChecker
from pylint.checkers.utils import only_required_for_messages
from pylint.constants import WarningScope

from mockpolicy.baseline import BaselineError
from mockpolicy.engine import engine_for
from mockpolicy.findings import Finding
from mockpolicy.project import ConfigError
from mockpolicy.rules import ALL_RULES, ANALYSIS_ERROR, COVERAGE_RULES

if TYPE_CHECKING:
    from astroid import nodes

# Coverage-based rules need a test run's data: only `mockpolicy branches` reports them.
STATIC_RULES = tuple(rule for rule in ALL_RULES if rule.symbol not in COVERAGE_RULES)
SYMBOLS = tuple(rule.symbol for rule in STATIC_RULES)


class MockPolicyChecker(BaseChecker):
    """Checks mocks against the project's mock policy."""

    name = "mockpolicy"
    msgs = {
        rule.msgid: ("%s", rule.symbol, rule.summary, {"scope": WarningScope.LINE})
        for rule in STATIC_RULES
    }

    @only_required_for_messages(*SYMBOLS)
    def visit_module(self, node: nodes.Module) -> None:
        path = node.file
        if not path or not path.endswith(".py"):
            return
        try:
            engine = engine_for(path)
            findings = engine.analyse_file(path)
        except ConfigError as exc:
            self._report_error(str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - a plugin crash would end the user's whole run
            self._report_error(f"internal error while analysing {path}: {type(exc).__name__}: {exc}")
            return
        try:
            findings = engine.not_baselined(findings)
        except BaselineError as exc:
            self._report_error(f"{exc} Nothing is filtered until it is fixed.")
        for finding in findings:
            self._report(finding)

    def _report(self, finding: Finding) -> None:
        self.add_message(
            finding.symbol,
            line=finding.line,
            col_offset=finding.column,
            end_lineno=finding.end_line,
            end_col_offset=finding.end_column,
            args=(finding.message,),
        )

    def _report_error(self, message: str) -> None:
        self.add_message(ANALYSIS_ERROR.symbol, line=1, col_offset=0, args=(message,))
