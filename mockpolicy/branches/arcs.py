"""The arcs of a branch arm: what coverage.py records when a test takes it.

An ``if``/``else`` arm is taken when its arc runs, an ``except`` arm when the
handler's first line runs, a whole function when any of its lines runs.
What coverage cannot tell apart (a conditional expression's arms, an ``if``
whose body shares its line, a one-line handler) has no arcs and is not judged.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from mockpolicy.coverage_data import Arc
from mockpolicy.coverage_parser import ParsedSource
from mockpolicy.partials import Branch


@dataclass(frozen=True)
class Arm:
    """A measurable branch of ``file`` (relative to the project root): taken
    when one of ``arcs`` runs or one of ``lines`` runs."""

    file: str
    arcs: frozenset[Arc] = frozenset()
    lines: frozenset[int] = frozenset()


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
        arcs |= arm_arcs(parsed, node, arm)
    return Arm(relative, arcs=frozenset(arcs)) if arcs else None


def arm_arcs(parsed: ParsedSource, node: ast.If | ast.While, arm: str) -> set[Arc]:
    """The arcs taking ``arm`` (``if`` or ``else``) of ``node``; none when its
    body shares the test's line (``if x: return``), where coverage's arcs
    cannot tell the arms apart."""
    line = parsed.first_line(node.lineno)
    true_destination = parsed.first_line(node.body[0].lineno)
    if true_destination == line:
        return set()
    destinations = parsed.destinations(line)
    if arm == "if":
        return {(line, true_destination)} if true_destination in destinations else set()
    return {(line, d) for d in destinations if d != true_destination}
