"""The ``mockpolicy`` command: ``check``, ``review``, ``baseline``, ``prune``,
``branches``, ``report``, ``explain``, ``merge`` (of ``check --shard`` results)
and ``merge-baseline`` (git's merge driver for the baseline).

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
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TextIO

from mockpolicy import baseline, gitio, matching, shards, workers
from mockpolicy.cache import FindingsCache, cache_directory, summary_store
from mockpolicy.console import Progress, wants_colour
from mockpolicy.deps import digest
from mockpolicy.diffs import FILTERS
from mockpolicy.engine import Session, analysis_error
from mockpolicy.errors import MockpolicyError
from mockpolicy.findings import Finding
from mockpolicy.formats import FORMATS, Context, TrendPoint, emit, plain
from mockpolicy.identity import Identity
from mockpolicy.libraries import missing_requirements
from mockpolicy.printable import printable
from mockpolicy.project import Project, find_root, load_project, resolved
from mockpolicy.rules import (
    ALL_RULES,
    ANALYSIS_ERROR,
    COVERAGE_RULES,
    RULES_BY_SYMBOL,
    RUNTIME_RULES,
    STATIC_RULES,
    doc_text,
    lookup,
)
from mockpolicy.scopes import Scopes
from mockpolicy.selection import Selection
from mockpolicy.source import SourceError, read_source
from mockpolicy.suppressions import Suppressions
from mockpolicy.version import __version__

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a program a closed pipe stopped
MARKDOWN_TREND_DEPTH = 12  # versions of the baseline the Markdown summary's chart shows
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
        command.add_argument("--select", type=_rule_list, metavar="RULES",
                             help="comma-separated rules to run, replacing [tool.mockpolicy] select (symbols, ids, id prefixes, ALL)")
        command.add_argument("--extend-select", type=_rule_list, default=[], metavar="RULES", help="rules to run as well")
        command.add_argument("--ignore", type=_rule_list, default=[], metavar="RULES", help="rules not to run")
        command.add_argument("-q", "--quiet", action="store_true", help="print findings only: no summary or progress")
        command.add_argument("--no-cache", action="store_true",
                             help="neither read nor write the findings cache ([tool.mockpolicy] cache-dir)")
        return command

    def reporting(command: argparse.ArgumentParser) -> argparse.ArgumentParser:
        command.add_argument("--format", choices=FORMATS, default="text", help="output format")
        command.add_argument("-o", "--output-file", metavar="PATH", help="write the report to PATH instead of stdout")
        command.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
        command.add_argument("--path-prefix", metavar="PREFIX",
                             help="put PREFIX before paths in sarif/github/gitlab/rdjson (default: the project's folder in its git repository)")
        return command

    def judging(command: argparse.ArgumentParser) -> None:
        command.add_argument("--no-baseline", action="store_true", help="report every finding, ignoring the baseline")
        command.add_argument("--allow-stale", action="store_true", help="do not fail on baseline entries nothing matches")
        command.add_argument(
            "--base", metavar="REF", help="also fail when the baseline allows more than it does at git REF (the ratchet)"
        )

    check = reporting(analysing("check", "run every static rule; report what the baseline does not allow"))
    check.add_argument("--statistics", action="store_true", help="show the number of findings per rule instead of the findings")
    judging(check)
    check.add_argument("--shard", type=_shard, metavar="K/N",
                       help="analyse shard K of N (balanced by size) and write its result for `mockpolicy merge`")
    merge_shards = reporting(commands.add_parser(
        "merge", help="combine the results of `check --shard K/N` into the report one `check` would give"))
    merge_shards.add_argument("results", nargs="+", metavar="RESULT", help="the shards' result files")
    merge_shards.add_argument("-q", "--quiet", action="store_true", help="print findings only: no summary")
    merge_shards.add_argument("--statistics", action="store_true", help="show the number of findings per rule instead of the findings")
    judging(merge_shards)
    review = reporting(analysing("review", "report new findings on the lines a change adds; optionally post them to GitHub"))
    review.add_argument("--base", required=True, metavar="REF", help="review the change since the merge base of REF and HEAD")
    review.add_argument("--filter", choices=FILTERS, default="added", dest="filter_mode",
                        help="which findings of changed files to report (reviewdog's names; default: added)")
    review.add_argument("--data", metavar="PATH", help="coverage data for coverage-based findings (needs the branches reporter)")
    review.add_argument("--post", choices=("github",), help="post the findings as a pull-request review")
    review.add_argument("--pr", type=_pr_number, metavar="N", help="the pull request to post to (with --post)")
    record = analysing("baseline", "record every current finding in the baseline file")
    record.add_argument("--force", action="store_true", help="replace an existing baseline file")
    prune = analysing("prune", "drop baseline entries that no longer match and lower counts")
    branches = reporting(analysing("branches", "check '# mock-partial:' blocks against coverage data of a test run"))
    branches.add_argument("--data", default=".coverage", metavar="FILE", help="coverage data file (default: .coverage)")
    judging(branches)
    branches.add_argument("--fix", action="store_true", help="rewrite the blocks' 'untested:' lines from the data")
    branches.add_argument(
        "--add-blocks", action="store_true",
        help="with --fix: also insert a block above each partial mock that has none (plain --fix maintains existing blocks)",
    )
    branches.add_argument(
        "--diff", action="store_true", help="with --fix: print what it would change as a unified diff, and write nothing"
    )
    report = analysing("report", "write a self-contained HTML report of the suite's mock debt")
    report.add_argument("--output", default="mockpolicy-report.html", metavar="FILE",
                        help="where to write the page (default: mockpolicy-report.html)")
    report.add_argument("--history", type=_depth, default=30, metavar="N",
                        help="show the last N commits that changed the baseline file (default: 30)")
    report.add_argument("--data", metavar="FILE", help="also check '# mock-partial:' blocks against this coverage data")
    for command in (record, prune):
        command.add_argument(
            "--data", metavar="FILE", help="also record (or prune) coverage-based findings from this coverage data"
        )
    for command in (check, review, record, prune, report):
        command.add_argument(
            "--runtime", metavar="PATH", help="merge the runtime record at PATH (`pytest --mockpolicy-record`)"
        )
    explain = commands.add_parser("explain", help="print the documentation of a rule")
    explain.add_argument("rule", help="a rule symbol (first-party-mock) or message id (W7301)")
    merge = commands.add_parser(
        "merge-baseline", help="git's merge driver for the baseline file: merge THEIRS into OURS (see docs/baseline.md)"
    )
    merge.add_argument("base", metavar="BASE", help="the common ancestor's version (git's %%O)")
    merge.add_argument("ours", metavar="OURS", help="our version, replaced by the result (git's %%A)")
    merge.add_argument("theirs", metavar="THEIRS", help="their version (git's %%B)")
    return parser


def _pr_number(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a pull request number, got '{text}'")
    return int(text)


def _depth(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a number of commits, got '{text}'")
    return int(text)


def _rule_list(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def _shard(text: str) -> tuple[int, int]:
    try:
        return shards.parse_shard(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


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
        if args.command == "merge-baseline":
            return _merge_baseline(Path(args.base), Path(args.ours), Path(args.theirs))
        if args.command == "report":
            return _report(args)
        report = Report.from_args(args)
        if args.command == "merge":
            return _merge(args, report)
        if args.command == "branches":
            if (args.add_blocks or args.diff) and not args.fix:
                _say(f"mockpolicy: error: {'--add-blocks' if args.add_blocks else '--diff'} needs --fix", file=sys.stderr)
                return 2
            diffs: list[str] | None = [] if args.diff else None
            run = _filtered(
                _collect_coverage(args.paths, Path(args.data), args.fix, report, args.add_blocks, diffs), args
            )
            for diff in diffs or []:
                sys.stdout.write(diff)
            return _check(run, report, args.no_baseline, args.allow_stale, args.base, COVERAGE_RULES)
        if args.command == "review" and (args.post is None) != (args.pr is None):
            raise UsageError("--post and --pr go together: `--post github --pr N`.")
        shard = getattr(args, "shard", None)
        if shard is not None:
            _shard_alone(args)
        run = _with_runtime(_collect(args.paths, args.jobs, report, cache=not args.no_cache, shard=shard), args)
        if args.command == "review":
            return _review(_filtered(run, args), args, report)
        data = getattr(args, "data", None)
        if data is not None:
            covered = coverage_findings(run.project, run.files, Path(data), fix=False)
            run = replace(run, findings=sorted([*run.findings, *covered]), with_coverage=True)
        run = _filtered(run, args)
        if shard is not None:
            return _write_shard(run, shard, args, report)
        if args.command == "baseline":
            return _record(run, args.force)
        if args.command == "prune":
            return _prune(run)
        rules = STATIC_RULES | RUNTIME_RULES if run.with_runtime else STATIC_RULES
        return _check(run, report, args.no_baseline, args.allow_stale, args.base, rules)
    except MockpolicyError as exc:
        _say(f"mockpolicy: error: {exc}", file=sys.stderr)
        return EXIT_USAGE


@dataclass(frozen=True)
class Report:
    """How a command reports: format, destination, summary and exit habits."""

    fmt: str = "text"
    output_file: Path | None = None
    quiet: bool = False
    exit_zero: bool = False
    statistics: bool = False
    path_prefix: str | None = None  # None: the project's folder in its git repository

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Report:
        output = getattr(args, "output_file", None)
        return cls(getattr(args, "format", "text"), Path(output) if output else None, getattr(args, "quiet", False),
                   getattr(args, "exit_zero", False), getattr(args, "statistics", False), getattr(args, "path_prefix", None))

    def context(self, project: Project, baselined: Sequence[Finding] = ()) -> Context:
        """What the formats need, with paths put under the project's folder in its repository."""
        prefix = self.path_prefix
        if prefix is None:
            try:
                folder = project.root.relative_to(gitio.toplevel(project.root)).as_posix()
            except (MockpolicyError, ValueError):
                folder = "."  # not in a git repository: paths stay relative to the project
            prefix = "" if folder == "." else folder
        prefix = prefix.strip("/")
        trend = _trend(project) if self.fmt == "markdown" else []
        return Context(project.root, baselined, trend=trend, path_prefix=f"{prefix}/" if prefix else "")

    def status(self, failed: bool) -> int:
        return EXIT_FINDINGS if failed and not self.exit_zero else EXIT_OK

    def write(self, findings: Sequence[Finding], context: Context) -> None:
        """The findings (or their statistics) to stdout or the output file."""
        if self.output_file is None:
            self._write_to(sys.stdout, findings, context, wants_colour(sys.stdout))
            return
        try:
            with self.output_file.open("w", encoding="utf-8") as stream:
                self._write_to(stream, findings, context, colour=False)
        except OSError as exc:
            raise UsageError(f"cannot write {self.output_file}: {exc.strerror or exc}.") from None

    def write_text(self, text: str) -> None:
        """``text`` as it is, to stdout or the output file."""
        if self.output_file is None:
            sys.stdout.write(text)
            return
        try:
            self.output_file.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write {self.output_file}: {exc.strerror or exc}.") from None

    def _write_to(self, stream: TextIO, findings: Sequence[Finding], context: Context, colour: bool) -> None:
        if self.statistics:
            stream.write(plain.statistics_json(findings) if self.fmt == "json" else plain.statistics_text(findings, colour))
        else:
            emit(findings, self.fmt, context, stream, colour)

    def summary(self, text: str) -> None:
        """The closing line: after the findings on stdout for a text report, on stderr otherwise."""
        if self.quiet:
            return
        human = self.fmt == "text" and self.output_file is None and not self.statistics
        _say(text, file=sys.stdout if human else sys.stderr)


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
    everything: str = ""  # for a shard: the digest of every file of the whole run (see mockpolicy.shards)
    selection: Selection = Selection(frozenset(RULES_BY_SYMBOL))  # the rules this run reports
    skipped: tuple[str, ...] = ()  # files whose findings their ``# pylint: skip-file`` comment dropped

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

    @functools.cached_property
    def scopes(self) -> Scopes:
        """The scopes the project's files define now (read only when asked)."""
        return Scopes(self.project.root)


