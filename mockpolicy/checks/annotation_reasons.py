"""``mock-annotation-without-reason``: a ``# mock-boundary:`` or
``# mock-isolation:`` annotation that excused a mock without saying why.

The families that honour annotations note each reason-less one they used
(``Analysis.reasonless``); this family runs after them and reports the notes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from mockpolicy.analysis import Analysis, Family
from mockpolicy.findings import Finding
from mockpolicy.rules import ANNOTATION_WITHOUT_REASON


def check(analysis: Analysis) -> Iterator[Finding]:
    yield from analysis.reasonless


FAMILY = Family(
    "annotation-reasons", (ANNOTATION_WITHOUT_REASON,), check, re.compile(rb"mock-(?:boundary|isolation)"),
    reads_notes=True,
)
