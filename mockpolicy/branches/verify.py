"""Checking described mocks against coverage data: the coverage-based findings,
the dependent branches each mock's tests never take, and notes on what could
not be checked. A test executes a branch when its ``run`` phase takes the arm."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from mockpolicy.branches.dependents import Dependent
from mockpolicy.branches.mocks import MockUnderTest
from mockpolicy.branches.resolve import Documented
from mockpolicy.coverage_data import Arc, CoverageData, executed_lines
from mockpolicy.findings import Finding
from mockpolicy.partials import normalized_expression
from mockpolicy.rules import (
    STALE_UNTESTED_BRANCH_DOC,
    UNCOVERED_DOCUMENTED_BRANCH,
    UNDOCUMENTED_UNTESTED_BRANCH,
    UNKNOWN_BRANCH_REFERENCE,
    UNVERIFIED_COVERAGE_CLAIM,
)


@dataclass
class Verdict:
    """``findings`` (no duplicates), and ``missing``: by ``id(mock)``, the
    dependent arms the mock's tests never take."""

    findings: list[Finding] = field(default_factory=list)
    missing: dict[int, list[Dependent]] = field(default_factory=dict)


def check(data: CoverageData, mocks: list[MockUnderTest], notes: list[str]) -> Verdict:
    """The verdict on every mock; what could not be checked is appended to
    ``notes`` (one line each) as found. Raises ``CoverageDataError`` for data
    it cannot read."""
    verdict = Verdict()
    findings = verdict.findings
    all_runs = {context for contexts in data.tests.values() for context in contexts}
    checked_blocks: set[tuple[str, int]] = set()
    for mock in mocks:
        runs = {node: data.tests[node] for test in mock.tests for node in data.matching_tests(test)}
        if mock.block is not None and not mock.tests:
            notes.append(f"mockpolicy: note: {mock.path}:{mock.site_line}: cannot tell which tests this mock applies to "
                         "(a helper, or a fixture of another module); only its entries' references and claims were checked.")
        elif mock.block is not None and not runs:
            notes.append(f"mockpolicy: note: {mock.path}:{mock.site_line}: none of its tests is in the data "
                         f"({', '.join(mock.tests[:3])}); its block was not checked against them.")
        missing = _untaken(data, mock.dependents, runs) if runs else []
        if missing and mock.outside is not None:
            # The data cannot tell these conditions ran under the patch: the run phase also runs
            # project code without it, whose evaluations land in the same arcs.
            notes.append(
                f"mockpolicy: note: {mock.path}:{mock.site_line}: {_count(len(missing), 'arm')} of conditions "
                f"depending on the mock {'is' if len(missing) == 1 else 'are'} never taken, but not inferred as "
                f"untested: {mock.outside} runs project code without the patch, so the data cannot show that "
                "the mock made those conditions run."
            )
            missing = []
        verdict.missing[id(mock)] = missing
        if mock.block is None:
            continue
        for reference_missing in missing:
            text = f"untested: {reference_missing.reference}"
            findings.append(_finding(mock, mock.site_line, UNDOCUMENTED_UNTESTED_BRANCH.symbol, (
                f"The test never takes this branch, which depends on the mocked call: "
                f"{reference_missing.reference} ({reference_missing.file}:{reference_missing.line}); "
                f"add '#   {text}; <reason>' to the block, or test that branch."
            ), text))
        if (mock.path, mock.block.line) in checked_blocks:
            continue  # two mocks on one line share their block: its entries are checked once
        checked_blocks.add((mock.path, mock.block.line))
        for documented in mock.documented:
            findings.extend(_check_entry(data, mock, documented, runs, all_runs, notes))
    verdict.findings = list({(f.path, f.line, f.symbol, f.message): f for f in findings}.values())
    return verdict