def _collect(
    paths: list[str], jobs: int, report: Report = Report(), cache: bool = False, shard: tuple[int, int] | None = None
) -> Run:
    project, roots, why = _project_and_roots(paths)
    files = sorted(set(_python_files(roots)))
    everything = ""
    if shard is not None:
        everything = shards.digest_of([project.relative(path) for path in files])
        files = shards.share(files, *shard)
        why += f"; shard {shard[0]}/{shard[1]}"
    # Said on a terminal, and anywhere when the whole project is walked for want of tests.
    if not report.quiet and (sys.stderr.isatty() or roots == [project.root] and not paths):
        _say(f"mockpolicy: analysing {len(files):,} file{'s' if len(files) != 1 else ''} under "
             f"{_listed(project, roots)} ({why})", file=sys.stderr)
    if not report.quiet and not project.first_party and "first-party" not in project.settings and files:
        _say(f"mockpolicy: note: no first-party package found under {project.root}, so first-party-mock "
             "has nothing to report; name the project's packages in [tool.mockpolicy] first-party, or put a "
             "pyproject.toml or setup.py in the folder holding them", file=sys.stderr)
    missing = missing_requirements(project) if not report.quiet and files else []
    if missing:
        named = ", ".join(missing[:_NAMED_AT_MOST]) + (", ..." if len(missing) > _NAMED_AT_MOST else "")
        _say(f"mockpolicy: note: {len(missing)} of the project's declared requirements ({named}) are not "
             "installed where mockpolicy reads libraries, so what the tests import from them is not known; "
             "run mockpolicy in the project's environment, or set VIRTUAL_ENV to it", file=sys.stderr)
    progress = Progress(sys.stderr, len(files), not report.quiet)
    return Run(project, roots, files, analyse_files(files, jobs, progress, cache), everything=everything)


