"""Speed benchmark: mockpolicy against the cost of parsing what it must read.

    python benchmarks/speed.py SUITE_ROOT TESTS [--pylint-subdir SUBDIR] [--repeat N]

Prints, measured in this one run on this machine:
  * parse   - ``ast.parse`` of every .py file under TESTS plus every first-party
              module their mock targets resolve into and every file of the
              code under test read for callers of partially mocked functions
              (the floor for any static resolver);
  * check   - ``mockpolicy check --no-cache TESTS`` in a fresh process (cold: no caches);
  * ratio check/parse (target: <= 2.0);
  * with --pylint-subdir: ``pylint`` with and without ``--load-plugins
    mockpolicy`` on that folder, default checks: time (target ratio <= 1.10)
    and peak memory (target ratio <= 1.25), with the plugin's module
    summaries in the project's cache removed before each run, then kept from
    the previous one. The plugin leaves pylint's garbage collector alone, so
    the ratio is the plugin's own cost.
Each time is the median of --repeat runs (default 3); peak memory is the
largest resident set of the measured process. Nothing is asserted: the
machine is shared, so read ratios, not seconds.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

MOCKPOLICY = [sys.executable, "-m", "mockpolicy"]
PYLINT = [sys.executable, "-m", "pylint", "--persistent=n", "--jobs=1", "--score=n", "--output-format=text"]


_MEASURE = """
import resource, subprocess, sys, time
start = time.perf_counter()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(time.perf_counter() - start, usage.ru_maxrss, usage.ru_utime + usage.ru_stime)
"""


def _measured(command: list[str], cwd: Path) -> tuple[float, float, float]:
    """Wall seconds, peak resident MiB and CPU seconds (user + system) of
    ``command`` run alone in a fresh parent. CPU time is the steadier figure
    on a busy machine; wall time is what a user waits."""
    out = subprocess.run([sys.executable, "-c", _MEASURE, *command], cwd=cwd, capture_output=True, text=True, check=True)
    seconds, kib, cpu = out.stdout.split()
    return float(seconds), int(kib) / 1024, float(cpu)


def _median(command: list[str], cwd: Path, repeat: int) -> tuple[float, float]:
    """Median wall and median CPU seconds over ``repeat`` runs."""
    runs = [_measured(command, cwd) for _ in range(repeat)]
    return statistics.median(r[0] for r in runs), statistics.median(r[2] for r in runs)


def _median_with_memory(
    command: list[str], cwd: Path, repeat: int, prepare: Callable[[], None] = lambda: None,
) -> tuple[float, float, float]:
    """Median wall seconds, peak MiB and median CPU seconds over ``repeat``
    runs, each after ``prepare()``."""
    runs = []
    for _ in range(repeat):
        prepare()
        runs.append(_measured(command, cwd))
    return statistics.median(r[0] for r in runs), max(r[1] for r in runs), statistics.median(r[2] for r in runs)


_PARSED_SOURCES = """
import json, sys
from pathlib import Path
from mockpolicy.cli import _python_files
from mockpolicy.engine import Session
files = sorted(_python_files([Path(sys.argv[1])]))
engine = Session().engine_for(files[0])
for path in files:
    engine.analyse_file(path)
parsed = [str(info.path) for info in engine.index._modules.values()
          if info is not None and info.path is not None and engine.project.is_first_party(info.name)
          and info.path.resolve() not in set(files)]
# undocumented-partial-mock reads the code under test looking for callers of mocked functions
parsed += [str(path) for path in engine.memo.read()]
libraries = engine.libraries._resolver
read = [] if libraries is None else [
    str(info.path) for info in libraries.index._modules.values() if info is not None and info.path is not None
]
print(json.dumps({"tests": [str(f) for f in files], "sources": sorted({str(Path(p).resolve()) for p in parsed}), "libraries": sorted(set(read))}))
"""

_PARSE_ONLY = """
import ast, json, sys
for name in json.load(open(sys.argv[1])):
    with open(name, "rb") as handle:
        ast.parse(handle.read(), filename=name)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("tests")
    parser.add_argument("--pylint-subdir")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    root = args.root.resolve()

    listing = subprocess.run(
        [sys.executable, "-c", _PARSED_SOURCES, args.tests], cwd=root, capture_output=True, text=True, check=True
    )
    files = json.loads(listing.stdout)
    manifest = root / ".mockpolicy-bench-files.json"
    everything = root / ".mockpolicy-bench-all-files.json"
    manifest.write_text(json.dumps(files["tests"] + files["sources"]))
    everything.write_text(json.dumps(files["tests"] + files["sources"] + files["libraries"]))
    try:
        parse, parse_cpu = _median([sys.executable, "-c", _PARSE_ONLY, str(manifest)], root, args.repeat)
        parse_all, parse_all_cpu = _median([sys.executable, "-c", _PARSE_ONLY, str(everything)], root, args.repeat)
        startup, _ = _median([sys.executable, "-c", "pass"], root, args.repeat)
    finally:
        manifest.unlink()
        everything.unlink()
    check, check_memory, check_cpu = _median_with_memory(
        [*MOCKPOLICY, "check", "-q", "--no-cache", args.tests], root, args.repeat)
    print(f"files: {len(files['tests'])} test files, {len(files['sources'])} first-party sources read")
    print(f"parse (ast.parse of both, incl. {startup:.2f}s interpreter start): {parse:.2f}s ({parse_cpu:.2f}s CPU)")
    print(f"mockpolicy check, cold process: {check:.2f}s ({check_cpu:.2f}s CPU), peak {check_memory:.0f} MiB")
    print(f"ratio check/parse, time: {check / parse:.2f}, CPU: {check_cpu / parse_cpu:.2f}  (target <= 2.00)")
    print(f"with the {len(files['libraries'])} library sources read for undocumented-partial-mock: "
          f"parse {parse_all:.2f}s ({parse_all_cpu:.2f}s CPU), ratio time {check / parse_all:.2f}, "
          f"CPU {check_cpu / parse_all_cpu:.2f}")

    if args.pylint_subdir:
        pylint_repeat = max(1, args.repeat // 2)
        cache = root / ".mockpolicy_cache"

        def no_cache() -> None:
            shutil.rmtree(cache, ignore_errors=True)

        plugin = [*PYLINT, "--load-plugins=mockpolicy", args.pylint_subdir]
        without, without_memory, without_cpu = _median_with_memory([*PYLINT, args.pylint_subdir], root, pylint_repeat)
        cold, cold_memory, cold_cpu = _median_with_memory(plugin, root, pylint_repeat, no_cache)
        warm, warm_memory, warm_cpu = _median_with_memory(plugin, root, pylint_repeat)  # the cold runs filled it
        no_cache()
        print(f"pylint without plugin: {without:.1f}s ({without_cpu:.1f}s CPU), peak {without_memory:.0f} MiB")
        for name, took, cpu, memory in (("empty", cold, cold_cpu, cold_memory), ("warm", warm, warm_cpu, warm_memory)):
            print(f"with mockpolicy, {name} cache: {took:.1f}s ({cpu:.1f}s CPU), peak {memory:.0f} MiB; "
                  f"ratio with/without, time {took / without:.3f}, CPU {cpu / without_cpu:.3f}  (target <= 1.10); "
                  f"peak memory {memory / without_memory:.3f}  (target <= 1.25)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
