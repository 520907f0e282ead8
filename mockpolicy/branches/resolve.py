"""Resolving a block's ``untested:`` entries to the arms they name in today's
source (the project's or an installed library's)."""

from __future__ import annotations

from dataclasses import dataclass

from mockpolicy.analysis import Analysis
from mockpolicy.branches.arcs import Arm, arm_of
from mockpolicy.branches.sources import Sources
from mockpolicy.partials import Entry, find_branch
from mockpolicy.project import Project


@dataclass
class Documented:
    """One ``untested:`` entry; ``arm`` is None when it cannot be measured
    (a conditional expression), ``problem`` set when it names nothing."""

    entry: Entry
    arm: Arm | None = None
    problem: str | None = None


def resolve(project: Project, analysis: Analysis, entry: Entry, sources: Sources) -> Documented:
    """``entry`` of a block in the file of ``analysis``, resolved (call inside
    an ``Engine.inspect`` job: names are resolved as that file sees them)."""
    reference = entry.reference
    if reference is None:
        return Documented(entry, problem=entry.problem)
    if reference.arm == "arc":
        assert reference.arc is not None
        path = (project.root / reference.path).resolve()
        if project.root not in path.parents:
            return Documented(entry, problem=f"'{reference.path}' is not a file of the project")
        source = sources.get(path)
        if source is None:
            return Documented(entry, problem=f"'{reference.path}' is not a readable Python file of the project")
        if reference.arc not in source.parsed.arcs:
            return Documented(entry, problem=f"{reference} is not an arc coverage can record in {reference.path}")
        return Documented(entry, Arm(reference.path, arcs=frozenset({reference.arc})))
    function = analysis.function_named(reference.qualname)
    defined_in = analysis.source_path(function) if function is not None else None
    if function is None or function.function is None or defined_in is None:
        return Documented(entry, problem=f"'{reference.qualname}' is not a function or method in today's source")
    branch = find_branch(function.function, reference)
    if isinstance(branch, str):
        return Documented(entry, problem=branch)
    source = sources.get(defined_in)
    if source is None:
        return Documented(entry)
    return Documented(entry, arm_of(project.relative(defined_in), source.parsed, branch))
