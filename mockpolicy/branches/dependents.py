"""The branches that depend on a mocked call: ``if``/``while`` arms of the
first-party callers of the mocked function whose test contains the call or
reads a name assigned from it. Found statically; ``verify`` asks the data
which of them a mock's tests never take."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from mockpolicy.analysis import Analysis
from mockpolicy.branches.arcs import arm_arcs
from mockpolicy.branches.resolve import Documented
from mockpolicy.branches.sources import Sources
from mockpolicy.coverage_data import Arc
from mockpolicy.functions import own_nodes
from mockpolicy.index import module_name_for
from mockpolicy.partials import BranchRef, normalized_expression
from mockpolicy.symbols import Kind, Value
from mockpolicy.vocabulary import callee_name


@dataclass(frozen=True)
class Dependent:
    """An arm, in ``file`` (relative to the project root), of a condition on
    ``line`` (its first line) that depends on the mocked call; ``arcs`` take it."""

    reference: BranchRef
    file: str
    line: int
    arcs: frozenset[Arc]


def dependents(
    analysis: Analysis, root: Path, measured: list[str], target: Value, documented: list[Documented], sources: Sources
) -> list[Dependent]:
    """The arms depending on calls of ``target`` in the ``measured`` files
    (relative to ``root``) that mention its name, minus those ``documented``
    lists (by function, arc or condition). Call inside an ``Engine.inspect`` job."""
    if target.function is None:
        return []
    name = target.function.name
    found: list[Dependent] = []
    for relative in measured:
        path = root / relative
        text = sources.text(path)
        if text is None or name not in text:
            continue
        source = sources.get(path)
        if source is None:
            continue
        module, _ = module_name_for(path)
        for qualname, function in _functions(source.tree, module):
            for node in _dependent_conditions(analysis, module, qualname, function, target, name):
                line = source.parsed.first_line(node.lineno)
                for arm in ("if", "else"):
                    arcs = arm_arcs(source.parsed, node, arm)
                    if not arcs:
                        continue
                    condition = " ".join((ast.get_source_segment(source.text, node.test) or ast.unparse(node.test)).split())
                    reference = BranchRef(arm, qualname, condition)
                    if not _listed_in(documented, reference, relative, arcs):
                        found.append(Dependent(reference, relative, line, frozenset(arcs)))
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
    analysis: Analysis, module: str, qualname: str, function: ast.FunctionDef | ast.AsyncFunctionDef,
    target: Value, name: str,
) -> list[ast.If | ast.While]:
    named = [node for node in own_nodes(function) if isinstance(node, ast.Call) and callee_name(node.func) == name]
    calls = [node for node in named if _calls_target(analysis, module, qualname, function, node, target)] if named else []
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


def _calls_target(
    analysis: Analysis, module: str, qualname: str, function: ast.FunctionDef | ast.AsyncFunctionDef,
    call: ast.Call, target: Value,
) -> bool:
    """Whether ``call`` calls the mocked function: what it resolves to inside
    ``function`` (``self`` is an instance of its class), never its name alone, so
    ``table.get(key)`` on a dict is not a call of a mocked ``Queue.get``."""
    resolver = analysis.resolver
    info = resolver.index.get(module)
    if info is None:
        return False
    owner = resolver.resolve_dotted(qualname.rpartition(".")[0])
    try:
        value = resolver.evaluate(call.func, resolver.function_scope(function, info, owner.cls))
    except RecursionError:
        return False
    if value.kind is Kind.FUNCTION:
        return (value.module, value.qualname) == (target.module, target.qualname)
    if value.kind is Kind.EXTERNAL:
        return value.qualname.rpartition(".")[2] == target.qualname.rpartition(".")[2]
    return False


def _listed_in(documented: list[Documented], reference: BranchRef, relative: str, arcs: set[Arc]) -> bool:
    wanted = normalized_expression(reference.text)
    for item in documented:
        listed = item.entry.reference
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
