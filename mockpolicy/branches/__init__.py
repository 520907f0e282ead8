"""``mockpolicy branches``: ``# mock-partial:`` blocks checked against the
coverage data of a real test run, and rewritten from it with ``--fix``.

One job per module: ``sources`` reads the measured files, ``arcs`` says what
coverage records for a branch arm, ``resolve`` maps ``untested:`` entries to
arms, ``dependents`` finds the branches depending on a mocked call, ``mocks``
describes each mock from its file's analysis (``comments`` says which lines
are comments), ``freshness`` refuses data that cannot judge them (another
project's, other tests', older than the source), ``verify`` judges them
against the data (``mockpolicy.coverage_data``, the only reader of coverage
files), ``rewrite`` applies ``--fix`` and ``sysmon`` warns about a core that
records no per-test contexts. Nothing here prints: notes come back to the caller.
"""

from __future__ import annotations

from pathlib import Path

from mockpolicy.branches.freshness import refuse_stale, refuse_unrelated
from mockpolicy.branches.mocks import collect
from mockpolicy.branches.rewrite import rewrite
from mockpolicy.branches.sources import Sources
from mockpolicy.branches.sysmon import sysmon_warning
from mockpolicy.branches.verify import check
from mockpolicy.coverage_data import CoverageData
from mockpolicy.engine import Engine, Session
from mockpolicy.findings import Finding
from mockpolicy.index import module_name_for
from mockpolicy.project import Project

__all__ = ["coverage_findings"]


def coverage_findings(
    project: Project, files: list[Path], data_path: Path, fix: bool = False, notes: list[str] | None = None,
    add_blocks: bool = False, diffs: list[str] | None = None,
) -> list[Finding]:
    """Coverage-based findings for the blocks in ``files`` (paths relative to
    the project root, sorted). With ``fix``, the blocks are rewritten first
    and the findings are those of the rewritten files; ``add_blocks`` lets
    ``fix`` insert a block above each partial mock without one. With ``diffs``,
    ``fix`` writes nothing: the unified diff of each file it would rewrite is
    appended to ``diffs``, and the findings are those of the files as they are. Notes for the user
    (warnings, what could not be checked, the files rewritten; one line each)
    are appended to ``notes`` as they arise, so a caller still has them when
    this raises. Raises ``MockpolicyError`` (``CoverageDataError`` for data it
    cannot use)."""
    notes = [] if notes is None else notes
    modules = {module_name_for(path)[0]: project.relative(path) for path in files}
    data = CoverageData(data_path, project.root, modules)
    try:
        warning = sysmon_warning(project)
        if warning is not None:
            notes.append(warning)
        if not files:
            return []
        engine = Session().engine_for(files[0])
        measured = _measured(engine, data)
        sources = Sources()
        mocks = collect(engine, files, sources, measured, undocumented=fix and add_blocks)
        if not fix and not any(mock.block is not None for mock in mocks):  # --fix is starting already
            undocumented = collect(engine, files, sources, measured, undocumented=True)
            notes.append(no_blocks_note(sum(1 for mock in undocumented if mock.block is None)))
        refuse_unrelated(data, measured, mocks)
        refuse_stale(data, project.root, mocks, sources)
        verdict = check(data, mocks, notes)
        findings = verdict.findings
        if fix and add_blocks:
            for mock in mocks:
                if mock.block is None and mock.shared and verdict.missing.get(id(mock)):
                    notes.append(f"mockpolicy: note: {mock.path}:{mock.site_line}: several mocks share this line, so "
                                 "no block was added above it (it would be ambiguous); put each mock on its own line.")
        if fix and diffs is not None:
            rewrite(project.root, mocks, verdict.missing, findings, preview=diffs)
        elif fix:
            for relative in rewrite(project.root, mocks, verdict.missing, findings):
                notes.append(f"mockpolicy: rewrote the '# mock-partial:' blocks of {relative}")
            mocks = collect(engine, files, Sources(), measured, undocumented=False)
            findings = check(data, mocks, notes).findings
        return sorted(findings)
    finally:
        data.close()


def no_blocks_note(partial: int) -> str:
    """The one line a run with no ``# mock-partial:`` block prints: how many
    partial mocks ``mockpolicy check`` reports, and how to start."""
    mocks = f"{partial} partial mock{'s' if partial != 1 else ''}"
    return (
        f"mockpolicy: no '# mock-partial:' blocks to check; `mockpolicy check` reports {mocks} without one "
        "(undocumented-partial-mock): add a block above one (`mockpolicy explain undocumented-partial-mock`), "
        "or write them from this data with `mockpolicy branches --fix --add-blocks`."
    )


def _measured(engine: Engine, data: CoverageData) -> list[str]:
    """The measured files of this checkout, relative to its root, sorted (data
    from another checkout is mapped back in by ``CoverageData``)."""
    root = engine.project.root
    return [relative for relative in sorted(data.files) if not Path(relative).is_absolute() and (root / relative).is_file()]
