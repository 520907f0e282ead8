"""Scale benchmark: processes, shards and suite size, measured side by side.

    python benchmarks/scale.py SUITE_ROOT TESTS [--shards N] [--copies C] [--repeat R]

SUITE_ROOT is copied to a temporary folder first. Every run is ``mockpolicy
check --no-cache`` (cold) in a fresh process; each figure is the median of
--repeat runs (default 3). Prints:

  * ``-j 1`` and ``-j 2``: wall time and CPU time (the process and its
    workers); ratio -j 1 / -j 2 (goal >= 1.5 on 2 idle cores);
  * shards: ``check --shard K/N`` for every K, one after the other, then
    ``merge``: their total CPU time against one run's (goal <= 1.2);
  * memory: peak resident set of one run on TESTS, and on TESTS holding C-1
    copies of itself as new packages (``TESTS/copy2``...; default C = 4; goal:
    within 1.5x).

The load average is printed too: the machine is shared, so read ratios, and
read wall-time ratios only on an idle machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

MOCKPOLICY = [sys.executable, "-m", "mockpolicy"]

_MEASURE = """
import resource, subprocess, sys, time
start = time.perf_counter()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
"""


def _measured(command: list[str], cwd: Path) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (with all descendants) and peak MiB of ``command``."""
    out = subprocess.run([sys.executable, "-c", _MEASURE, *command], cwd=cwd, capture_output=True, text=True, check=True)
    wall, cpu, kib = out.stdout.split()
    return float(wall), float(cpu), int(kib) / 1024


def _median(command: list[str], cwd: Path, repeat: int) -> tuple[float, float, float]:
    runs = [_measured(command, cwd) for _ in range(repeat)]
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), max(r[2] for r in runs))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("tests")
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--copies", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    check = [*MOCKPOLICY, "check", "-q", "--no-baseline", "--no-cache"]

    with tempfile.TemporaryDirectory(prefix="mockpolicy-scale-bench-") as scratch:
        root = Path(scratch) / args.root.resolve().name
        shutil.copytree(args.root, root, symlinks=True, ignore=shutil.ignore_patterns(".git", ".mockpolicy_cache"))
        print(f"suite: {args.root} {args.tests}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")

        one = _median([*check, "-j", "1", args.tests], root, args.repeat)
        two = _median([*check, "-j", "2", args.tests], root, args.repeat)
        print(f"-j 1: {one[0]:.2f}s wall, {one[1]:.2f}s CPU; -j 2: {two[0]:.2f}s wall, {two[1]:.2f}s CPU; "
              f"ratio -j1/-j2 wall {one[0] / two[0]:.2f}  (goal >= 1.5), CPU -j2/-j1 {two[1] / one[1]:.2f}")

        cpu = 0.0
        results = []
        for index in range(1, args.shards + 1):
            result = Path(scratch) / f"shard-{index}.json"
            results.append(str(result))
            cpu += _median([*MOCKPOLICY, "check", "-q", "--no-cache", "--shard", f"{index}/{args.shards}", "-o",
                            str(result), args.tests], root, args.repeat)[1]
        merge = _median([*MOCKPOLICY, "merge", "-q", "--no-baseline", *results], root, args.repeat)[1]
        print(f"{args.shards} shards: {cpu:.2f}s CPU in all, merge {merge:.2f}s; one run {one[1]:.2f}s; "
              f"ratio (shards + merge) / one run: {(cpu + merge) / one[1]:.2f}  (goal <= 1.2)")

        # The copies go inside TESTS (``nova/tests/copy2``...), where a larger
        # suite keeps its tests: a sibling named ``tests2`` is no test folder by
        # its name, so its support modules would count as code under test.
        for copy in range(2, args.copies + 1):
            shutil.copytree(args.root / args.tests, root / args.tests / f"copy{copy}", symlinks=True,
                            ignore=shutil.ignore_patterns(".mockpolicy_cache"))
        many = _median([*check, args.tests], root, args.repeat)
        print(f"peak memory: {one[2]:.0f} MiB for {args.tests}, {many[2]:.0f} MiB for {args.copies}x "
              f"({many[0]:.1f}s wall); ratio {many[2] / one[2]:.2f}  (goal <= 1.5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