_NAMED_AT_MOST = 5  # requirements a note names


def _shard_alone(args: argparse.Namespace) -> None:
    """Refuse options that judge findings on a shard: ``merge`` judges."""
    judging = [name for name, given in (
        ("--format", args.format != "text"), ("--statistics", args.statistics), ("--base", args.base is not None),
        ("--no-baseline", args.no_baseline), ("--allow-stale", args.allow_stale), ("--exit-zero", args.exit_zero),
        ("--path-prefix", args.path_prefix is not None),
    ) if given]
    if judging:
        raise UsageError(f"--shard leaves judging to `mockpolicy merge`: give {', '.join(judging)} to merge instead.")


def _write_shard(run: Run, shard: tuple[int, int], args: argparse.Namespace, report: Report) -> int:
    project = run.project
    result = shards.ShardResult(
        shard[0], shard[1], run.everything, [project.relative(root) for root in run.roots],
        sorted(project.relative(path) for path in run.files), run.findings,
        {"select": args.select, "ignore": args.ignore, "extend_select": args.extend_select}, list(run.skipped),
    )
    report.write_text(result.dumps())
    return EXIT_OK


def _merge(args: argparse.Namespace, report: Report) -> int:
    """Judge the shards' results together, as one ``check`` of all their files would."""
    result = shards.combined([Path(path) for path in args.results])
    project = load_project(find_root(Path.cwd()))
    options = result.options
    selection = project.selection.narrowed(options.get("select"), options.get("ignore") or [], options.get("extend_select") or [])
    run = Run(project, [project.root / root for root in result.roots], [project.root / name for name in result.files],
              result.findings, selection=selection, skipped=tuple(result.skipped))
    return _check(run, report, args.no_baseline, args.allow_stale, args.base, STATIC_RULES)


