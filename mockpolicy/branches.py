"""``mockpolicy branches``: ``# mock-partial:`` blocks checked against the
coverage data of a real test run, and rewritten from it with ``--fix``.

A block applies to the tests its mock runs in (the decorated test, each test
of a decorated class, each test of a class whose set-up makes the mock, each
test of the module that requests a fixture making it). A test executes a
branch when its ``run`` phase records the branch's arc (``if``/``else``), the
handler's first line (``except``), any line of the function (a whole-function
reference) or the arc itself.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from mockpolicy import coverage_parser
from mockpolicy.partial_sites import PartialSite, blocks_of, partial_sites
from mockpolicy.coverage_data import Arc, CoverageData, executed_lines
from mockpolicy.coverage_parser import ParsedSource
from mockpolicy.analysis import Analysis
from mockpolicy.engine import Engine, Session
from mockpolicy.source import SourceError, read_source
from mockpolicy.findings import Finding
from mockpolicy.index import module_name_for
from mockpolicy.project import Project
from mockpolicy.partials import REASON_PLACEHOLDER, Block, Branch, BranchRef, Entry, find_branch, normalized_expression, own_nodes
from mockpolicy.symbols import Kind, Scope, Value
from mockpolicy.rules import (
    STALE_UNTESTED_BRANCH_DOC,
    UNCOVERED_DOCUMENTED_BRANCH,
    UNDOCUMENTED_UNTESTED_BRANCH,
    UNKNOWN_BRANCH_REFERENCE,
    UNVERIFIED_COVERAGE_CLAIM,
)
from mockpolicy.sites import MockSite

_SETUP_METHODS = frozenset({"setUp", "asyncSetUp", "setup_method", "setup", "setUpClass", "setup_class"})


@dataclass(frozen=True)
class Arm:
    """A measurable branch: taken when one of ``arcs`` runs or one of ``lines`` runs."""

    file: str
    arcs: frozenset[Arc] = frozenset()
    lines: frozenset[int] = frozenset()

    def taken(self, arcs: set[Arc]) -> bool:
        return bool(self.arcs & arcs) or bool(self.lines and self.lines & executed_lines(arcs))


@dataclass
class Documented:
    """One ``untested:`` entry; ``arm`` is None when it cannot be measured
    (a conditional expression), ``problem`` set when it names nothing."""

    entry: Entry
    arm: Arm | None = None
    problem: str | None = None


@dataclass
class MockUnderTest:
    """A mock with a block (or, for ``--fix``, a partial mock without one)."""

    path: str
    site_line: int
    column: int
    end_line: int | None
    end_column: int | None
    scope: str
    statement: str
    block: Block | None
    tests: list[str]
    target: Value | None
    summary: str
    documented: list[Documented] = field(default_factory=list)
    insertable: bool = False  # a new block may go above ``site_line`` (it starts a statement or decorator)


@dataclass
class Missing:
    """A dependent branch the tests never take: where, and the entry to add."""

    reference: BranchRef
    file: str
    line: int


class Sources:
    """Source files read once: text, ``ast`` tree, coverage's view."""

    def __init__(self) -> None:
        self._cache: dict[Path, tuple[str, ast.Module, ParsedSource] | None] = {}

    def get(self, path: Path) -> tuple[str, ast.Module, ParsedSource] | None:
        if path not in self._cache:
            entry = None
            try:
                text = path.read_bytes().decode("utf-8-sig")
                tree = ast.parse(text)
                parsed = coverage_parser.parse(text, str(path))
                entry = (text, tree, parsed) if parsed is not None else None
            except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
                entry = None
            self._cache[path] = entry
        return self._cache[path]


