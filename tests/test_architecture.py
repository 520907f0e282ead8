"""The code's shape: no import cycles, and every rule has exactly one owner."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import REPO

from mockpolicy.checks import FAMILIES
from mockpolicy.findings import Finding
from mockpolicy.rules import ALL_RULES, ANALYSIS_ERROR, BASELINE_GREW, COVERAGE_RULES, TEST_POLLUTION

PACKAGES = ("mockpolicy", "pylint_plugins")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _import_graph() -> dict[str, set[str]]:
    """Our modules -> our modules they import anywhere in their source: at top
    level, inside functions, or under ``if TYPE_CHECKING:`` alike."""
    files = {_module_name(path): path for package in PACKAGES for path in (REPO / package).rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_bytes())):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = name.split(".")[: len(name.split(".")) - node.level + (1 if is_package else 0)]
                    base = ".".join([*parts, *([node.module] if node.module else [])])
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base for alias in node.names]
            for target in targets:
                while target and target not in files:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(graph[node]):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycles() -> None:
    graph = _import_graph()
    assert "mockpolicy.engine" in graph["mockpolicy.cli"]  # the graph sees our imports
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_cycles() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_every_static_rule_belongs_to_exactly_one_family() -> None:
    owned = [rule for family in FAMILIES for rule in family.rules]
    assert len(owned) == len(set(owned))
    # Not static: reported by the CLI itself, from coverage data, or from a runtime record's merge.
    elsewhere = {ANALYSIS_ERROR, BASELINE_GREW, TEST_POLLUTION} | {rule for rule in ALL_RULES if rule.symbol in COVERAGE_RULES}
    assert set(owned) | elsewhere == set(ALL_RULES)
    assert not set(owned) & elsewhere
    assert len({family.name for family in FAMILIES}) == len(FAMILIES)


def test_each_family_reports_only_its_own_rules() -> None:
    """Run the families over the example and functional projects, noting which
    family yielded each finding."""
    from dataclasses import replace

    from mockpolicy.analysis import Analysis, Check
    from mockpolicy.engine import Engine, Session

    emitted: dict[str, set[str]] = {family.name: set() for family in FAMILIES}

    def noting(name: str, check: Check) -> Check:
        def noted(analysis: Analysis) -> list[Finding]:
            found = list(check(analysis))
            emitted[name].update(finding.symbol for finding in found)
            return found
        return noted

    families = [replace(family, check=noting(family.name, family.check)) for family in FAMILIES]
    projects = [REPO / "examples" / "shop", REPO / "tests" / "functional_project"]
    files = [path for project in projects for path in sorted(project.rglob("*.py")) if "src" not in path.parts]
    engines: dict[Path, Engine] = {}
    for path in files:
        project = Session().engine_for(path).project
        engines.setdefault(project.root, Engine(project, families=families)).analyse_file(path)
    for family in FAMILIES:
        assert emitted[family.name] == {rule.symbol for rule in family.rules}, family.name


def _imports(path: Path) -> set[str]:
    """The top-level names of the absolute imports of the module at ``path``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            names |= {alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.partition(".")[0])
    return names


def test_dependencies_are_what_the_package_imports() -> None:
    import sys

    import tomllib

    # mockpolicy.runtime is a pytest plugin, imported by pytest only: pytest is there whenever it runs.
    runtime = REPO / "mockpolicy" / "runtime"
    imported: set[str] = set()
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            imported |= _imports(path) - ({"pytest", "_pytest"} if runtime in path.parents else set())
    third_party = imported - set(sys.stdlib_module_names) - set(PACKAGES) - {"__future__"}
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    declared = [*project["dependencies"], *project["optional-dependencies"]["report"]]  # the report extra: mockpolicy.report
    names = {ast.literal_eval(repr(spec)).split(";")[0].split(">")[0].split("<")[0].split("=")[0].strip() for spec in declared}
    assert names == third_party | {"tomli"}  # tomli: tomllib's backport, imported on Python 3.10 only


_EMPTY_CONTAINERS = ("dict", "list", "set", "defaultdict", "collections.defaultdict", "OrderedDict")


def _module_level_caches(tree: ast.Module) -> list[str]:
    """Top-level assignments of an empty container: state that outlives a run."""
    found = []
    for node in tree.body:
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if isinstance(value, (ast.Dict, ast.List, ast.Set)):
            empty = not (value.keys if isinstance(value, ast.Dict) else value.elts)
        else:
            empty = isinstance(value, ast.Call) and ast.unparse(value.func) in _EMPTY_CONTAINERS
        if empty:
            found.append(ast.unparse(node))
    return found


def test_the_engine_keeps_no_state_in_module_level_containers() -> None:
    # The engine lives in pylint's process for a whole run (or an editor's, for
    # days): what it learns lives in a Session, dropped when pylint closes the
    # checker. The runtime recorder runs inside the tests' own process instead.
    engine = [p for p in sorted((REPO / "mockpolicy").rglob("*.py")) if "runtime" not in p.parts]
    engine += sorted((REPO / "pylint_plugins").rglob("*.py"))
    found = {str(p.relative_to(REPO)): _module_level_caches(ast.parse(p.read_text())) for p in engine}
    assert {path: caches for path, caches in found.items() if caches} == {}
    assert _module_level_caches(ast.parse("_SEEN: dict[int, str] = {}\nTABLE = {'a': 1}\nNAMES = set()\n")) == [
        "_SEEN: dict[int, str] = {}", "NAMES = set()"]