def _listed(project: Project, roots: list[Path]) -> str:
    shown = [project.relative(root) if root != project.root else "." for root in roots]
    return ", ".join(shown[:3]) + (f" and {len(shown) - 3} more" if len(shown) > 3 else "")


def _filtered(run: Run, args: argparse.Namespace) -> Run:
    """``run`` without the findings of rules not selected for their file (the
    project's selection, changed by --select/--extend-select/--ignore) and
    without those ``# pylint: disable`` comments suppress, as pylint would."""
    selection = run.project.selection.narrowed(
        getattr(args, "select", None), getattr(args, "ignore", []), getattr(args, "extend_select", [])
    )
    by_path: dict[str, list[Finding]] = {}
    for finding in run.findings:
        if selection.allows(finding.symbol, finding.path):
            by_path.setdefault(finding.path, []).append(finding)
    kept: list[Finding] = []
    suppressions = Suppressions()
    for relative, findings in by_path.items():
        try:
            data = read_source(run.project.root / relative, run.project.max_file_bytes)
        except SourceError:
            kept += findings
            continue
        kept += suppressions.unsuppressed(findings, data, Path(relative).stem)
    return replace(run, findings=sorted(kept), selection=selection, skipped=tuple(sorted(suppressions.skipped)))


def coverage_findings(
    project: Project, files: list[Path], data: Path, fix: bool = False, add_blocks: bool = False,
    diffs: list[str] | None = None,
) -> list[Finding]:
    """The branches reporter's findings, its notes printed on stderr (also
    those gathered before an error); imported on use: it needs coverage.py."""
    from mockpolicy import branches

    notes: list[str] = []
    try:
        return branches.coverage_findings(project, files, data, fix, notes, add_blocks, diffs)
    finally:
        for note in notes:
            _say(note, file=sys.stderr)