def collect(engine: Engine, files: list[Path], sources: Sources, undocumented: bool) -> list[MockUnderTest]:
    """The mocks with blocks in ``files`` (and, if asked, the undocumented partial ones)."""
    found: list[MockUnderTest] = []
    for path in files:
        try:
            data = read_source(path)
        except SourceError:
            continue  # `mockpolicy check` reports files it cannot read
        if b"mock-partial" not in data and not (undocumented and b"mock" in data):
            continue
        relative = engine.project.relative(path)

        def describe_all(analysis: Analysis) -> list[MockUnderTest]:
            tree = analysis.module.module.node
            assert isinstance(tree, ast.Module)
            starts = _statement_starts(tree) if undocumented else set()
            described = []
            for partial in partial_sites(analysis, blocks_of(analysis)):
                if partial.block is None and not undocumented:
                    continue
                mock = _describe(engine, analysis, partial, relative, sources)
                mock.insertable = mock.site_line in starts
                described.append(mock)
            return described

        mocks, _ = engine.inspect(str(path), data, describe_all)  # `mockpolicy check` reports failures
        found.extend(mocks or [])
    return found


def _statement_starts(tree: ast.Module) -> set[int]:
    """Lines a comment may go above: the first lines of statements and decorators."""
    starts: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            starts.add(node.lineno)
            for decorator in getattr(node, "decorator_list", []):
                starts.add(decorator.lineno)
    return starts


def _describe(engine: Engine, analysis: Analysis, partial: PartialSite, relative: str, sources: Sources) -> MockUnderTest:
    site = partial.site
    call = site.call
    mock = MockUnderTest(
        relative, call.lineno, call.col_offset, call.end_lineno, call.end_col_offset, site.owner.qualname,
        analysis.statement(call), partial.block, _tests(analysis, site, relative), partial.function,
        _summary(partial),
    )
    if partial.block is not None:
        for entry in partial.block.entries:
            mock.documented.append(_resolve(engine, analysis, entry, sources))
    return mock


def _summary(partial: PartialSite) -> str:
    if not partial.given:
        return "this mock narrows what its target can do"
    shown = ", ".join(str(o) for o in sorted(partial.given))
    return f"{partial.shown_name} {shown}" if partial.shown_name else shown


def _node_id(relative: str, qualname: str) -> str:
    return f"{relative}::{qualname.replace('.', '::')}"


def _tests(analysis: Analysis, site: MockSite, relative: str) -> list[str]:
    """The node ids of the tests ``site``'s mock applies to."""
    decorated = site.decorates
    owner = site.owner
    if isinstance(decorated, ast.ClassDef):
        return [_node_id(relative, f"{owner.qualname}.{name}") for name in _test_methods(decorated)]
    if not owner.is_function:
        return []
    if owner.name.startswith("test"):
        return [_node_id(relative, owner.qualname)]
    parent = owner.parent
    if owner.name in _SETUP_METHODS and parent is not None and isinstance(parent.node, ast.ClassDef):
        return [_node_id(relative, f"{parent.qualname}.{name}") for name in _test_methods(parent.node)]
    node = owner.node
    assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    fixture = next((d for d in node.decorator_list if "fixture" in ast.unparse(d)), None)
    if fixture is None:
        return []
    autouse = "autouse=True" in ast.unparse(fixture).replace(" ", "")
    tests = []
    for context in analysis.module.contexts:
        if context.is_function and context.name.startswith("test") and (autouse or owner.name in context.params):
            if not autouse or parent is None or not parent.qualname or context.qualname.startswith(parent.qualname + "."):
                tests.append(_node_id(relative, context.qualname))
    return tests


def _test_methods(node: ast.ClassDef) -> list[str]:
    return [
        item.name for item in node.body
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith("test")
    ]


def _source_path(engine: Engine, value: Value) -> Path | None:
    for index in (engine.index, engine.libraries.resolver.index):
        located = index.locate(value.module)
        if located is not None and located[0] is not None:
            return located[0]
    return None