def _untaken(data: CoverageData, dependents: list[Dependent], runs: dict[str, set[int]]) -> list[Dependent]:
    """The ``dependents`` whose condition line the ``runs`` execute but whose arm none of them takes."""
    contexts = {context for group in runs.values() for context in group}
    by_file: dict[str, list[set[Arc]]] = {}
    found: list[Dependent] = []
    taken_somewhere: set[tuple[str, str, str]] = set()  # references an arm of which some occurrence takes
    for dependent in dependents:
        taken = by_file.get(dependent.file)
        if taken is None:
            taken = by_file[dependent.file] = list(data.arcs(data.files[dependent.file], contexts).values())
        if not any(dependent.line in executed_lines(arcs) for arcs in taken):
            continue
        if not any(dependent.arcs & arcs for arcs in taken):
            found.append(dependent)
        else:
            taken_somewhere.add(_key(dependent))
    # An entry names a condition by its text, so every occurrence of it: an arm one
    # occurrence takes would make the entry stale, and --fix would flip between
    # writing and dropping it. Both arms of one condition never go in one block.
    found = [dependent for dependent in found if _key(dependent) not in taken_somewhere]
    arms: dict[tuple[str, str], set[str]] = {}
    for dependent in found:
        arms.setdefault((dependent.reference.qualname, _text(dependent)), set()).add(dependent.reference.arm)
    return [
        dependent for dependent in found
        if len(arms[(dependent.reference.qualname, _text(dependent))]) < 2
    ]


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' if number != 1 else ''}"


def _text(dependent: Dependent) -> str:
    return normalized_expression(dependent.reference.text) or dependent.reference.text


def _key(dependent: Dependent) -> tuple[str, str, str]:
    return (dependent.reference.qualname, dependent.reference.arm, _text(dependent))


def _check_entry(
    data: CoverageData, mock: MockUnderTest, documented: Documented, runs: dict[str, set[int]], all_runs: set[int],
    notes: list[str],
) -> Iterator[Finding]:
    entry = documented.entry
    assert mock.block is not None
    if documented.problem is not None:
        yield _finding(mock, entry.line, UNKNOWN_BRANCH_REFERENCE.symbol,
                       f"'{entry.reference_text}' names no branch in today's source: {documented.problem}.",
                       entry.reference_text)
        return
    arm = documented.arm
    if arm is None:
        return
    file_id = data.file_id(arm.file)
    if file_id is None:
        notes.append(f"mockpolicy: note: {arm.file} is not measured in {data.path}; "
                     f"{mock.path}:{entry.line} was not checked.")
        return
    taking = data.contexts_taking(file_id, arm.arcs, arm.lines)

    def executed_by(contexts: set[int]) -> bool:
        return not taking.isdisjoint(contexts)

    executing = [node for node, contexts in runs.items() if executed_by(contexts)]
    if executing:
        yield _finding(mock, entry.line, STALE_UNTESTED_BRANCH_DOC.symbol, (
            f"'{entry.reference_text}' is documented as untested, but {_listed(executing)} "
            "executes it; remove the entry (or the mock no longer narrows this branch)."
        ), entry.reference_text)
    claim = mock.block.claim_of(entry)
    if claim is not None:
        named = {test_id: data.matching_tests(test_id) for test_id in claim.test_ids}
        absent = [test_id for test_id, nodes in named.items() if not nodes]
        claimed = {node for nodes in named.values() for node in nodes}
        if absent:
            yield _finding(mock, claim.line, UNVERIFIED_COVERAGE_CLAIM.symbol, (
                f"'covered by' names {_listed(absent)}, absent from the coverage data; "
                f"fix the id or run that test, then re-check '{entry.reference_text}'."
            ), f"{entry.reference_text} covered by {', '.join(claim.test_ids)}")
        elif not any(executed_by(data.tests[node]) for node in claimed):
            yield _finding(mock, claim.line, UNVERIFIED_COVERAGE_CLAIM.symbol, (
                f"'covered by' claims {_listed(sorted(claim.test_ids))} executes "
                f"'{entry.reference_text}', but no such test does."
            ), f"{entry.reference_text} covered by {', '.join(claim.test_ids)}")
    if not executed_by(all_runs):
        yield _finding(mock, entry.line, UNCOVERED_DOCUMENTED_BRANCH.symbol, (
            f"No test executes '{entry.reference_text}': the documentation hides a real hole; "
            "write a test that takes this branch."
        ), entry.reference_text)


def _listed(items: list[str]) -> str:
    shown = ", ".join(items[:3])
    return shown + (f" and {len(items) - 3} more" if len(items) > 3 else "")


def _finding(mock: MockUnderTest, line: int, symbol: str, message: str, about: str) -> Finding:
    """A finding on ``line``; its identity is the mock's statement plus ``about``
    (the entry or claim it concerns), so it survives edits that move lines."""
    on_site = line == mock.site_line
    return Finding(
        path=mock.path, line=line, column=mock.column if on_site else 0, symbol=symbol, message=message,
        end_line=mock.end_line if on_site else None, end_column=mock.end_column if on_site else None,
        scope=mock.scope, statement=f"{mock.statement}\n# {about}",
    )