def _collect_coverage(
    paths: list[str], data: Path, fix: bool, report: Report = Report(), add_blocks: bool = False,
    diffs: list[str] | None = None,
) -> Run:
    project, roots, _ = _project_and_roots(paths)
    files = sorted(set(_python_files(roots)))
    return Run(project, roots, files, coverage_findings(project, files, data, fix, add_blocks, diffs), with_coverage=True)


def _project_and_roots(paths: list[str]) -> tuple[Project, list[Path], str]:
    """The project, the folders and files to analyse, and why those."""
    if paths:
        roots = [Path(p) for p in paths]
        for root in roots:
            if not root.exists():
                raise UsageError(f"path '{root}' does not exist.")
        project = load_project(find_root(roots[0]))
        why = "given on the command line"
    else:
        project = load_project(find_root(Path.cwd()))
        roots = list(project.test_paths)
        why = project.test_paths_from
    return project, [resolved(root) for root in roots], why


def _check(
    run: Run, report: Report, no_baseline: bool, allow_stale: bool, base: str | None, rules: frozenset[str]
) -> int:
    """Report ``run``'s findings the baseline does not allow; only baseline
    entries of ``rules`` (the rules this run can find) that the run selected
    can be stale."""
    path = run.project.baseline_path
    stale: list[tuple[Identity, int, int]] = []
    findings = run.findings
    current = baseline.Baseline.empty()
    if not no_baseline and baseline.exists(path):
        current = baseline.load(path)
        findings, stale = _judged(run, current, rules)
    new = {id(f) for f in findings}
    report.write(findings, report.context(run.project, [f for f in run.findings if id(f) not in new]))
    shown = run.project.relative(path)
    for identity, allowed, found in stale:
        _say(
            f"{shown}: stale: {identity.rule} in {identity.path} ({identity.scope or '<module>'}) "
            f"is allowed {allowed} time(s) but found {found}: run `mockpolicy prune`",
            file=sys.stderr,
        )
    files = len({f.path for f in findings})
    checked = f"{len(run.files):,} file{'s' if len(run.files) != 1 else ''} checked"
    what = (
        f"Found {len(findings):,} finding{'s' if len(findings) != 1 else ''} in {files:,} of {checked}"
        if findings else f"No findings in {checked}"
    )
    report.summary(
        f"{what} ({len(run.findings) - len(findings):,} baselined, {len(stale):,} stale)." + _skipped_note(run.skipped)
    )
    failed = bool(findings) or (bool(stale) and not allow_stale)
    if base is not None:
        failed = _ratchet(run, current, base) or failed
    return report.status(failed)


