"""``undocumented-partial-mock`` and ``malformed-mock-partial``: a mock that
gives the code under test fewer outcomes than its real target must carry a
``# mock-partial:`` block naming the branches it leaves untested, and the
block must be one that can be checked."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from mockpolicy.analysis import MOCK_WORDS, Analysis, Family
from mockpolicy.findings import Finding
from mockpolicy.index import is_file
from mockpolicy.outcomes import MOCK_VALUE, VALUE, Outcome
from mockpolicy.partial_sites import PartialSite, blocks_of, header_ends, mocks_below, partial_sites
from mockpolicy.partials import Block, find_branch, has_reason
from mockpolicy.rules import MALFORMED_MOCK_PARTIAL, UNDOCUMENTED_PARTIAL_MOCK
from mockpolicy.sites import Context, MockSite
from mockpolicy.telling import Withheld


def check(analysis: Analysis) -> Iterator[Finding]:
    blocks = blocks_of(analysis)
    attached: set[int] = set()
    ends = header_ends(analysis) if blocks else {}
    # Mocks of one target keeping the same arms untaken across one test class (or, for test functions
    # outside classes, one module): reported once, at the first.
    alike: dict[tuple[str, str, str, tuple[str, ...]], list[PartialSite]] = {}
    for partial in partial_sites(analysis, blocks):
        site, block, scope = partial.site, partial.block, partial.site.owner.qualname
        if block is not None:
            if block.line not in attached:
                attached.add(block.line)
                ambiguous = placement(analysis.annotations.lines, block, site.call.lineno, *mocks_below(analysis, site.call.lineno, ends))
                if ambiguous is not None:
                    yield analysis.finding(site.call, MALFORMED_MOCK_PARTIAL.symbol, ambiguous, scope)
                for problem in malformed(analysis, block):
                    yield analysis.finding(
                        site.call, MALFORMED_MOCK_PARTIAL.symbol, _malformed_message(block, problem), scope
                    )
            continue
        function = partial.function
        key = (
            _class_of(site.owner) or analysis.module.info.name, function.module if function else "",
            function.qualname if function else "", tuple(w.arm.entry for w in partial.withheld),
        )
        alike.setdefault(key, []).append(partial)
        if len(alike[key]) > 1:
            continue
    for (cls, _, _, _), group in alike.items():
        first = group[0]
        message = _partial_message(first.shown_name, first.given, first.withheld)
        if len(group) > 1:
            more = len(group) - 1
            alike_ones = "1 more mock" if more == 1 else f"{more} more mocks"
            keep = "keeps" if more == 1 else "keep"
            message += f" ({alike_ones} of {first.shown_name} in {cls.rpartition('.')[2]} {keep} the same arms untaken.)"
        yield analysis.finding(first.site.call, UNDOCUMENTED_PARTIAL_MOCK.symbol, message, first.site.owner.qualname)
    lines = analysis.annotations.lines
    for block in blocks:
        if block.line not in attached:
            below = block.end_line + 1
            while below <= len(lines) and lines[below - 1].lstrip().startswith("#"):
                below += 1
            message = placement(lines, block, below, *mocks_below(analysis, below, ends)) or (
                f"The '# mock-partial:' block on line {block.line} is not directly above a mock "
                "call or its decorator, so it documents nothing; move it above the mock it describes."
            )
            yield Finding(
                path=analysis.path, line=block.line, column=lines[block.line - 1].index("#"),
                symbol=MALFORMED_MOCK_PARTIAL.symbol, message=message,
                end_line=block.end_line, scope="", statement=lines[block.line - 1].strip(),
            )


def placement(lines: list[str], block: Block, line: int, mocks: list[MockSite], end: int) -> str | None:
    """What is wrong with a block whose next code line is ``line`` (what starts
    there ends on ``end`` and holds ``mocks``): it could be about several mocks,
    or its one mock is not on ``line``; None when neither."""
    opener = f"The '# mock-partial:' block on line {block.line}"
    if len(mocks) >= 2:
        where = sorted({site.line for site in mocks})
        if where == [line] == [end]:
            spot = f"is above line {line}, which holds {len(mocks)} mocks"
        else:
            spot = (f"is above a statement that continues over lines {line}-{end} and holds {len(mocks)} mocks "
                    f"(on lines {', '.join(str(n) for n in where)})")
        return (
            f"{opener} {spot}, so it could document any of them; put each mock on its own line "
            "(its own decorator, or one per line inside a bracketed 'with (...)') with its own block directly above it."
        )
    if mocks and mocks[0].line != line:
        at = mocks[0].line
        fix = (
            f"a comment cannot go on a line a backslash continues: start the statement with the mock call, "
            f"or put the statement in brackets and the block directly above line {at}"
            if lines[at - 2].rstrip().endswith("\\") else
            f"move the block directly above line {at}, inside the statement's brackets, or start the statement "
            "with the mock call"
        )
        return (
            f"{opener} is above a statement whose mock starts on line {at}, not on line {line} directly "
            f"below the block, so it documents nothing; {fix}."
        )
    return None


def malformed(analysis: Analysis, block: Block) -> Iterator[str]:
    """Why ``block`` cannot be checked, one sentence per problem."""
    if not block.entries:
        yield "it has no 'untested:' line; name each branch the mock leaves untested"
    for entry in block.entries:
        where = f"line {entry.line}"
        if entry.problem is not None:
            yield f"{where}: {entry.problem}"
            continue
        reference = entry.reference
        assert reference is not None
        if not has_reason(block.reason_of(entry)):
            yield (
                f"{where}: '{entry.reference_text}' gives no reason; end the line with '; <reason>' "
                "or add a 'reason:' line"
            )
        if reference.arm == "arc":
            if not is_file(analysis.resolver.project.root / reference.path, analysis.resolver.tracker):
                yield f"{where}: '{reference.path}' is not a file of the project"
            continue
        function = analysis.function_named(reference.qualname)
        if function is None or function.function is None:
            yield (
                f"{where}: '{reference.qualname}' is not a function or method of the project "
                "or of an installed library"
            )
            continue
        branch = find_branch(function.function, reference)
        if isinstance(branch, str):
            yield f"{where}: {branch}"


def _malformed_message(block: Block, problem: str) -> str:
    return f"The '# mock-partial:' block on line {block.line} cannot be checked: {problem}."


def _class_of(context: Context) -> str:
    """The qualified name of the test class ``context`` belongs to, or ""."""
    current: Context | None = context
    while current is not None:
        if isinstance(current.node, ast.ClassDef):
            return current.qualname
        current = current.parent
    return ""


def _partial_message(name: str, given: frozenset[Outcome], withheld: list[Withheld]) -> str:
    if len(given) == 1:
        only = next(iter(given))
        does = "returns a MagicMock every time" if only == MOCK_VALUE else \
            "always returns a value" if only == VALUE else f"always {_shown(only)}"
    else:
        does = "only " + _listed(given)
    arms = "; ".join(
        f"`{w.arm.entry}` (taken when it {' or '.join(_shown(o) for o in w.outcomes)})" for w in withheld
    )
    lines = " and ".join(f"`#   untested: {w.arm.entry}; <reason>`" for w in withheld)
    return (
        f"This mock of {name} {does}, so the code under test never takes {arms}. Test that outcome too, "
        f"or document the gap in a '# mock-partial:' block with {lines} "
        "(`mockpolicy explain undocumented-partial-mock`)."
    )


def _shown(outcome: Outcome) -> str:
    return "returns another value" if outcome == VALUE else str(outcome)


def _listed(given: frozenset[Outcome]) -> str:
    """Several outcomes, each kind named once: ``returns "{}" or "abc" or raises KeyError``."""
    by_kind: dict[str, list[str]] = {}
    for outcome in sorted(given, key=lambda o: (o.kind != "returns", o.value)):
        by_kind.setdefault(outcome.kind, []).append("another value" if outcome == VALUE else outcome.value)
    return " or ".join(f"{kind} {' or '.join(values)}" for kind, values in by_kind.items())


FAMILY = Family("partial-mocks", (UNDOCUMENTED_PARTIAL_MOCK, MALFORMED_MOCK_PARTIAL), check, MOCK_WORDS)
