"""Accuracy benchmark: first-party-mock against the runtime oracle.

    python benchmarks/accuracy.py SUITE_ROOT TESTS PACKAGES ORACLE.jsonl [--via pylint|cli] [-v]

Runs ``pylint --load-plugins mockpolicy --disable=all --enable=first-party-mock
--output-format=json2 TESTS`` in SUITE_ROOT (or ``mockpolicy check`` with
``--via cli``), then scores the findings with the shared scorer
(../shared/eval/score_first_party.py, or --scorer) against ORACLE, the
records of what every patch really replaced while the suite ran (see
../shared/eval/README.md for how to record them). PACKAGES is the
comma-separated list of the suite's first-party top-level packages. Prints the
scorer's report: precision, recall and counts.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SCORER = REPO.parent / "shared" / "eval" / "score_first_party.py"


def findings_via_pylint(root: Path, tests: str) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-m", "pylint", "--load-plugins=mockpolicy", "--disable=all",
         "--enable=first-party-mock", "--output-format=json2", "--persistent=n", tests],
        cwd=root, capture_output=True, text=True, check=False,
    )
    return json.loads(result.stdout)


def findings_via_cli(root: Path, tests: str) -> list[dict[str, object]]:
    result = subprocess.run(
        [sys.executable, "-m", "mockpolicy", "check", "--format", "json", tests],
        cwd=root, capture_output=True, text=True, check=False,
    )
    return [
        {**f, "endLine": f["end_line"]} for f in json.loads(result.stdout) if f["symbol"] == "first-party-mock"
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("tests")
    parser.add_argument("packages")
    parser.add_argument("oracle", type=Path)
    parser.add_argument("--via", choices=("pylint", "cli"), default="pylint")
    parser.add_argument("--scorer", type=Path, default=DEFAULT_SCORER)
    parser.add_argument("-v", action="store_true", help="list every missed and false site")
    args = parser.parse_args()
    root = args.root.resolve()
    findings = findings_via_pylint(root, args.tests) if args.via == "pylint" else findings_via_cli(root, args.tests)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(findings, handle)
    command = [sys.executable, str(args.scorer), str(args.oracle.resolve()), str(root), args.packages, handle.name]
    if args.v:
        command.append("-v")
    return subprocess.run(command, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