def _skipped_note(skipped: Sequence[str]) -> str:
    """The summary's note on files whose ``# pylint: skip-file`` comment dropped
    their findings (as pylint skips them for the plugin): '' when none did."""
    if not skipped:
        return ""
    shown = ", ".join(skipped[:3]) + (f" and {len(skipped) - 3} more" if len(skipped) > 3 else "")
    return (f" Not reported: the findings of {len(skipped):,} file{'s' if len(skipped) != 1 else ''} "
            f"with '# pylint: skip-file' ({shown}).")


def _judged(
    run: Run, current: baseline.Baseline, rules: frozenset[str]
) -> tuple[list[Finding], list[tuple[Identity, int, int]]]:
    """The findings of ``run`` that the baseline ``current`` does not allow, and
    its stale entries (of ``rules`` the run selected), files renamed since the
    baseline last changed keeping their entries."""
    path = run.project.baseline_path
    judged = baseline.renamed(
        baseline.select(current, rules & run.selection.enabled), gitio.renames_since_last_change(path, run.project.root)
    )
    return matching.compare(judged, run.findings, run.covers, run.scopes.gone)


def _trend(project: Project) -> list[TrendPoint]:
    """The baseline's history, for the Markdown summary's chart."""
    from mockpolicy.report import history

    return history.read(project, MARKDOWN_TREND_DEPTH).trend()


def _with_runtime(run: Run, args: argparse.Namespace) -> Run:
    """``run`` with the runtime record of ``--runtime`` merged into its findings
    (docs/runtime.md); imported on use."""
    path = getattr(args, "runtime", None)
    if path is None:
        return run
    from mockpolicy.runtime.merge import merge

    return replace(run, findings=merge(run.project, run.files, run.findings, Path(path)), with_runtime=True)


def _report(args: argparse.Namespace) -> int:
    from mockpolicy.report import page

    project, roots, _ = _project_and_roots(args.paths)
    files = sorted(set(_python_files(roots)))
    with page.history_beside(project, args.history) as history:
        gathered = page.gather(files, args.jobs)
        run = _with_runtime(Run(project, roots, files, gathered.findings), args)
        rules = STATIC_RULES | RUNTIME_RULES if run.with_runtime else STATIC_RULES
        covered = None
        if args.data is not None:
            covered = coverage_findings(project, files, Path(args.data))
            run = replace(run, findings=sorted([*run.findings, *covered]), with_coverage=True)
            rules = rules | COVERAGE_RULES
        run = _filtered(run, args)
        current = baseline.load(project.baseline_path) if baseline.exists(project.baseline_path) else None
        new, stale = _judged(run, current, rules) if current is not None else (run.findings, [])
        past = history()
    output = Path(args.output)
    judged = page.Judged(run.findings, new, stale, current, covered)
    shown = [project.relative(root) for root in roots]
    report = page.write(project, gathered, judged, output, past, shown, len(files))
    if not args.quiet:
        _say(f"mockpolicy: wrote {output.resolve()}: {report.total} finding(s), {report.new} new, "
             f"{report.map.sites} mock(s) of first-party code.")
    return EXIT_OK


def _ratchet(run: Run, current: baseline.Baseline, base: str) -> bool:
    """Whether the baseline allows more than its version at ``base`` (reported on
    stderr); files renamed since ``base`` and tests moved out of scopes that are
    gone keep their allowance (``matching.growth``)."""
    path = run.project.baseline_path
    if not baseline.exists(path):
        return False
    shown = run.project.relative(path)
    text = gitio.show(path, base)
    before = baseline.parse(text, f"{shown} at {base}") if text is not None else baseline.Baseline.empty()
    renames = gitio.renames(run.project.root, base)
    grown, after = matching.growth(before, current, renames, run.findings, run.scopes.gone)
    for identity, old, new in grown:
        _say(
            f"{shown}: grew against {base}: {identity.rule} in {identity.path} "
            f"({identity.scope or '<module>'}) allowed {new} time(s), was {old}: "
            f"{after.excerpts.get(identity, '')}",
            file=sys.stderr,
        )
    return bool(grown)


