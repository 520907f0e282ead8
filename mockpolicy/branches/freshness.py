"""Refusing coverage data that cannot judge today's blocks: data of another
project or of other tests.
"""

from __future__ import annotations

from mockpolicy.branches.mocks import MockUnderTest
from mockpolicy.coverage_data import HOW_TO_RUN, CoverageData, CoverageDataError


def refuse_unrelated(data: CoverageData, measured: list[str], mocks: list[MockUnderTest]) -> None:
    """Raise ``CoverageDataError`` when ``data`` measures none of the project's
    files (``measured``) nor any file an entry names, or holds none of the
    tests the ``mocks`` apply to: data of another project, or of other tests."""
    if not measured and not any(data.file_id(file) is not None for file in _arm_files(mocks)):
        raise CoverageDataError(
            f"{data.path} measures no file of this project; it was recorded for another project "
            f"(or --cov named none of its packages): run this project's tests with `{HOW_TO_RUN}`."
        )
    tests = sorted({test for mock in mocks for test in mock.tests})
    if tests and not any(data.matching_tests(test) for test in tests):
        shown = ", ".join(tests[:2]) + (f" and {len(tests) - 2} more" if len(tests) > 2 else "")
        raise CoverageDataError(
            f"{data.path} holds none of the tests the mocks apply to ({shown}; node ids relative to the "
            f"project root), so it cannot judge their blocks; run them with `{HOW_TO_RUN}`."
        )


def _arm_files(mocks: list[MockUnderTest]) -> set[str]:
    return {documented.arm.file for mock in mocks for documented in mock.documented if documented.arm is not None}
