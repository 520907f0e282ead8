"""Rule families. Each module declares its rules (in ``mockpolicy.rules``), a
``check(analysis)`` that yields their findings, and a ``FAMILY`` binding them
with the pre-filter the family needs.

``FAMILIES`` is the one list the engine runs, in this order; a family that
reports what others noted (``annotation_reasons``) comes after them.
"""

from __future__ import annotations

from mockpolicy.analysis import Family
from mockpolicy.checks import (
    annotation_reasons,
    fakes,
    fidelity,
    first_party,
    hygiene,
    partial_mocks,
    tautology,
    where_looked_up,
)

FAMILIES: tuple[Family, ...] = (
    first_party.FAMILY,
    tautology.FAMILY,
    fidelity.FAMILY,
    fakes.FAMILY,
    where_looked_up.FAMILY,
    hygiene.FAMILY,
    partial_mocks.FAMILY,
    annotation_reasons.FAMILY,
)