def _review(run: Run, args: argparse.Namespace, report: Report) -> int:
    from mockpolicy.review import review

    findings = list(run.findings)
    if args.data is not None:
        findings = sorted(findings + coverage_findings(run.project, run.files, Path(args.data)))
    change = review(run.project, findings, args.base, args.filter_mode)
    context = report.context(run.project, change.baselined)
    if args.post == "github":
        from mockpolicy.github_review import post_or_fall_back

        post_or_fall_back(run.project.root, args.pr, change, context)
    else:
        report.write(change.findings, context)
    return report.status(bool(change.findings))


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
        previous = baseline.renamed(previous, gitio.renames_since_last_change(path, run.project.root))
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
    """Shrink the baseline to what ``run`` finds; entries of renamed files and
    moved tests go to where their findings are now, and format 1 fingerprints
    of the files ``run`` analysed become format 2 ones (never adding)."""
    shown = run.project.relative(path)
    renames = gitio.renames_since_last_change(path, run.project.root)
    moved_files = sorted({(i.path, renames[i.path]) for i in before.counts if i.path in renames})
    before = baseline.renamed(before, renames)
    unjudged = (COVERAGE_RULES if not run.with_coverage else frozenset()) | (
        RUNTIME_RULES if not run.with_runtime else frozenset())
    judged = baseline.select(before, unjudged, keep=False)
    found = matching.match(judged, run.findings, run.scopes.gone)
    after, changed, moves = matching.pruned(judged, found, run.covers)
    if unjudged:  # coverage (runtime) entries need coverage data (a record) to be judged: kept as they are
        after = baseline.merge(after, baseline.select(before, unjudged))
    for old_path, new_path in moved_files:
        _say(f"{shown}: renamed: {old_path} -> {new_path}")
    for old, new, _count in moves:
        _say(f"{shown}: moved: {old.rule} in {old.path} ({old.scope or '<module>'}) -> {new.path} "
             f"({new.scope or '<module>'}): {after.excerpts.get(new, '')}")
    for identity, old_count, new_count in changed:
        what = "removed" if new_count == 0 else f"lowered {old_count} -> {new_count}"
        _say(f"{shown}: {what}: {identity.rule} in {identity.path} ({identity.scope or '<module>'}): "
              f"{before.excerpts.get(identity, '')}")
    migrated = sum(1 for identity in judged.counts if identity.legacy and identity in found.moved)
    if migrated:
        _say(f"{shown}: gave {migrated} entr{'y' if migrated == 1 else 'ies'} the fingerprints of format {baseline.FORMAT}.")
    if before.format != baseline.FORMAT:
        _say(f"{shown}: rewritten in format {baseline.FORMAT} (was {before.format}).")
    if after.legacy:
        legacy = sum(1 for identity in after.counts if identity.legacy)
        _say(f"{shown}: {legacy} entr{'y keeps its' if legacy == 1 else 'ies keep their'} format 1 fingerprint "
             "until a run that analyses its file (and, for coverage entries, reads --data) prunes it.")
    if changed or moves or moved_files or migrated or before.format != baseline.FORMAT:
        baseline.write(path, after)
    else:
        _say(f"{shown}: nothing to prune.")
    return EXIT_OK


def _merge_baseline(base: Path, ours: Path, theirs: Path) -> int:
    """Git's merge driver: merge ``theirs`` into ``ours`` per entry (``baseline.merged``).
    An error leaves ``ours`` as it is and git reports a conflict."""
    versions = [baseline.parse(text, str(path)) if text.strip() else baseline.Baseline.empty()
                for path, text in ((p, _read_text(p)) for p in (base, ours, theirs))]
    baseline.write(ours, baseline.merged(*versions))
    return EXIT_OK


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise UsageError(f"{path!s:.200}: cannot be read ({exc}).") from None


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


