"""Refusing coverage data that cannot judge today's blocks: data of another
project or of other tests, and data older than the source it would judge.

coverage.py keeps no hash or time of the files it measures (its ``meta``
table holds a hash of the data itself, and a ``when`` only for some data
files), so a measured file has changed since the run when the data records a
line where today's file has no code (lines inserted or removed above it now
put a recorded line on a blank line, a comment or past the end), or, for data
recorded in this checkout, when the file is newer than the data file. Times
of another checkout's files say nothing (a clone is newer than any data), so
data mapped in from elsewhere is judged by its lines alone. Only the files
whose arcs a verdict reads are checked.
"""

from __future__ import annotations

import ast
from pathlib import Path

from mockpolicy.branches.mocks import MockUnderTest
from mockpolicy.branches.sources import Sources
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


def refuse_stale(data: CoverageData, root: Path, mocks: list[MockUnderTest], sources: Sources) -> None:
    """Raise ``CoverageDataError`` naming the first file (in path order) whose
    arcs a verdict on ``mocks`` reads and that changed after ``data`` was recorded."""
    consulted = _arm_files(mocks) | {dependent.file for mock in mocks for dependent in mock.dependents}
    for relative in sorted(consulted):
        file_id = data.file_id(relative)
        if file_id is None:
            continue
        path = root / relative
        stale = f"{data.path} is stale: {relative} changed after the tests ran"
        try:
            modified = path.stat().st_mtime_ns
        except OSError:
            continue  # not readable: its entries cannot be resolved either
        if relative in data.recorded_here and modified > data.recorded_ns:
            raise CoverageDataError(f"{stale} (it is newer than the data); run them again (`{HOW_TO_RUN}`).")
        source = sources.get(path)
        if source is None:
            continue
        code = _code_lines(source.tree)
        recorded = data.recorded_lines(file_id)
        moved = sorted(recorded - code - {0, 1})  # 0: an empty module's line; -1: a module's entry and exit
        if moved:
            raise CoverageDataError(
                f"{stale} (the data records line {moved[0]}, where today's file has no code); "
                f"run them again (`{HOW_TO_RUN}`)."
            )


def _arm_files(mocks: list[MockUnderTest]) -> set[str]:
    return {documented.arm.file for mock in mocks for documented in mock.documented if documented.arm is not None}


def _code_lines(tree: ast.Module) -> set[int]:
    """The lines where a statement, expression or other located node starts:
    every line a Python version can report running (a line of bytecode, a code
    object's first line), and not only those this interpreter would."""
    return {line for node in ast.walk(tree) if isinstance(line := getattr(node, "lineno", None), int)}
