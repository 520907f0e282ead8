"""``mockpolicy report``: the page's numbers against ``check``'s, the baseline's
history read from a real git repository, the Markdown trend chart, and text
from a hostile repository kept inert. The page in a real browser is in
``test_report_browser.py``."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLE, git, mockpolicy_in_process, write_tree

from mockpolicy import baseline

TESTS = {
    "tests/test_jobs.py": """
        from unittest import mock

        from app.jobs import Runner, run


        def test_claim():
            with mock.patch("app.jobs.Runner.claim", autospec=True) as claim:
                claim.return_value = "claimed"
                assert run() == "claimed"


        @mock.patch("app.jobs.Runner.claim", autospec=True)
        def test_run(claim):
            assert run() is not None


        def test_runner():
            with mock.patch("app.jobs.Runner", autospec=True):
                assert run() is not None
        """,
}


def report(project: Path, *args: str) -> tuple[str, str]:
    """The page ``mockpolicy report`` writes for ``project`` (and its stdout)."""
    result = mockpolicy_in_process("report", "--output", "out/report.html", *args, cwd=project)
    assert result.returncode == 0, result.stderr
    return (project / "out" / "report.html").read_text(encoding="utf-8"), result.stdout


def rows(page: str, table: str) -> list[str]:
    """The body rows of the table with id ``table``."""
    body = re.search(rf'<table[^>]*id="{table}".*?<tbody>(.*?)</tbody>', page, re.DOTALL)
    assert body, f"no table {table}"
    return re.findall(r"<tr>(.*?)</tr>", body.group(1), re.DOTALL)


def cells(row: str) -> list[str]:
    return [html.unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.DOTALL)]


def test_the_example_report_counts_what_check_finds(tmp_path: Path) -> None:
    shop = shutil.copytree(EXAMPLE, tmp_path / "shop")
    page, said = report(shop)
    found = json.loads(mockpolicy_in_process("check", "--format", "json", cwd=shop).stdout)
    assert f"{len(found)} finding(s), {len(found)} new" in said
    by_rule = {cells(row)[0]: int(cells(row)[4]) for row in rows(page, "rules-table")}
    expected: dict[str, int] = {}
    for finding in found:
        expected[finding["symbol"]] = expected.get(finding["symbol"], 0) + 1
    assert by_rule == expected
    targets = [cells(row) for row in rows(page, "targets-table")]
    assert targets[0][1] == "shop.payments.charge"  # mocked by the most tests
    assert all(int(row[2]) >= int(later[2]) for row, later in zip(targets, targets[1:]))
    files = [cells(row) for row in rows(page, "files-table")]
    assert [row[0] for row in files] == ["tests/test_checkout.py"]
    assert 'href="../tests/test_checkout.py"' in page  # links are relative to where the page is
    assert "is not in a git repository" in page
    assert "There is no baseline file" in page


def _commit_baseline(project: Path, message: str) -> None:
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", message)


def test_burn_down_reads_the_baseline_files_history(app_project: Path) -> None:
    write_tree(app_project, TESTS)
    git(app_project, "init", "-q", "-b", "main")
    _commit_baseline(app_project, "code without a baseline")
    assert mockpolicy_in_process("baseline", cwd=app_project).returncode == 0
    _commit_baseline(app_project, "baseline: record today's findings")
    allowed = sum(baseline.load(app_project / "baselines/mockpolicy.json").counts.values())
    (app_project / "tests/test_jobs.py").write_text("def test_nothing():\n    pass\n")
    assert mockpolicy_in_process("prune", cwd=app_project).returncode == 0
    _commit_baseline(app_project, "tests: no mocks; prune the baseline")
    (app_project / "baselines/mockpolicy.json").write_text('{"format": 999, "entries": []}\n')
    _commit_baseline(app_project, "a baseline of a future mockpolicy")
    git(app_project, "checkout", "-q", "HEAD~1", "--", "baselines/mockpolicy.json")  # the working tree: pruned again

    page, _ = report(app_project)
    history = [cells(row) for row in rows(page, "history-table")]
    assert [row[2] for row in history] == ["baseline: record today's findings", "tests: no mocks; prune the baseline"]
    assert [int(row[3]) for row in history] == [allowed, 0]
    assert "unsupported baseline format 999" in page  # the unreadable version is named, not drawn
    assert page.count('class="point mark') == 2
    assert f"down {allowed}" in page

    shallow, _ = report(app_project, "--history", "1")
    assert len(rows(shallow, "history-table")) == 1

    summary = mockpolicy_in_process("check", "--format", "markdown", cwd=app_project).stdout
    assert "```mermaid\nxychart-beta" in summary
    assert f"    line [{allowed}, 0]" in summary
    plain = mockpolicy_in_process("check", "--format", "text", cwd=app_project).stdout
    assert "mermaid" not in plain


def test_a_baseline_committed_once_shows_todays_counts(app_project: Path) -> None:
    write_tree(app_project, TESTS)
    git(app_project, "init", "-q", "-b", "main")
    assert mockpolicy_in_process("baseline", cwd=app_project).returncode == 0
    page, said = report(app_project)
    assert "has not been committed yet" in page
    assert "0 new" in said
    assert len(rows(page, "history-table")) == 1
    assert "mermaid" not in mockpolicy_in_process("check", "--format", "markdown", cwd=app_project).stdout


HOSTILE = '<img src=x onerror="alert(1)">'
SCRIPT = "</script><script>alert(2)</script>"


def hostile_project(root: Path) -> Path:
    """A repository whose file names, baseline and commit subjects carry markup."""
    write_tree(root, {
        "pyproject.toml": '[project]\nname = "app"\nversion = "0"\n',
        "src/app/__init__.py": "",
        "src/app/jobs.py": "def claim():\n    return 1\n",
        f"tests/test_{HOSTILE}.py": """
            from unittest import mock


            def test_claim():
                with mock.patch("app.jobs.claim", return_value=2):
                    pass
                with mock.patch("app.jobs.</script><script>alert(3)</script>"):
                    pass
            """,
    })
    git(root, "init", "-q", "-b", "main")
    assert mockpolicy_in_process("baseline", cwd=root).returncode == 0
    path = root / "baselines/mockpolicy.json"
    data = json.loads(path.read_text())
    data["files"][f"tests/{HOSTILE}.py"] = {"<b>scope</b>": [["0" * 16, {SCRIPT: 1}, SCRIPT + HOSTILE]]}
    path.write_text(json.dumps(data))
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", SCRIPT + HOSTILE)
    return root


def test_text_from_the_repository_is_escaped(tmp_path: Path) -> None:
    page, _ = report(hostile_project(tmp_path / "repo"))
    assert "<img" not in page
    assert "alert(" not in page.replace("alert(1)&#34;&gt;", "").replace("alert(2)&lt;", "").replace("alert(3)&lt;", "")
    assert len(re.findall(r"<script\b", page)) == 1  # the page's own
    assert "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;" in page
    assert "&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;" in page  # the stale entry's rule and excerpt, the commit subject
    assert "%3Cimg%20src%3Dx%20onerror%3D%22alert%281%29%22%3E" in page  # the file's link
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
    assert policy and html.unescape(policy.group(1)).startswith("default-src 'none'; style-src 'sha256-")


def test_report_errors_are_one_sentence(app_project: Path) -> None:
    (app_project / "out").write_text("a file, not a folder")
    result = mockpolicy_in_process("report", "--output", "out/report.html", cwd=app_project)
    assert result.returncode == 2
    assert result.stderr.startswith("mockpolicy: error: out/report.html: cannot be written")
    result = mockpolicy_in_process("report", "--history", "-1", cwd=app_project)
    assert result.returncode == 2 and "expected a number of commits" in result.stderr


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_page_does_not_depend_on_jobs(tmp_path: Path, jobs: str) -> None:
    shop = shutil.copytree(EXAMPLE, tmp_path / "shop")
    page, _ = report(shop, "-j", jobs)
    serial, _ = report(shop, "-j", "1")
    strip = re.compile(r"Generated [^<]*?UTC")
    assert strip.sub("", page) == strip.sub("", serial)


@pytest.mark.slow
def test_partial_mocks_checked_against_coverage_data(tmp_path: Path) -> None:
    from test_branches import EXPECTED, PROJECT, _pytest_cov

    project = write_tree(tmp_path, PROJECT)
    _pytest_cov(project, "--cov-branch", "--cov-context=test")
    page, _ = report(project, "--data", ".coverage")
    verdicts = {cells(row)[0]: int(cells(row)[2]) for row in rows(page, "verdicts-table")}
    expected: dict[str, int] = {}
    for _, symbol in EXPECTED:
        expected[symbol] = expected.get(symbol, 0) + 1
    assert {symbol: count for symbol, count in verdicts.items() if count} == expected
    assert len(rows(page, "verdict-list")) == len(EXPECTED)
    assert [cells(row)[:2] for row in rows(page, "blocks-table")] == [["tests/test_gates.py", "1"]]
    by_rule = {cells(row)[0]: int(cells(row)[4]) for row in rows(page, "rules-table")}
    assert by_rule["unverified-coverage-claim"] == 2  # coverage-based findings count in the totals too
    undocumented = [cells(row) for row in rows(page, "partials-table")]
    assert undocumented and undocumented[0][0] == "app.gates.read_evidence"
    without, _ = report(project)
    assert "verdicts-table" not in without and "Without --data" in without.replace("<code>", "").replace("</code>", "")


def test_a_project_outside_the_current_repository(tmp_path: Path) -> None:
    from conftest import APP_FILES

    here = tmp_path / "here"
    here.mkdir()
    git(here, "init", "-q", "-b", "main")
    other = write_tree(tmp_path / "other", {**APP_FILES, **TESTS})
    result = mockpolicy_in_process("report", str(other / "tests"), "--output", "page.html", cwd=here)
    assert result.returncode == 0, result.stderr
    page = (here / "page.html").read_text(encoding="utf-8")
    assert "is not in a git repository" in page
    assert 'href="../other/tests/test_jobs.py"' in page
