"""pylint functional cases: each ``.py`` under functional_project/functional marks
the lines where a message is expected (``# [symbol]``); pylint's own runner
compares them with the ``.txt`` beside it. ``--update-functional-output``
rewrites the ``.txt`` files."""

from __future__ import annotations

from pathlib import Path

import pytest
from pylint.testutils import LintModuleTest
from pylint.testutils.functional import (
    FunctionalTestFile,
    LintModuleOutputUpdate,
    get_functional_test_files_from_directory,
)

from mockpolicy.rules import ALL_RULES, ANALYSIS_ERROR, BASELINE_GREW, COVERAGE_RULES, RUNTIME_RULES

FUNCTIONAL = Path(__file__).parent / "functional_project" / "functional"
CASES = get_functional_test_files_from_directory(FUNCTIONAL)


@pytest.mark.parametrize("case", CASES, ids=[case.base for case in CASES])
def test_functional(case: FunctionalTestFile, pytestconfig: pytest.Config) -> None:
    if pytestconfig.getoption("update_functional_output"):
        lint_test: LintModuleTest = LintModuleOutputUpdate(case, pytestconfig)
    else:
        lint_test = LintModuleTest(case, pytestconfig)
    lint_test.setUp()
    lint_test._runTest()


def test_every_rule_has_a_positive_case() -> None:
    expected = "".join(
        Path(case.expected_output).read_text() for case in CASES if Path(case.expected_output).exists()
    )
    missing = [
        rule.symbol for rule in ALL_RULES
        if rule not in (ANALYSIS_ERROR, BASELINE_GREW) and rule.symbol not in COVERAGE_RULES | RUNTIME_RULES
        and f"{rule.symbol}:" not in expected
    ]
    assert missing == []