def _resolve(engine: Engine, analysis: Analysis, entry: Entry, sources: Sources) -> Documented:
    reference = entry.reference
    if reference is None:
        return Documented(entry, problem=entry.problem)
    if reference.arm == "arc":
        assert reference.arc is not None
        path = (engine.project.root / reference.path).resolve()
        if engine.project.root not in path.parents:
            return Documented(entry, problem=f"'{reference.path}' is not a file of the project")
        read = sources.get(path)
        if read is None:
            return Documented(entry, problem=f"'{reference.path}' is not a readable Python file of the project")
        if reference.arc not in read[2].arcs:
            return Documented(entry, problem=f"{reference} is not an arc coverage can record in {reference.path}")
        return Documented(entry, Arm(reference.path, arcs=frozenset({reference.arc})))
    function = analysis.function_named(reference.qualname)
    source = _source_path(engine, function) if function is not None else None
    if function is None or function.function is None or source is None:
        return Documented(entry, problem=f"'{reference.qualname}' is not a function or method in today's source")
    branch = find_branch(function.function, reference)
    if isinstance(branch, str):
        return Documented(entry, problem=branch)
    path = source
    read = sources.get(path)
    if read is None:
        return Documented(entry)
    relative = engine.project.relative(path)
    arm = arm_of(relative, read[2], branch)
    return Documented(entry, arm)


def arm_of(relative: str, parsed: ParsedSource, branch: Branch) -> Arm | None:
    """The arcs or lines that take ``branch`` in ``relative`` (None: not measurable)."""
    arm, function, nodes = branch.arm, branch.function, branch.nodes
    if arm == "function":
        first = function.body[0].lineno
        return Arm(relative, lines=frozenset(range(first, (function.end_lineno or first) + 1)))
    if arm == "except":
        lines = {
            parsed.first_line(h.body[0].lineno) for h in nodes
            if isinstance(h, ast.ExceptHandler) and h.body[0].lineno != h.lineno  # a one-line handler runs its line to match
        }
        return Arm(relative, lines=frozenset(lines)) if lines else None
    arcs: set[Arc] = set()
    for node in nodes:
        if not isinstance(node, (ast.If, ast.While)):
            continue  # a conditional expression has no arcs of its own
        arcs |= _arm_arcs(parsed, node, arm)
    return Arm(relative, arcs=frozenset(arcs)) if arcs else None


def _arm_arcs(parsed: ParsedSource, node: ast.If | ast.While, arm: str) -> set[Arc]:
    """The arcs taking ``arm`` of ``node``; none when its body shares the test's
    line (``if x: return``), where coverage's arcs cannot tell the arms apart."""
    line = parsed.first_line(node.lineno)
    true_destination = parsed.first_line(node.body[0].lineno)
    if true_destination == line:
        return set()
    destinations = parsed.destinations(line)
    if arm == "if":
        return {(line, true_destination)} if true_destination in destinations else set()
    return {(line, d) for d in destinations if d != true_destination}


def coverage_findings(project: Project, files: list[Path], data_path: Path, fix: bool = False) -> list[Finding]:
    """Coverage-based findings for the blocks in ``files`` (paths relative to the
    project root, sorted). With ``fix``, the blocks are rewritten first and the
    findings are those of the rewritten files. Raises ``CoverageDataError``
    for data it cannot use."""
    data = CoverageData(data_path, project.root)
    try:
        warn_about_sysmon(project)
        if not files:
            return []
        engine = Session().engine_for(files[0])
        sources = Sources()
        mocks = collect(engine, files, sources, undocumented=fix)
        findings, missing = check(engine, data, mocks, sources)
        if fix:
            for relative in rewrite(project.root, mocks, missing, findings):
                print(f"mockpolicy: rewrote the '# mock-partial:' blocks of {relative}", file=sys.stderr)
            sources = Sources()
            findings, _ = check(engine, data, collect(engine, files, sources, undocumented=False), sources)
        return sorted(findings)
    finally:
        data.close()