# What analysing one file gives: its findings (paths relative to its project
# root), and, when its analysis was tracked and can be cached, a digest of its
# bytes and its dependencies with their facts (see mockpolicy.deps).
Analysed = tuple[list[Finding], str | None, dict[str, str] | None]


def analyse_files(
    files: Sequence[Path], jobs: int, progress: Progress | None = None, cache: bool = False
) -> list[Finding]:
    """Findings for ``files``, paths relative to each file's project root, sorted.

    With ``cache``, files whose entry in their project's findings cache is
    valid are not analysed again, and the others are remembered there. The
    files to analyse are shared among ``jobs`` workers (see ``workers.per_file``).
    """
    progress = progress or Progress(sys.stderr, len(files), enabled=False)
    session = Session(track=cache, store_for=summary_store if cache else None)
    caches: dict[Path, FindingsCache] = {}
    batches: list[list[Finding]] = []
    todo: list[Path] = []
    try:
        for path in files:
            found = _cache_of(session, caches, path).get(path, session.engine_for(path).project.relative(path)) if cache else None
            if found is None:
                todo.append(path)
            else:
                batches.append(found)
                progress.advance()
        session.expect(len(todo))
        analysed = workers.per_file(todo, jobs, _analyse_one, progress.advance, session=session)
        batches += [_remembered(session, caches, path, result) for path, result in zip(todo, analysed)]
    finally:
        progress.finish()
        for opened in caches.values():
            opened.close()
    return sorted(finding for batch in batches for finding in batch)


def _cache_of(session: Session, caches: dict[Path, FindingsCache], path: Path) -> FindingsCache:
    project = session.engine_for(path).project
    found = caches.get(project.root)
    if found is None:
        found = caches[project.root] = FindingsCache(project, cache_directory(project))
    return found


def _remembered(session: Session, caches: dict[Path, FindingsCache], path: Path, analysed: Analysed) -> list[Finding]:
    findings, data_digest, deps = analysed
    if data_digest is not None and deps is not None:
        relative = session.engine_for(path).project.relative(path)
        _cache_of(session, caches, path).put(relative, data_digest, deps, findings)
    return findings


def _analyse_one(session: Session, path: Path) -> Analysed:
    engine = session.engine_for(path)
    relative = engine.project.relative(path)
    if not engine.tracker.enabled:
        return [replace(f, path=relative) for f in engine.analyse_file(path)], None, None
    try:
        data = engine.read(path)
    except SourceError as exc:
        return [analysis_error(relative, str(exc))], None, None
    findings, deps = engine.analyse_tracked(str(path), data)
    findings = [replace(f, path=relative) for f in findings]
    failed = any(f.symbol == ANALYSIS_ERROR.symbol and "internal error" in f.message for f in findings)
    return findings, None if failed else digest(data), deps


def console_main() -> None:
    """The ``mockpolicy`` program. In its own process the cyclic garbage
    collector stays off: analysis leaves no reference cycles behind (syntax
    trees have none, and ``TestModule.release`` breaks the rest), and not
    re-traversing the growing symbol index halves the time of a large run.
    Once the output is flushed the process ends without freeing its objects
    one by one (as mypy does): every file ``main`` writes is closed by then,
    and tearing down a large run's trees and index took a second on nova."""
    gc.disable()
    try:
        status = main()
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        # The reader went away (`mockpolicy check | head`): stop quietly, as
        # programs killed by SIGPIPE do, and keep Python's exit flush quiet too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = EXIT_BROKEN_PIPE
    if _measured():
        sys.exit(status)
    os._exit(status)


def _measured() -> bool:
    """Whether coverage.py measures this process (it saves its data on the way out)."""
    coverage = sys.modules.get("coverage")
    return coverage is not None and coverage.Coverage.current() is not None


if __name__ == "__main__":  # pragma: no cover
    console_main()
