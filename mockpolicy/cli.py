"""The ``mockpolicy`` command: ``check``, ``review``, ``baseline``, ``prune`` and ``explain``.

``main(argv) -> int`` returns an exit status: 0 clean, 1 findings, 2 usage or
configuration error (one sentence on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import functools
import gc
import os
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TextIO

from mockpolicy import __version__, baseline, gitio
from mockpolicy.diffs import FILTERS
from mockpolicy.engine import Session
from mockpolicy.errors import MockpolicyError
from mockpolicy.findings import Finding
from mockpolicy.formats import FORMATS, Context, emit
from mockpolicy.identity import Identity, count_identities
from mockpolicy.printable import printable
from mockpolicy.project import Project, find_root, load_project, resolved
from mockpolicy.rules import ALL_RULES, COVERAGE_RULES, RUNTIME_RULES, STATIC_RULES, doc_text, lookup

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
SKIPPED_DIRS = frozenset({"__pycache__", "node_modules", "site-packages"})


class UsageError(MockpolicyError):
    """A problem with the command line or the project's files; exit status 2."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mockpolicy", description="Enforce a mock policy in a Python test suite."
    )
    parser.add_argument("--version", action="version", version=f"mockpolicy {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def analysing(name: str, help_text: str) -> argparse.ArgumentParser:
        command = commands.add_parser(name, help=help_text)
        command.add_argument("paths", nargs="*", help="files or folders (default: the project's tests)")
        command.add_argument(
            "-j", "--jobs", type=_jobs, default=1, metavar="N", help="analyse with N processes (0: one per CPU)"
        )
        return command

    check = analysing("check", "run every static rule; report what the baseline does not allow")
    check.add_argument("--format", choices=FORMATS, default="text", help="output format")
    check.add_argument("--no-baseline", action="store_true", help="report every finding, ignoring the baseline")
    check.add_argument("--allow-stale", action="store_true", help="do not fail on baseline entries nothing matches")
    check.add_argument(
        "--base", metavar="REF", help="also fail when the baseline allows more than it does at git REF (the ratchet)"
    )
    review = analysing("review", "report new findings on the lines a change adds; optionally post them to GitHub")
    review.add_argument("--base", required=True, metavar="REF", help="review the change since the merge base of REF and HEAD")
    review.add_argument("--filter", choices=FILTERS, default="added", dest="filter_mode",
                        help="which findings of changed files to report (reviewdog's names; default: added)")
    review.add_argument("--format", choices=FORMATS, default="text", help="output format")
    review.add_argument("--data", metavar="PATH", help="coverage data for coverage-based findings (needs the branches reporter)")
    review.add_argument("--post", choices=("github",), help="post the findings as a pull-request review")
    review.add_argument("--pr", type=_pr_number, metavar="N", help="the pull request to post to (with --post)")
    record = analysing("baseline", "record every current finding in the baseline file")
    record.add_argument("--force", action="store_true", help="replace an existing baseline file")
    prune = analysing("prune", "drop baseline entries that no longer match and lower counts")
    branches = analysing("branches", "check '# mock-partial:' blocks against coverage data of a test run")
    branches.add_argument("--data", default=".coverage", metavar="FILE", help="coverage data file (default: .coverage)")
    branches.add_argument("--format", choices=FORMATS, default="text", help="output format")
    branches.add_argument("--no-baseline", action="store_true", help="report every finding, ignoring the baseline")
    branches.add_argument("--allow-stale", action="store_true", help="do not fail on baseline entries nothing matches")
    branches.add_argument(
        "--base", metavar="REF", help="also fail when the baseline allows more than it does at git REF (the ratchet)"
    )
    branches.add_argument("--fix", action="store_true", help="rewrite the blocks' 'untested:' lines from the data")
    for command in (record, prune):
        command.add_argument(
            "--data", metavar="FILE", help="also record (or prune) coverage-based findings from this coverage data"
        )
    for command in (check, review, record, prune):
        command.add_argument(
            "--runtime", metavar="PATH", help="merge the runtime record at PATH (`pytest --mockpolicy-record`)"
        )
    explain = commands.add_parser("explain", help="print the documentation of a rule")
    explain.add_argument("rule", help="a rule symbol (first-party-mock) or message id (W7301)")
    return parser


def _pr_number(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a pull request number, got '{text}'")
    return int(text)


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of processes, got '{text}'") from None
    if value < 0:
        raise argparse.ArgumentTypeError("the number of processes cannot be negative")
    return value or (os.cpu_count() or 1)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "explain":
            return _explain(args.rule)
        if args.command == "branches":
            run = _collect_coverage(args.paths, Path(args.data), args.fix)
            return _check(run, args.format, args.no_baseline, args.allow_stale, args.base, COVERAGE_RULES)
        if args.command == "review" and (args.post is None) != (args.pr is None):
            raise UsageError("--post and --pr go together: `--post github --pr N`.")
        run = _collect(args.paths, args.jobs)
        if args.runtime is not None:
            from mockpolicy.runtime.merge import merge

            merged = merge(run.project, run.files, run.findings, Path(args.runtime))
            run = replace(run, findings=merged, with_runtime=True)
        if args.command == "review":
            return _review(run, args)
        data = getattr(args, "data", None)
        if data is not None:
            covered = coverage_findings(run.project, run.files, Path(data), fix=False)
            run = replace(run, findings=sorted([*run.findings, *covered]), with_coverage=True)
        if args.command == "baseline":
            return _record(run, args.force)
        if args.command == "prune":
            return _prune(run)
        rules = STATIC_RULES | RUNTIME_RULES if run.with_runtime else STATIC_RULES
        return _check(run, args.format, args.no_baseline, args.allow_stale, args.base, rules)
    except MockpolicyError as exc:
        _say(f"mockpolicy: error: {exc}", file=sys.stderr)
        return EXIT_USAGE


def _say(text: str, file: TextIO | None = None) -> None:
    """Print one line of ``text`` with its control characters escaped."""
    print(printable(text), file=file or sys.stdout)


def _explain(name: str) -> int:
    rule = lookup(name)
    if rule is None:
        known = ", ".join(r.symbol for r in ALL_RULES)
        raise UsageError(f"unknown rule '{name}' (known rules: {known}).")
    text = doc_text(rule)
    if text is None:
        raise UsageError(f"the documentation of '{rule.symbol}' is missing from this installation.")
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return EXIT_OK


@dataclass(frozen=True)
class Run:
    """One analysis: the project, what was asked for, the files read, the findings."""

    project: Project
    roots: list[Path]
    files: list[Path]
    findings: list[Finding]
    with_coverage: bool = False  # whether ``findings`` include coverage-based ones
    with_runtime: bool = False  # whether a runtime record was merged into ``findings``

    def covers(self, relative: str) -> bool:
        """Whether a baseline entry's path lies in what this run looked at: a file
        it analysed, or a file now gone from one of the folders it walked."""
        if relative in self.analysed:
            return True
        path = self.project.root / relative
        return not path.exists() and any(root == path or root in path.parents for root in self.roots)

    @functools.cached_property
    def analysed(self) -> frozenset[str]:
        return frozenset(self.project.relative(path) for path in self.files)


def _collect(paths: list[str], jobs: int) -> Run:
    project, roots = _project_and_roots(paths)
    files = sorted(set(_python_files(roots)))
    return Run(project, roots, files, analyse_files(files, jobs))


def coverage_findings(project: Project, files: list[Path], data: Path, fix: bool = False) -> list[Finding]:
    """The branches reporter's findings, its notes printed on stderr (also
    those gathered before an error); imported on use: it needs coverage.py."""
    from mockpolicy import branches

    notes: list[str] = []
    try:
        return branches.coverage_findings(project, files, data, fix, notes)
    finally:
        for note in notes:
            _say(note, file=sys.stderr)


def _collect_coverage(paths: list[str], data: Path, fix: bool) -> Run:
    project, roots = _project_and_roots(paths)
    files = sorted(set(_python_files(roots)))
    return Run(project, roots, files, coverage_findings(project, files, data, fix), with_coverage=True)


def _project_and_roots(paths: list[str]) -> tuple[Project, list[Path]]:
    if paths:
        roots = [Path(p) for p in paths]
        for root in roots:
            if not root.exists():
                raise UsageError(f"path '{root}' does not exist.")
        project = load_project(find_root(roots[0]))
    else:
        project = load_project(find_root(Path.cwd()))
        roots = list(project.test_paths)
    return project, [resolved(root) for root in roots]


def _check(
    run: Run, fmt: str, no_baseline: bool, allow_stale: bool, base: str | None, rules: frozenset[str]
) -> int:
    """Report ``run``'s findings the baseline does not allow; only baseline
    entries of ``rules`` (the rules this run can find) can be stale."""
    path = run.project.baseline_path
    stale: list[tuple[Identity, int, int]] = []
    findings = run.findings
    current = baseline.Baseline.empty()
    if not no_baseline and baseline.exists(path):
        current = baseline.load(path)
        findings, stale = baseline.compare(baseline.select(current, rules), run.findings, run.covers)
    new = {id(f) for f in findings}
    emit(findings, fmt, Context(run.project.root, [f for f in run.findings if id(f) not in new]), sys.stdout)
    shown = run.project.relative(path)
    for identity, allowed, found in stale:
        _say(
            f"{shown}: stale: {identity.rule} in {identity.path} ({identity.scope or '<module>'}) "
            f"is allowed {allowed} time(s) but found {found}: run `mockpolicy prune`",
            file=sys.stderr,
        )
    failed = bool(findings) or (bool(stale) and not allow_stale)
    if base is not None:
        failed = _ratchet(path, shown, current, base) or failed
    return EXIT_FINDINGS if failed else EXIT_OK


def _ratchet(path: Path, shown: str, current: baseline.Baseline, base: str) -> bool:
    """Whether the baseline allows more than its version at ``base`` (reported on stderr)."""
    if not baseline.exists(path):
        return False
    text = gitio.show(path, base)
    before = baseline.parse(text, f"{shown} at {base}") if text is not None else baseline.Baseline.empty()
    grown = baseline.grown(before, current)
    for identity, old, new in grown:
        _say(
            f"{shown}: grew against {base}: {identity.rule} in {identity.path} "
            f"({identity.scope or '<module>'}) allowed {new} time(s), was {old}: "
            f"{current.excerpts.get(identity, '')}",
            file=sys.stderr,
        )
    return bool(grown)


def _review(run: Run, args: argparse.Namespace) -> int:
    from mockpolicy.review import review

    findings = list(run.findings)
    if args.data is not None:
        findings = sorted(findings + coverage_findings(run.project, run.files, Path(args.data)))
    change = review(run.project, findings, args.base, args.filter_mode)
    context = Context(run.project.root, change.baselined)
    if args.post == "github":
        from mockpolicy.github_review import post_or_fall_back

        post_or_fall_back(run.project.root, args.pr, change, context)
    else:
        emit(change.findings, args.format, context, sys.stdout)
    return EXIT_FINDINGS if change.findings else EXIT_OK


def _record(run: Run, force: bool) -> int:
    path = run.project.baseline_path
    with baseline.locked(path):
        return _record_locked(run, path, force)


def _record_locked(run: Run, path: Path, force: bool) -> int:
    shown = run.project.relative(path)
    if baseline.exists(path):
        if not force:
            raise UsageError(f"{shown} already exists; use --force to replace it, or `mockpolicy prune` to shrink it.")
        previous = baseline.load(path)  # a broken file is reported, never replaced
        # Entries of files this run did not look at stay; so do coverage and runtime entries, unless this run judged them.
        kept = baseline.where(previous, lambda identity: not run.covers(identity.path) or (
            identity.rule in COVERAGE_RULES and not run.with_coverage) or (
            identity.rule in RUNTIME_RULES and not run.with_runtime))
    else:
        kept = baseline.Baseline.empty()
    recorded = baseline.merge(baseline.from_findings(run.findings), kept)
    baseline.write(path, recorded)
    total = sum(recorded.counts.values())
    _say(f"{shown}: recorded {total} finding(s) in {len(recorded.counts)} entr{'y' if len(recorded.counts) == 1 else 'ies'}.")
    return EXIT_OK


def _prune(run: Run) -> int:
    path = run.project.baseline_path
    baseline.load(path)  # a missing or broken baseline fails before anything is locked or created
    with baseline.locked(path):
        return _prune_locked(run, path, baseline.load(path))


def _prune_locked(run: Run, path: Path, before: baseline.Baseline) -> int:
    shown = run.project.relative(path)
    current = count_identities(f for f in run.findings if f.symbol not in baseline.NEVER_BASELINED)
    unjudged = (COVERAGE_RULES if not run.with_coverage else frozenset()) | (
        RUNTIME_RULES if not run.with_runtime else frozenset())
    judged = baseline.select(before, unjudged, keep=False)
    covered = [identity.path for identity in judged.counts if run.covers(identity.path)]
    after, changed = baseline.shrink(judged, current, covered)
    if unjudged:  # coverage (runtime) entries need coverage data (a record) to be judged: kept as they are
        after = baseline.merge(after, baseline.select(before, unjudged))
    for identity, old, new in changed:
        what = "removed" if new == 0 else f"lowered {old} -> {new}"
        _say(f"{shown}: {what}: {identity.rule} in {identity.path} ({identity.scope or '<module>'}): "
              f"{before.excerpts.get(identity, '')}")
    if changed:
        baseline.write(path, after)
    else:
        _say(f"{shown}: nothing to prune.")
    return EXIT_OK


def _python_files(roots: list[Path]) -> Iterator[Path]:
    """The .py files under ``roots``; files named explicitly are always included,
    files found by walking folders skip hidden folders, virtualenvs and the
    project's ``exclude`` patterns."""
    for root in roots:
        root = resolved(root)
        if root.is_file():
            yield root
            continue
        project = load_project(find_root(root))
        for directory, subdirs, names in os.walk(root):
            here = Path(directory)
            subdirs[:] = sorted(
                d for d in subdirs
                if not d.startswith(".") and d not in SKIPPED_DIRS
                and not (here / d / "pyvenv.cfg").exists() and not project.is_excluded(here / d)
            )
            for name in names:
                if name.endswith(".py") and not project.is_excluded(here / name):
                    yield here / name


def analyse_files(files: Sequence[Path], jobs: int) -> list[Finding]:
    """Findings for ``files``, paths relative to each file's project root, sorted.

    With ``jobs`` > 1 the files are shared among at most that many worker
    processes (never more than there are files), each with its own session;
    workers end with their parent.
    """
    workers = min(jobs, len(files))
    if workers > 1:
        chunk = max(1, len(files) // (workers * 8))
        with ProcessPoolExecutor(max_workers=workers, initializer=_start_worker) as pool:
            batches = list(pool.map(_analyse_in_worker, files, chunksize=chunk))
    else:
        session = Session()
        batches = [_analyse_one(session, path) for path in files]
    return sorted(finding for batch in batches for finding in batch)


def _analyse_one(session: Session, path: Path) -> list[Finding]:
    engine = session.engine_for(path)
    relative = engine.project.relative(path)
    return [replace(f, path=relative) for f in engine.analyse_file(path)]


_worker_session: Session | None = None  # the session of a worker process (see _start_worker)


def _start_worker() -> None:
    """Set up a worker process: its own session, and death with its parent."""
    global _worker_session
    _worker_session = Session()
    _die_with_parent()


def _analyse_in_worker(path: Path) -> list[Finding]:
    assert _worker_session is not None
    return _analyse_one(_worker_session, path)


def _die_with_parent() -> None:
    """Ask Linux to end this process when its parent dies (a no-op elsewhere)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return


def console_main() -> None:
    """The ``mockpolicy`` program. In its own process the cyclic garbage
    collector stays off: analysis leaves no reference cycles behind (syntax
    trees have none, and ``TestModule.release`` breaks the rest), and not
    re-traversing the growing symbol index halves the time of a large run."""
    gc.disable()
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    console_main()