def warn_about_sysmon(project: Project) -> None:
    """Python 3.14+ makes coverage default to sys.monitoring, which records no
    per-test contexts; say so when nothing pins the ctrace core."""
    if sys.version_info < (3, 14):
        return
    pinned = os.environ.get("COVERAGE_CORE", "") == "ctrace"
    for name in (".coveragerc", "setup.cfg", "tox.ini", "pyproject.toml"):
        config = project.root / name
        if config.is_file() and "ctrace" in config.read_text(encoding="utf-8", errors="replace"):
            pinned = True
    if not pinned:
        print('mockpolicy: warning: on Python 3.14+ set coverage\'s `[run] core = "ctrace"` (or COVERAGE_CORE=ctrace): '
              "the default sys.monitoring core records no per-test contexts.", file=sys.stderr)


# -- checking -----------------------------------------------------------


def check(engine: Engine, data: CoverageData, mocks: list[MockUnderTest], sources: Sources) -> tuple[list[Finding], dict[int, list[Missing]]]:
    """Findings for every block, and (by ``id(mock)``) the dependent branches each mock's tests never take."""
    findings: list[Finding] = []
    missing_by_mock: dict[int, list[Missing]] = {}
    all_runs = {context for contexts in data.tests.values() for context in contexts}
    checked_blocks: set[tuple[str, int]] = set()
    for mock in mocks:
        runs = {node: data.tests[node] for test in mock.tests for node in data.matching_tests(test)}
        if mock.block is not None and not mock.tests:
            print(f"mockpolicy: note: {mock.path}:{mock.site_line}: cannot tell which tests this mock applies to "
                  "(a helper, or a fixture of another module); only its entries' references and claims were checked.",
                  file=sys.stderr)
        elif mock.block is not None and not runs:
            print(f"mockpolicy: note: {mock.path}:{mock.site_line}: none of its tests is in the data "
                  f"({', '.join(mock.tests[:3])}); its block was not checked against them.", file=sys.stderr)
        missing = _undocumented(engine, data, mock, runs, sources) if runs else []
        missing_by_mock[id(mock)] = missing
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
            findings.extend(_check_entry(data, mock, documented, runs, all_runs))
    unique = {(f.path, f.line, f.symbol, f.message): f for f in findings}
    return list(unique.values()), missing_by_mock


