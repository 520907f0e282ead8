"""The mocks ``mockpolicy branches`` checks, described from one ``Engine.inspect``
job per file: each mock's block with its entries resolved, the tests it
applies to, and the branches that depend on the call it replaces.

A block applies to the tests its mock runs in: the decorated test, each test
of a decorated class, each test of a class whose set-up makes the mock, and
each test of the module that requests a fixture making it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

from mockpolicy.analysis import Analysis
from mockpolicy.branches.comments import CommentLines
from mockpolicy.branches.dependents import Dependent, dependents
from mockpolicy.branches.resolve import Documented, resolve
from mockpolicy.branches.sources import Sources
from mockpolicy.branches.span import outside_the_patch
from mockpolicy.engine import Engine
from mockpolicy.partial_sites import PartialSite, blocks_of, header_ends, mocks_below, partial_sites
from mockpolicy.partials import Block
from mockpolicy.project import Project
from mockpolicy.sites import MockSite
from mockpolicy.source import SourceError, read_source
from mockpolicy.vocabulary import CLASS_SETUP_NAMES, fixture_decorator


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
    summary: str
    documented: list[Documented] = field(default_factory=list)
    dependents: list[Dependent] = field(default_factory=list)  # those its block does not list
    insertable: bool = False  # a new block may go above ``site_line`` (it starts a statement or decorator, where a line may start)
    shared: bool = False  # its line (statement header or decorator) holds other mocks: no block may go above it
    outside: str | None = None  # where its tests' run phase may run project code without the patch (``span``)


def collect(engine: Engine, files: list[Path], sources: Sources, measured: list[str], undocumented: bool) -> list[MockUnderTest]:
    """The mocks with blocks in ``files`` (and, if asked, the undocumented
    partial ones); ``measured``: the project's files the data measured,
    relative to its root. Files that cannot be read or analysed are skipped
    (``mockpolicy check`` reports them)."""
    found: list[MockUnderTest] = []
    for path in files:
        try:
            data = read_source(path)
        except SourceError:
            continue
        if b"mock-partial" not in data and not (undocumented and b"mock" in data):
            continue
        relative = engine.project.relative(path)

        def describe_all(analysis: Analysis) -> list[MockUnderTest]:
            tree = analysis.module.module.node
            assert isinstance(tree, ast.Module)
            layout = CommentLines.of(analysis.source)
            starts = _statement_starts(tree) & layout.openings if undocumented else set()
            ends = header_ends(analysis) if undocumented else {}
            described = []
            for partial in partial_sites(analysis, [block for block in blocks_of(analysis) if layout.holds(block)]):
                if partial.block is None and not undocumented:
                    continue
                mock = _describe(engine.project, analysis, partial, relative, sources, measured)
                if mock.site_line in starts:
                    # A block above several mocks would be ambiguous (malformed-mock-partial).
                    mock.shared = len(mocks_below(analysis, mock.site_line, ends)[0]) > 1
                    mock.insertable = not mock.shared
                described.append(mock)
            return described

        mocks, _ = engine.inspect(str(path), data, describe_all)
        found.extend(mocks or [])
    return found


def _statement_starts(tree: ast.Module) -> set[int]:
    """The first lines of statements and decorators (a comment may go above
    those of them where a new line could start: ``CommentLines.openings``)."""
    starts: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            starts.add(node.lineno)
            for decorator in getattr(node, "decorator_list", []):
                starts.add(decorator.lineno)
    return starts


def _describe(
    project: Project, analysis: Analysis, partial: PartialSite, relative: str, sources: Sources, measured: list[str]
) -> MockUnderTest:
    site = partial.site
    call = site.call
    mock = MockUnderTest(
        relative, call.lineno, call.col_offset, call.end_lineno, call.end_col_offset, site.owner.qualname,
        analysis.statement(call), partial.block, _tests(analysis, site, relative), _summary(partial),
    )
    if partial.block is not None:
        for entry in partial.block.entries:
            mock.documented.append(resolve(project, analysis, entry, sources))
    if mock.tests and partial.function is not None:
        mock.outside = outside_the_patch(analysis, site)
        mock.dependents = dependents(analysis, project.root, measured, partial.function, mock.documented, sources)
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
    if owner.name in CLASS_SETUP_NAMES and parent is not None and isinstance(parent.node, ast.ClassDef):
        return [_node_id(relative, f"{parent.qualname}.{name}") for name in _test_methods(parent.node)]
    node = owner.node
    assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    fixture = fixture_decorator(node.decorator_list)
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
