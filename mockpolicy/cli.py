"""The ``mockpolicy`` command: ``check`` and ``explain``.

``main(argv) -> int`` returns an exit status: 0 clean, 1 findings, 2 usage or
configuration error (one sentence on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

from mockpolicy import __version__
from mockpolicy.engine import engine_for, own_the_process
from mockpolicy.findings import Finding
from mockpolicy.formats import FORMATS, render
from mockpolicy.project import ConfigError, find_root, load_project
from mockpolicy.rules import ALL_RULES, doc_text, lookup

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
SKIPPED_DIRS = frozenset({"__pycache__", "node_modules", "site-packages"})


class UsageError(Exception):
    """A problem with the command line or the project's files; exit status 2."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mockpolicy", description="Enforce a mock policy in a Python test suite."
    )
    parser.add_argument("--version", action="version", version=f"mockpolicy {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = commands.add_parser("check", help="run every static rule on test files")
    check.add_argument("paths", nargs="*", help="files or folders (default: the project's tests)")
    check.add_argument("--format", choices=FORMATS, default="text", help="output format")
    check.add_argument(
        "-j", "--jobs", type=_jobs, default=1, metavar="N",
        help="analyse with N processes (0: one per CPU)",
    )
    explain = commands.add_parser("explain", help="print the documentation of a rule")
    explain.add_argument("rule", help="a rule symbol (first-party-mock) or message id (W7301)")
    return parser


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
    own_the_process()
    try:
        if args.command == "explain":
            return _explain(args.rule)
        return _check(args.paths, args.format, args.jobs)
    except (UsageError, ConfigError) as exc:
        print(f"mockpolicy: error: {exc}", file=sys.stderr)
        return EXIT_USAGE


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


def _check(paths: list[str], fmt: str, jobs: int) -> int:
    if paths:
        roots = [Path(p) for p in paths]
        for root in roots:
            if not root.exists():
                raise UsageError(f"path '{root}' does not exist.")
    else:
        project = load_project(find_root(Path.cwd()))
        roots = list(project.test_paths)
    files = sorted(set(_python_files(roots)))
    findings = analyse_files(files, jobs)
    sys.stdout.write(render(findings, fmt))
    return EXIT_FINDINGS if findings else EXIT_OK


def _python_files(roots: list[Path]) -> Iterator[Path]:
    """The .py files under ``roots``; files named explicitly are always included,
    files found by walking folders skip hidden folders, virtualenvs and the
    project's ``exclude`` patterns."""
    for root in roots:
        root = root.resolve()
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
    """Findings for ``files``, paths relative to each file's project root, sorted."""
    if jobs > 1 and len(files) > 1:
        chunk = max(1, len(files) // (jobs * 8))
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            batches = list(pool.map(_analyse_one, files, chunksize=chunk))
    else:
        batches = [_analyse_one(path) for path in files]
    return sorted(finding for batch in batches for finding in batch)


def _analyse_one(path: Path) -> list[Finding]:
    engine = engine_for(path)
    relative = engine.project.relative(path)
    return [replace(f, path=relative) for f in engine.analyse_file(path)]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
