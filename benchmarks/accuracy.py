"""Accuracy benchmark: first-party-mock against the runtime oracle.

    python benchmarks/accuracy.py SUITE_ROOT TESTS PACKAGES ORACLE.jsonl [--via pylint|cli] [--runtime RECORD] [-v]

Runs ``pylint --load-plugins mockpolicy --disable=all --enable=first-party-mock
--output-format=json2 TESTS`` in SUITE_ROOT (or ``mockpolicy check`` with
``--via cli``) and scores the findings against ORACLE, the records of what
every patch really replaced while the suite ran (../shared/eval/README.md tells
how to record them). PACKAGES is the comma-separated list of the suite's
first-party top-level packages. ``--runtime RECORD`` scores ``mockpolicy check
--runtime RECORD`` (a record of ``pytest --mockpolicy-record`` of the suite merged).

Two scores are printed, measured in this one run:
  * shared: the shared scorer (../shared/eval/score_first_party.py, or
    --scorer). Its older versions counted a site as hit when a finding lay
    within one line of it, charging a correct finding on a stacked decorator
    to its neighbour; the current one counts as strict does, and the two agree.
  * strict: the same oracle labels, a site hit only when a finding's own line
    range (line..endLine of the mock call) contains it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SCORER = REPO.parent / "shared" / "eval" / "score_first_party.py"
SYMBOL = "first-party-mock"


def findings_via_pylint(root: Path, tests: str) -> list[dict[str, object]]:
    result = subprocess.run(
        [sys.executable, "-m", "pylint", "--load-plugins=mockpolicy", "--disable=all",
         f"--enable={SYMBOL}", "--output-format=json2", "--persistent=n", tests],
        cwd=root, capture_output=True, text=True, check=False,
    )
    return list(json.loads(result.stdout)["messages"])


def findings_via_cli(root: Path, tests: str, runtime: Path | None = None) -> list[dict[str, object]]:
    merged = ["--runtime", str(runtime)] if runtime is not None else []
    result = subprocess.run(
        [sys.executable, "-m", "mockpolicy", "check", "--no-baseline", "--format", "json", *merged, tests],
        cwd=root, capture_output=True, text=True, check=False,
    )
    return [{**f, "endLine": f["end_line"]} for f in json.loads(result.stdout) if f["symbol"] == SYMBOL]


def oracle_labels(oracle: Path, root: Path, packages: list[str]) -> dict[tuple[str, int], bool]:
    """Site -> replaced first-party code, labelled as the shared scorer labels them."""
    sites: dict[tuple[str, int], bool] = {}
    for line in oracle.read_text().splitlines():
        record = json.loads(line)
        path = os.path.realpath(os.path.join(root, record["file"]))
        if not path.startswith(str(root) + os.sep):
            continue
        module = record["module"] or ""
        if (record["what"] in ("missing", "mock") and not module) or "._vendor" in module or ".vendor." in module:
            continue
        label = any(module == p or module.startswith(p + ".") for p in packages)
        key = (path, record["line"])
        sites[key] = sites.get(key, False) or label
    return sites


def strict_score(findings: list[dict[str, object]], sites: dict[tuple[str, int], bool], root: Path, verbose: bool) -> None:
    spans: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for finding in findings:
        path = os.path.realpath(os.path.join(root, str(finding.get("absolutePath") or finding["path"])))
        line = int(finding["line"])  # type: ignore[call-overload]
        spans[path].append((line, int(finding.get("endLine") or line)))  # type: ignore[call-overload]
    true = false = unseen = 0
    for path, ranges in spans.items():
        for first, last in ranges:
            labels = [sites[(path, n)] for n in range(first, last + 1) if (path, n) in sites]
            if not labels:
                unseen += 1
            elif any(labels):
                true += 1
            else:
                false += 1
                if verbose:
                    print(f"FALSE  {path}:{first}")
    missed = [
        (path, n) for (path, n), label in sorted(sites.items())
        if label and not any(a <= n <= b for a, b in spans.get(path, []))
    ]
    if verbose:
        for path, n in missed:
            print(f"MISSED {path}:{n}")
    precision = true / (true + false) if true + false else 0.0
    recall = true / (true + len(missed)) if true + len(missed) else 0.0
    print(f"strict: findings {true + false + unseen}: true {true}  false {false}  at unseen sites {unseen}  missed {len(missed)}")
    print(f"strict: precision {precision:.3f} recall {recall:.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("tests")
    parser.add_argument("packages")
    parser.add_argument("oracle", type=Path)
    parser.add_argument("--via", choices=("pylint", "cli"), default="pylint")
    parser.add_argument("--runtime", type=Path, metavar="RECORD", help="merge this runtime record (implies --via cli)")
    parser.add_argument("--scorer", type=Path, default=DEFAULT_SCORER)
    parser.add_argument("-v", action="store_true", help="list every missed and false site")
    args = parser.parse_args()
    root = args.root.resolve()
    if args.runtime is not None:
        findings = findings_via_cli(root, args.tests, args.runtime.resolve())
    elif args.via == "pylint":
        findings = findings_via_pylint(root, args.tests)
    else:
        findings = findings_via_cli(root, args.tests)
    if args.scorer.is_file():
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
            json.dump(findings, handle)
        shared = subprocess.run(
            [sys.executable, str(args.scorer), str(args.oracle.resolve()), str(root), args.packages, handle.name],
            capture_output=True, text=True, check=False,
        )
        os.unlink(handle.name)
        for line in shared.stdout.splitlines():
            print(f"shared: {line}")
    strict_score(findings, oracle_labels(args.oracle.resolve(), root, args.packages.split(",")), root, args.v)
    return 0


if __name__ == "__main__":
    sys.exit(main())
