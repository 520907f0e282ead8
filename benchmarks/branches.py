"""Speed of `mockpolicy branches` on a generated suite of N tests (default 3,000).

Builds a project in a temporary folder, runs the suite once under pytest-cov
(--cov-branch --cov-context=test), then times `mockpolicy branches` against
the cost of parsing the files it reads (ast.parse of every test file and the
source module). Prints both and their difference, measured in one run; the
target is a difference under 2 s that does not grow with N.

    python benchmarks/branches.py [--tests 3000] [--blocks 20]

With ``--real ROOT --data FILE [PATHS...]`` it times ``mockpolicy branches``
on an existing project and its coverage data instead (a real suite's full
run): the data's size, tests and arc rows, the command's wall and CPU
seconds and peak memory, and the parse floor of the test files given plus
every measured file (an upper bound of what the command reads).
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SOURCE = '''
def read_evidence(name):
    if name.startswith("r"):
        return "RETRY"
    return "APPROVED"


def run_gates(name):
    status = read_evidence(name)
    if status == "APPROVED":
        return True
    try:
        return len(name) > 3
    except KeyError:
        return False
'''

BLOCK_TEST = '''

# mock-partial: approves
#   untested: app.gates.run_gates: else status == "APPROVED"
#   reason: covered by tests/test_0.py::test_plain_49
@patch("app.gates.read_evidence", return_value="APPROVED", autospec=True)
def test_block_{n}(read):
    assert gates.run_gates("x{n}")
'''


def build(root: Path, tests: int, blocks: int) -> None:
    (root / "src/app").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "app"\nversion = "0"\n[tool.pytest.ini_options]\npythonpath = ["src"]\n')
    (root / "src/app/__init__.py").write_text("")
    (root / "src/app/gates.py").write_text(SOURCE)
    per_file = 50
    for index in range((tests + per_file - 1) // per_file):
        body = ["from unittest.mock import patch\n\nfrom app import gates\n"]
        for n in range(index * per_file, min(tests, (index + 1) * per_file)):
            if n < blocks:
                body.append(BLOCK_TEST.format(n=n))
            else:
                body.append(f"\n\ndef test_plain_{n}():\n    assert gates.run_gates('r{n}') in (True, False)\n")
        (root / f"tests/test_{index}.py").write_text("".join(body))


_MEASURE = """
import resource, subprocess, sys, time
start = time.perf_counter()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(time.perf_counter() - start, usage.ru_maxrss, usage.ru_utime + usage.ru_stime)
"""


def real(root: Path, data: Path, paths: list[str]) -> int:
    """Time ``mockpolicy branches`` on an existing project and its data."""
    import sqlite3

    with sqlite3.connect(f"{data.resolve().as_uri()}?mode=ro", uri=True) as db:
        contexts = db.execute("SELECT count(*) FROM context WHERE context LIKE '%|run'").fetchone()[0]
        arcs = db.execute("SELECT count(*) FROM arc").fetchone()[0]
        measured = [Path(row[0]) for row in db.execute("SELECT path FROM file")]
    tests = [f for p in paths for f in ((root / p).rglob("*.py") if (root / p).is_dir() else [root / p])]
    start = time.process_time()
    for path in [*tests, *(m if m.is_absolute() else root / m for m in measured)]:
        try:
            ast.parse(path.read_bytes())
        except (OSError, SyntaxError, ValueError):
            continue
    parse = time.process_time() - start
    out = subprocess.run(
        [sys.executable, "-c", _MEASURE, sys.executable, "-m", "mockpolicy", "branches", "--data", str(data), *paths],
        cwd=root, capture_output=True, text=True, check=True,
    )
    wall, kib, cpu = out.stdout.split()
    print(f"data: {data.stat().st_size / 2**20:.1f} MB, {contexts} tests (run contexts), {arcs} arc rows, "
          f"{len(measured)} measured files")
    print(f"mockpolicy branches: {float(wall):.2f} s wall, {float(cpu):.2f} s CPU, peak {int(kib) / 1024:.0f} MiB")
    print(f"parsing the {len(tests)} test files and {len(measured)} measured files: {parse:.2f} s CPU")
    print(f"branches CPU - parse: {float(cpu) - parse:.2f} s (target < 2 s)")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tests", type=int, default=3000)
    parser.add_argument("--blocks", type=int, default=20)
    parser.add_argument("--real", type=Path, help="an existing project root (with --data)")
    parser.add_argument("--data", type=Path, help="its coverage data file")
    parser.add_argument("paths", nargs="*", help="with --real: the test paths to check")
    args = parser.parse_args()
    if args.real is not None:
        if args.data is None:
            parser.error("--real needs --data")
        return real(args.real.resolve(), args.data.resolve(), args.paths)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        build(root, args.tests, args.blocks)
        made = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--cov=app", "--cov-branch",
             "--cov-context=test", "tests"], cwd=root, capture_output=True, text=True, check=False,
        )
        if made.returncode != 0:
            print(made.stdout[-2000:], made.stderr[-2000:])
            return 1
        files = sorted(root.glob("tests/*.py")) + [root / "src/app/gates.py"]
        start = time.perf_counter()
        for path in files:
            ast.parse(path.read_bytes())
        parse = time.perf_counter() - start
        start = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-m", "mockpolicy", "branches"], cwd=root, capture_output=True, text=True, check=False
        )
        command = time.perf_counter() - start
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import mockpolicy.cli, coverage"], check=False)
        startup = time.perf_counter() - start
        print(f"tests: {args.tests}, blocks: {args.blocks}, exit status: {result.returncode}, "
              f"findings: {len(result.stdout.splitlines())}")
        print(f"mockpolicy branches: {command:.2f} s; parsing the {len(files)} files it reads: {parse:.2f} s; "
              f"interpreter start and imports: {startup:.2f} s")
        print(f"branches - parse: {command - parse:.2f} s (target < 2 s); ratio branches/parse: {command / parse:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
