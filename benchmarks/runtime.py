"""Runtime-record benchmarks: the plugin's cost, and its pollution reports.

    python benchmarks/runtime.py overhead SUITE_ROOT --python PY [--rounds 3] -- PYTEST_ARGS...
    python benchmarks/runtime.py pollution RECORD [SUITE_ROOT]

``overhead`` runs the suite's tests (``PY -m pytest PYTEST_ARGS`` in
SUITE_ROOT, PY being a Python with the suite and mockpolicy installed) with
and without ``--mockpolicy-record``, alternated (off, on, off, on, ...), and
prints each run's wall and CPU time, the best of each mode, and the ratios;
it also checks that both modes end with the same summary line (the same
outcomes). Machines here are shared: compare the best runs, and CPU time.

``pollution`` lists a record's pollution, each with the polluting test's
source, for checking every report by hand.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_SUMMARY = re.compile(r"^=*\s*(\d+ (passed|failed).*?) in [\d.]+s", re.MULTILINE)


def _run(python: str, root: Path, args: list[str]) -> tuple[float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run([python, "-m", "pytest", *args], cwd=root, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    found = _SUMMARY.findall(result.stdout)
    return wall, cpu, found[-1][0] if found else result.stdout[-300:]


def overhead(root: Path, python: str, rounds: int, args: list[str]) -> int:
    record = Path(tempfile.mkdtemp()) / "runtime.json"
    runs: dict[str, list[tuple[float, float]]] = {"off": [], "on": []}
    summaries: dict[str, set[str]] = {"off": set(), "on": set()}
    for number in range(rounds):
        for mode in ("off", "on"):
            extra = [f"--mockpolicy-record={record}"] if mode == "on" else []
            wall, cpu, summary = _run(python, root, [*args, *extra])
            runs[mode].append((wall, cpu))
            summaries[mode].add(summary)
            print(f"round {number + 1} {mode:3}: wall {wall:7.1f} s  cpu {cpu:7.1f} s  {summary}", flush=True)
    best = {mode: (min(w for w, _ in runs[mode]), min(c for _, c in runs[mode])) for mode in runs}
    print(f"best off: wall {best['off'][0]:.1f} s cpu {best['off'][1]:.1f} s")
    print(f"best on:  wall {best['on'][0]:.1f} s cpu {best['on'][1]:.1f} s")
    print(f"overhead: wall {100 * (best['on'][0] / best['off'][0] - 1):+.1f}%  cpu {100 * (best['on'][1] / best['off'][1] - 1):+.1f}%")
    same = summaries["off"] == summaries["on"] and len(summaries["off"]) == 1
    print("outcomes: the same in every run" if same else f"outcomes DIFFER: off {summaries['off']} on {summaries['on']}")
    return 0 if same else 1


def pollution(record: Path, root: Path | None) -> int:
    data = json.loads(record.read_text(encoding="utf-8"))
    items = sorted(data["pollution"], key=lambda p: (p["path"], p["line"], p["name"]))
    print(f"{len(items)} pollution(s) in {len(data['tests'])} test(s), processes {', '.join(data['processes'])}")
    for number, item in enumerate(items, start=1):
        print(f"\n[{number}] {item['polluter']} ({item['process']}): {item['state']} {item['name']}: "
              f"{item['before']} -> {item['after']}; {item['later']} later test(s)")
        if root is not None:
            path = root / item["path"]
            if path.is_file() and item["line"] > 0:
                lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
                start = item["line"] - 1
                end = start + 1
                while end < len(lines) and (not lines[end].strip() or lines[end].startswith((" ", "\t"))) \
                        and end - start < 25:
                    end += 1
                for index in range(start, end):
                    print(f"    {index + 1:5} {lines[index]}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    cost = commands.add_parser("overhead")
    cost.add_argument("root", type=Path)
    cost.add_argument("--python", default=sys.executable)
    cost.add_argument("--rounds", type=int, default=3)
    listing = commands.add_parser("pollution")
    listing.add_argument("record", type=Path)
    listing.add_argument("root", type=Path, nargs="?")
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    if args.command == "overhead":
        python = os.path.abspath(args.python) if os.sep in args.python else args.python
        return overhead(args.root.resolve(), python, args.rounds, argv[split + 1:])
    return pollution(args.record, args.root)


if __name__ == "__main__":
    sys.exit(main())
