"""Report benchmark: ``mockpolicy report`` against ``mockpolicy check`` on a real suite.

    python benchmarks/report.py SUITE_ROOT TESTS [--commits 20] [--repeat 3] [--screenshot FILE.png]

Copies SUITE_ROOT to a temporary folder (the original is never written), makes
it a git repository whose baseline file has --commits versions (the first
allows today's findings plus a share more, each later one fewer, the last
exactly today's), then prints, measured in this one run on this machine:
  * check  - ``mockpolicy check TESTS`` in a fresh process, wall-clock and CPU time;
  * report - ``mockpolicy report TESTS`` in a fresh process (target: <= 1.5x check);
    its CPU time includes the second process reading the baseline's history;
  * the page's size (target: < 3 MB);
  * in headless chromium (Debian's chromium and chromedriver, through selenium):
    the time from navigation to the page's script having run (target: < 2 s),
    and to the load event.
Each time is the median of --repeat runs. Nothing is asserted: the machine is
shared, so read ratios, not seconds.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from mockpolicy import baseline

MOCKPOLICY = [sys.executable, "-m", "mockpolicy"]
GIT_ENV = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.com"}


def git(repo: Path, *args: str, when: int | None = None) -> None:
    env = {**os.environ, **GIT_ENV}
    if when is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"{when} +0000"
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def make_history(repo: Path, tests: str, commits: int) -> int:
    """Commit ``commits`` versions of the baseline, a week apart; returns today's allowed count."""
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    start = int(time.time()) - 7 * 86400 * commits
    git(repo, "commit", "-q", "-m", "the suite", when=start)
    subprocess.run([*MOCKPOLICY, "baseline", tests], cwd=repo, check=True, capture_output=True)
    path = repo / "baselines" / "mockpolicy.json"
    today = baseline.load(path)
    identities = sorted(today.counts)
    for number in range(commits):
        left = commits - 1 - number  # versions still to come after this one
        retired = identities[: len(identities) * left // (commits * 2)]
        extra = {replace(identity, fingerprint=f"{index:016x}"): today.counts[identity] for index, identity in enumerate(retired)}
        version = baseline.Baseline({**today.counts, **extra}, {**today.excerpts, **{i: "retired" for i in extra}})
        baseline.write(path, version)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", f"baseline: version {number + 1}", when=start + 7 * 86400 * (number + 1))
    return sum(today.counts.values())


def timed(command: list[str], cwd: Path) -> tuple[float, float]:
    """Wall-clock and CPU (user + system, the command's processes and their workers) seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    begin = time.perf_counter()
    subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - begin
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(wall for wall, _ in runs), statistics.median(cpu for _, cpu in runs)


def browser_times(page: Path, screenshot: Path | None) -> tuple[float, float]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1600"):
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or "chromium"
    driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver") or "chromedriver"))
    try:
        ready, loaded = [], []
        for _ in range(3):
            driver.get(page.as_uri())
            timing = driver.execute_script(
                "var t = performance.getEntriesByType('navigation')[0];"
                "return [t.domContentLoadedEventEnd, t.loadEventEnd];")
            ready.append(timing[0] / 1000)
            loaded.append(timing[1] / 1000)
        if screenshot is not None:
            driver.save_screenshot(str(screenshot))
        return statistics.median(ready), statistics.median(loaded)
    finally:
        driver.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("suite", type=Path)
    parser.add_argument("tests")
    parser.add_argument("--commits", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--screenshot", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        repo = Path(folder) / args.suite.resolve().name
        shutil.copytree(args.suite, repo, symlinks=True, ignore=shutil.ignore_patterns(".git"))
        allowed = make_history(repo, args.tests, args.commits)
        output = repo / "mockpolicy-report.html"
        check, report = [], []
        for _ in range(args.repeat):  # interleaved, so that a change in the machine's load hits both
            check.append(timed([*MOCKPOLICY, "check", args.tests], repo))
            report.append(timed([*MOCKPOLICY, "report", args.tests, "--output", str(output)], repo))
        (check_wall, check_cpu), (report_wall, report_cpu) = medians(check), medians(report)
        size = output.stat().st_size
        print(f"baseline: {allowed} allowed finding(s), {args.commits} commits of history")
        print(f"check   {check_wall:7.2f} s wall, {check_cpu:6.2f} s CPU")
        print(f"report  {report_wall:7.2f} s wall, {report_cpu:6.2f} s CPU;  ratio report/check: "
              f"{report_wall / check_wall:.2f} wall, {report_cpu / check_cpu:.2f} CPU (target <= 1.5)")
        print(f"page    {size / 1e6:7.2f} MB  (target < 3)")
        ready, loaded = browser_times(output, args.screenshot)
        print(f"browser {ready:7.2f} s to DOMContentLoaded (script run), {loaded:.2f} s to load (target < 2)")


if __name__ == "__main__":
    main()
