"""The registry of rules: one place that names every message the engine emits.

Each rule module under ``mockpolicy.checks`` declares its ``Rule`` objects; the
pylint plugin, the CLI, ``explain`` and the docs test all read them from here.
Message ids follow pylint's scheme: category letter, the plugin's checker block
(73), and a two-digit message number.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path


@dataclass(frozen=True)
class Rule:
    """A message the engine can emit."""

    msgid: str
    symbol: str
    summary: str

    @property
    def doc_url(self) -> str:
        return f"{DOCS_BASE_URL}/{self.symbol}.md"


DOCS_BASE_URL = "https://github.com/mockpolicy/mockpolicy/blob/main/docs/rules"

FIRST_PARTY_MOCK = Rule(
    "W7301",
    "first-party-mock",
    "A mock replaces, or stands in for, code defined in the project itself.",
)
MULTIPLE_BOUNDARY_MOCKS = Rule(
    "W7302",
    "multiple-boundary-mocks",
    "A test declares more than one '# mock-boundary:' mock of first-party code.",
)
ANNOTATION_WITHOUT_REASON = Rule(
    "W7303",
    "mock-annotation-without-reason",
    "A '# mock-boundary:' or '# mock-isolation:' annotation gives no reason.",
)
TAUTOLOGICAL_ASSERTION = Rule(
    "W7304",
    "tautological-mock-assertion",
    "A test only asserts that first-party mocks were called.",
)
INCOMPLETE_MOCK_MODULE = Rule(
    "W7305",
    "incomplete-mock-module",
    "A fake module lacks public names the real module exports.",
)
INCOMPLETE_MOCK_OBJECT = Rule(
    "W7306",
    "incomplete-mock-object",
    "A fake class or object lacks public members the real class has.",
)
UNSPECCED_MOCK = Rule(
    "W7307",
    "unspecced-mock",
    "A mock without a spec answers attributes and calls the real object would reject.",
)
MOCK_TARGET_NOT_FOUND = Rule(
    "W7308",
    "mock-target-not-found",
    "A patch target names something that does not exist.",
)
PATCH_AT_DEFINITION_SITE = Rule(
    "W7309",
    "patch-at-definition-site",
    "A patch replaces a name where it is defined, but the module under test imported it by value.",
)
LEAKED_PATCHER = Rule(
    "W7310",
    "leaked-patcher",
    "A patcher is started with no stop that runs when the test fails.",
)
UNRESTORED_ENVIRON = Rule(
    "W7311",
    "unrestored-environ-mutation",
    "A test changes os.environ and does not restore it.",
)
UNRESTORED_SYS_MODULES = Rule(
    "W7312",
    "unrestored-sys-modules-mutation",
    "A test changes sys.modules outside patch.dict or monkeypatch.",
)
UNRESTORED_ATTRIBUTE = Rule(
    "W7313",
    "unrestored-attribute-assignment",
    "A test assigns an attribute of an imported module or class and does not restore it.",
)
UNDOCUMENTED_PARTIAL_MOCK = Rule(
    "W7314",
    "undocumented-partial-mock",
    "A mock withholds an outcome of its target that the code under test tells apart (a caller's arm or "
    "handler it never takes), and no '# mock-partial:' block says so.",
)
MALFORMED_MOCK_PARTIAL = Rule(
    "W7315",
    "malformed-mock-partial",
    "A '# mock-partial:' block cannot be checked: a missing entry or reason, or a reference to nothing.",
)
STALE_UNTESTED_BRANCH_DOC = Rule(
    "W7316",
    "stale-untested-branch-doc",
    "An 'untested:' entry names a branch the test does execute (coverage data).",
)
UNVERIFIED_COVERAGE_CLAIM = Rule(
    "W7317",
    "unverified-coverage-claim",
    "A 'covered by' claim names tests that do not execute the branch (coverage data).",
)
UNCOVERED_DOCUMENTED_BRANCH = Rule(
    "W7318",
    "uncovered-documented-branch",
    "A branch documented as untested is executed by no test at all (coverage data).",
)
UNDOCUMENTED_UNTESTED_BRANCH = Rule(
    "W7319",
    "undocumented-untested-branch",
    "A branch that depends on the mocked call is never taken by the test and not listed in its block.",
)
UNKNOWN_BRANCH_REFERENCE = Rule(
    "W7320",
    "unknown-branch-reference",
    "An 'untested:' entry does not resolve to a branch in today's source.",
)
BASELINE_GREW = Rule(
    "W7321",
    "baseline-grew",
    "A change makes the baseline allow findings it did not allow before.",
)
TEST_POLLUTION = Rule(
    "W7322",
    "test-pollution",
    "A test left state behind that later tests in the same process ran with (runtime record).",
)
ANALYSIS_ERROR = Rule(
    "E7399",
    "mock-analysis-error",
    "mockpolicy could not analyse a file (syntax error, undecodable bytes, internal error).",
)

ALL_RULES: tuple[Rule, ...] = (
    FIRST_PARTY_MOCK,
    MULTIPLE_BOUNDARY_MOCKS,
    ANNOTATION_WITHOUT_REASON,
    TAUTOLOGICAL_ASSERTION,
    INCOMPLETE_MOCK_MODULE,
    INCOMPLETE_MOCK_OBJECT,
    UNSPECCED_MOCK,
    MOCK_TARGET_NOT_FOUND,
    PATCH_AT_DEFINITION_SITE,
    LEAKED_PATCHER,
    UNRESTORED_ENVIRON,
    UNRESTORED_SYS_MODULES,
    UNRESTORED_ATTRIBUTE,
    UNDOCUMENTED_PARTIAL_MOCK,
    MALFORMED_MOCK_PARTIAL,
    STALE_UNTESTED_BRANCH_DOC,
    UNVERIFIED_COVERAGE_CLAIM,
    UNCOVERED_DOCUMENTED_BRANCH,
    UNDOCUMENTED_UNTESTED_BRANCH,
    UNKNOWN_BRANCH_REFERENCE,
    BASELINE_GREW,
    TEST_POLLUTION,
    ANALYSIS_ERROR,
)
# Rules that need coverage data: only `mockpolicy branches` reports them.
COVERAGE_RULES = frozenset(
    rule.symbol for rule in (
        STALE_UNTESTED_BRANCH_DOC, UNVERIFIED_COVERAGE_CLAIM, UNCOVERED_DOCUMENTED_BRANCH,
        UNDOCUMENTED_UNTESTED_BRANCH, UNKNOWN_BRANCH_REFERENCE,
    )
)
# Rules that need a runtime record (`pytest --mockpolicy-record`): reported
# only when one is merged (`mockpolicy check --runtime PATH`).
RUNTIME_RULES = frozenset({TEST_POLLUTION.symbol})
STATIC_RULES = frozenset(rule.symbol for rule in ALL_RULES) - COVERAGE_RULES - RUNTIME_RULES
# Rules whose findings rest on static resolution of what a mock replaces
# (pylint reports them with INFERENCE confidence; the others are HIGH).
INFERRED_RULES = frozenset(
    rule.symbol for rule in (
        FIRST_PARTY_MOCK, MULTIPLE_BOUNDARY_MOCKS, TAUTOLOGICAL_ASSERTION, INCOMPLETE_MOCK_MODULE,
        INCOMPLETE_MOCK_OBJECT, UNSPECCED_MOCK, MOCK_TARGET_NOT_FOUND, PATCH_AT_DEFINITION_SITE,
        UNRESTORED_ATTRIBUTE, UNDOCUMENTED_PARTIAL_MOCK,
    )
)
RULES_BY_SYMBOL = {rule.symbol: rule for rule in ALL_RULES}
RULES_BY_MSGID = {rule.msgid: rule for rule in ALL_RULES}


def lookup(name: str) -> Rule | None:
    """The rule with this symbol or message id (case-insensitive id), or None."""
    return RULES_BY_SYMBOL.get(name) or RULES_BY_MSGID.get(name.upper())


def doc_text(rule: Rule) -> str | None:
    """The Markdown page of ``rule``, from the installed package or the source tree."""
    name = f"{rule.symbol}.md"
    packaged = resources.files("mockpolicy").joinpath("_docs").joinpath("rules").joinpath(name)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    in_tree = Path(__file__).resolve().parent.parent / "docs" / "rules" / name
    if in_tree.is_file():
        return in_tree.read_text(encoding="utf-8")
    return None
