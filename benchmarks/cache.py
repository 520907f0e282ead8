"""Cache benchmark: what the findings cache saves, measured side by side.

    python benchmarks/cache.py SUITE_ROOT TESTS [--test FILE] [--source FILE] [--repeat N]

SUITE_ROOT is copied to a temporary folder first (the cache is written there
and files are edited there; the original is never touched). Prints, measured
in this one run on this machine, each the median of --repeat runs (default 3)
of ``mockpolicy check TESTS`` in a fresh process:

  * cold, no cache     - ``--no-cache``;
  * cold               - an empty cache, filled by the run;
  * warm               - nothing changed since the last run; ratio warm/cold
                         (goal <= 0.15);
  * one edited test    - FILE (default: the largest test file, then one of
                         median size) changed, then ``mockpolicy check FILE``
                         as a pre-commit hook runs it (goal <= 0.5 s, and <= 3x
                         ``ast.parse`` of that file and of every module its
                         analysis reads), and the whole suite after that edit;
  * one edited module  - a first-party FILE (default: the source module most
                         test files depend on) changed, then the whole suite:
                         how many test files were analysed again, and the time.

Nothing is asserted: the machine is shared, so read ratios, not seconds.
mockpolicy runs as an installed package does, with Python's bytecode cache on
(a PYTHONDONTWRITEBYTECODE set here is not passed on: compiling mockpolicy's
own modules again in every process would add about 0.17 s to each run).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

MOCKPOLICY = [sys.executable, "-m", "mockpolicy", "check", "-q", "--no-baseline"]
CACHE = ".mockpolicy_cache"

_PARSE_ONLY = """
import ast, json, sys
for name in json.load(open(sys.argv[1])):
    with open(name, "rb") as handle:
        ast.parse(handle.read(), filename=name)
"""


_AS_INSTALLED = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def _seconds(command: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=_AS_INSTALLED)
    return time.perf_counter() - start


def _median(repeat: int, prepare: Callable[[], None], command: list[str], cwd: Path) -> float:
    times = []
    for _ in range(repeat):
        prepare()
        times.append(_seconds(command, cwd))
    return statistics.median(times)


def _entries(root: Path) -> dict[str, dict[str, object]]:
    """The cache's entries by test file (relative path)."""
    found = {}
    for path in (root / CACHE / "findings").glob("*.json"):
        body = json.loads(path.read_bytes().partition(b"\n")[2])
        found[body["path"]] = {"deps": body["deps"], "stamp": path.stat().st_mtime_ns}
    return found


def _module_files(deps: dict[str, str]) -> list[str]:
    """The files of the modules an entry's analysis read (``m:`` dependencies)."""
    files = []
    for dep, fact in deps.items():
        if dep.startswith("m:"):
            located = fact.rpartition("|")[0]
            if located[:1] in ("M", "P") and len(located) > 1:
                files.append(located[1:])
    return files


def _touch(path: Path) -> Callable[[], None]:
    """Each call changes ``path``'s bytes (a new trailing comment)."""
    original = path.read_bytes()
    count = [0]

    def edit() -> None:
        count[0] += 1
        path.write_bytes(original + f"\n# benchmark edit {count[0]}\n".encode())

    return edit


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("tests")
    parser.add_argument("--test", help="the test file to edit (relative to SUITE_ROOT)")
    parser.add_argument("--source", help="the first-party module to edit (relative to SUITE_ROOT)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="mockpolicy-cache-bench-") as scratch:
        root = Path(scratch) / args.root.resolve().name
        shutil.copytree(args.root, root, symlinks=True, ignore=shutil.ignore_patterns(".git", CACHE))
        suite = [*MOCKPOLICY, args.tests]

        def clear() -> None:
            shutil.rmtree(root / CACHE, ignore_errors=True)

        def nothing() -> None:
            pass

        no_cache = _median(args.repeat, nothing, [*suite, "--no-cache"], root)
        cold = _median(args.repeat, clear, suite, root)
        warm = _median(args.repeat, nothing, suite, root)
        entries = _entries(root)
        print(f"suite: {args.root} {args.tests}, {len(entries)} test files")
        print(f"cold, no cache: {no_cache:.2f}s; cold, filling the cache: {cold:.2f}s "
              f"(ratio {cold / no_cache:.2f}); cache size {_size(root / CACHE) / 1e6:.1f} MB")
        print(f"warm re-run, nothing changed: {warm:.2f}s; ratio warm/cold: {warm / cold:.3f}  (goal <= 0.15)")

        by_size = sorted(entries, key=lambda name: (root / name).stat().st_size)
        for test in [args.test] if args.test else [by_size[-1], by_size[len(by_size) // 2]]:
            floor_files = [str(root / test), *_module_files(entries[test]["deps"])]  # type: ignore[arg-type]
            manifest = Path(scratch) / "floor.json"
            manifest.write_text(json.dumps(floor_files))
            floor = _median(args.repeat, nothing, [sys.executable, "-c", _PARSE_ONLY, str(manifest)], root)
            startup = _median(args.repeat, nothing, [sys.executable, "-c", "pass"], root)
            one = _median(args.repeat, _touch(root / test), [*MOCKPOLICY, test], root)
            whole = _median(args.repeat, _touch(root / test), suite, root)
            print(f"one edited test file ({test}, {(root / test).stat().st_size // 1000} kB), `check` of that file, "
                  f"warm cache: {one:.2f}s  (goal <= 0.5s); parse of it and the {len(floor_files) - 1} modules it reads: "
                  f"{floor:.2f}s (incl. {startup:.2f}s interpreter start); ratio {one / floor:.2f}  (goal <= 3)")
            print(f"one edited test file, whole suite, warm cache: {whole:.2f}s; ratio to cold: {whole / cold:.3f}")

        users = collections.Counter(
            module for entry in entries.values() for module in set(_module_files(entry["deps"]))  # type: ignore[arg-type]
        )
        source = args.source or Path(max(
            (path for path in users if Path(path).is_relative_to(root) and "test" not in Path(path).name),
            key=lambda path: users[path],
        )).relative_to(root).as_posix()
        before = _entries(root)
        edit = _touch(root / source)
        times, again = [], []
        for _ in range(args.repeat):
            before = _entries(root)
            edit()
            times.append(_seconds(suite, root))
            after = _entries(root)
            again.append(sum(1 for name, entry in after.items() if before.get(name, {}).get("stamp") != entry["stamp"]))
        print(f"one edited first-party module ({source}), whole suite: {statistics.median(times):.2f}s, "
              f"{statistics.median(again):.0f} of {len(entries)} test files analysed again "
              f"(ratio to cold {statistics.median(times) / cold:.3f})")
    return 0


def _size(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


if __name__ == "__main__":
    sys.exit(main())