def _check_entry(
    data: CoverageData, mock: MockUnderTest, documented: Documented, runs: dict[str, set[int]], all_runs: set[int]
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
        print(f"mockpolicy: note: {arm.file} is not measured in {data.path}; "
              f"{mock.path}:{entry.line} was not checked.", file=sys.stderr)
        return
    by_context = data.arcs(file_id)

    def executed_by(contexts: set[int]) -> bool:
        return any(arm.taken(arcs) for context, arcs in by_context.items() if context in contexts)

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


def _undocumented(engine: Engine, data: CoverageData, mock: MockUnderTest, runs: dict[str, set[int]], sources: Sources) -> list[Missing]:
    """Branches of first-party callers of the mocked function that depend on its
    result, whose line the tests run but whose arm none of them takes, and that
    the block does not list."""
    target = mock.target
    if target is None or target.function is None:
        return []
    name = target.function.name
    contexts = {context for group in runs.values() for context in group}
    found: list[Missing] = []
    for relative, file_id in sorted(data.files.items()):
        path = engine.project.root / relative
        if Path(relative).is_absolute() or not path.is_file():
            continue  # measured outside this checkout (CoverageData maps moved files back in)
        read = sources.get(path)
        if read is None or name not in read[0]:
            continue
        by_context = {c: arcs for c, arcs in data.arcs(file_id).items() if c in contexts}
        if not by_context:
            continue
        text, tree, parsed = read
        module, _ = module_name_for(path)
        for qualname, function in _functions(tree, module):
            for node in _dependent_conditions(engine, module, function, target, name):
                line = parsed.first_line(node.lineno)
                if not any(line in executed_lines(arcs) for arcs in by_context.values()):
                    continue
                for arm in ("if", "else"):
                    arcs = _arm_arcs(parsed, node, arm)
                    if not arcs or any(arcs & taken for taken in by_context.values()):
                        continue
                    condition = " ".join((ast.get_source_segment(text, node.test) or ast.unparse(node.test)).split())
                    reference = BranchRef(arm, qualname, condition)
                    if not _listed_in(mock, reference, relative, arcs):
                        found.append(Missing(reference, relative, line))
    return found


def _functions(tree: ast.Module, module: str) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Top-level functions and methods of classes (at any depth of classes), with qualified names."""
    stack: list[tuple[str, list[ast.stmt]]] = [(module, tree.body)]
    while stack:
        prefix, body = stack.pop()
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield f"{prefix}.{node.name}", node
            elif isinstance(node, ast.ClassDef):
                stack.append((f"{prefix}.{node.name}", node.body))


def _dependent_conditions(
    engine: Engine, module: str, function: ast.FunctionDef | ast.AsyncFunctionDef, target: Value, name: str
) -> list[ast.If | ast.While]:
    calls = [
        node for node in own_nodes(function)
        if isinstance(node, ast.Call) and _called_name(node.func) == name and _calls_target(engine, module, node, target)
    ]
    if not calls:
        return []
    call_ids = {id(call) for call in calls}
    bound: set[str] = set()
    for node in own_nodes(function):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
            if any(id(inner) in call_ids for inner in ast.walk(node.value)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                bound.update(t.id for target_node in targets for t in ast.walk(target_node) if isinstance(t, ast.Name))
    dependent: list[ast.If | ast.While] = []
    for node in own_nodes(function):
        if isinstance(node, (ast.If, ast.While)):
            inside = list(ast.walk(node.test))
            if any(id(inner) in call_ids for inner in inside) or any(
                isinstance(inner, ast.Name) and inner.id in bound for inner in inside
            ):
                dependent.append(node)
    return dependent


def _called_name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _calls_target(engine: Engine, module: str, call: ast.Call, target: Value) -> bool:
    """Whether ``call`` calls the mocked function, as far as the module's names tell."""
    info = engine.index.get(module)
    if info is None:
        return False
    value = engine.resolver.evaluate(call.func, Scope(info))
    if value.kind is Kind.FUNCTION:
        return (value.module, value.qualname) == (target.module, target.qualname)
    if value.kind is Kind.EXTERNAL:
        return value.qualname.rpartition(".")[2] == target.qualname.rpartition(".")[2]
    return isinstance(call.func, ast.Attribute) and target.owner is not None  # self.method(): a method of a class


def _listed_in(mock: MockUnderTest, reference: BranchRef, relative: str, arcs: set[Arc]) -> bool:
    wanted = normalized_expression(reference.text)
    for documented in mock.documented:
        listed = documented.entry.reference
        if listed is None:
            continue
        if listed.arm == "function" and listed.qualname == reference.qualname:
            return True
        if listed.arm == "arc" and listed.path == relative and listed.arc in arcs:
            return True
        if (listed.arm, listed.qualname) == (reference.arm, reference.qualname):
            if normalized_expression(listed.text) == wanted:
                return True
    return False


# -- rewriting ------------------------------------------------------------


def rewrite(root: Path, mocks: list[MockUnderTest], missing: dict[int, list[Missing]], findings: list[Finding]) -> list[str]:
    """Rewrite blocks from the data: drop stale entries (the whole block when
    none is left), add the missing ones with a reason placeholder, and insert a
    block above an undocumented partial mock that starts a statement. Mocks
    sharing a block or a line are rewritten together. Only comment lines
    change; line endings, a BOM and file permissions are kept. Returns the
    files rewritten."""
    stale_lines = {(f.path, f.line) for f in findings if f.symbol == STALE_UNTESTED_BRANCH_DOC.symbol}
    plans: dict[tuple[str, int], tuple[MockUnderTest, list[str]]] = {}  # (path, anchor line) -> mock, new entries
    for mock in mocks:
        anchor = mock.block.line if mock.block is not None else mock.site_line
        if mock.block is None and not mock.insertable:
            continue
        planned = plans.setdefault((mock.path, anchor), (mock, []))[1]
        for item in missing.get(id(mock), []):
            line = f"untested: {item.reference}; {REASON_PLACEHOLDER}"
            if line not in planned:
                planned.append(line)
    edits: dict[str, list[tuple[int, int, list[str]]]] = {}  # path -> (first line, last line, new lines)
    texts: dict[str, SourceText] = {}
    for (relative, anchor), (mock, new) in sorted(plans.items()):
        text = texts.get(relative) or texts.setdefault(relative, SourceText.read(root / relative))
        lines = text.lines
        if mock.block is None:
            if new:
                indent = _indent(lines[anchor - 1])
                inserted = [f"{indent}# mock-partial: {mock.summary}", *(f"{indent}#   {line}" for line in new)]
                edits.setdefault(relative, []).append((anchor, anchor - 1, inserted))
            continue
        block = mock.block
        indent = _indent(lines[block.line - 1])
        spans = _entry_spans(block)
        dropped = {entry.line for entry in block.entries if (relative, entry.line) in stale_lines}
        if not new and not dropped:
            continue
        if not new and len(dropped) == len(block.entries):
            edits.setdefault(relative, []).append((block.line, block.end_line, []))  # nothing left to document
            continue
        kept: list[str] = []
        insert_at = 1  # after the opener, or after the last entry kept
        for number in range(block.line, block.end_line + 1):
            owner = spans.get(number)
            if owner is not None and owner in dropped:
                continue
            kept.append(lines[number - 1])
            if owner is not None:
                insert_at = len(kept)
        kept[insert_at:insert_at] = [f"{indent}#   {line}" for line in new]
        edits.setdefault(relative, []).append((block.line, block.end_line, kept))
    for relative, file_edits in edits.items():
        text = texts[relative]
        for first, last, replacement in sorted(file_edits, key=lambda e: e[0], reverse=True):
            text.replace(first, last, replacement)
        text.write(root / relative)
    return sorted(edits)


@dataclass
class SourceText:
    """A file's lines with their own line endings, for edits that keep the rest byte for byte."""

    lines: list[str]
    endings: list[str]
    bom: bool
    newline: str

    @classmethod
    def read(cls, path: Path) -> SourceText:
        data = path.read_bytes()
        bom = data.startswith(b"\xef\xbb\xbf")
        text = data.decode("utf-8-sig")
        pieces = re.findall(r"([^\r\n]*)(\r\n|\r|\n|$)", text)
        if pieces and pieces[-1] == ("", ""):
            pieces.pop()
        lines = [content for content, _ in pieces]
        endings = [ending for _, ending in pieces]
        newline = max(("\r\n", "\r", "\n"), key=endings.count) if any(endings) else "\n"
        return cls(lines, endings, bom, newline)

    def replace(self, first: int, last: int, replacement: list[str]) -> None:
        """Lines ``first..last`` (1-based, inclusive; ``last = first - 1`` inserts) become ``replacement``."""
        endings = self.endings[first - 1 : last]
        endings += [self.newline] * (len(replacement) - len(endings))
        self.lines[first - 1 : last] = replacement
        self.endings[first - 1 : last] = endings[: len(replacement)]

    def write(self, path: Path) -> None:
        text = "".join(line + ending for line, ending in zip(self.lines, self.endings))
        target = path.resolve()  # a symlinked file is edited where it lives
        temporary = target.with_name(target.name + ".mockpolicy-tmp")
        temporary.write_bytes((b"\xef\xbb\xbf" if self.bom else b"") + text.encode("utf-8"))
        shutil.copymode(target, temporary)
        temporary.replace(target)


def _entry_spans(block: Block) -> dict[int, int]:
    """Line -> the entry line it belongs to (an entry and its continuation lines)."""
    starts = sorted(entry.line for entry in block.entries)
    reason_line = [block.reason.pieces[0][0]] if block.reason is not None and block.reason.pieces else []
    items = sorted({*starts, *reason_line})
    spans: dict[int, int] = {}
    for index, start in enumerate(items):
        end = items[index + 1] - 1 if index + 1 < len(items) else block.end_line
        if start in starts:
            for number in range(start, end + 1):
                spans[number] = start
    return spans


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]
