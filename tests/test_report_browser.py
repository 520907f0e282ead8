"""The report page in a real headless browser (Debian's chromium, driven
through its chromedriver by selenium): charts drawn with the expected marks,
tables populated, sorting and filtering by keyboard, no console error, no
request beyond the page itself, no horizontal scrolling at a phone's width,
and markup from a hostile repository inert.

Without chromium and chromedriver these tests are skipped, or fail where
$MOCKPOLICY_REQUIRE_BROWSER is set (CI installs them)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLE, mockpolicy_in_process
from test_report import hostile_project

pytestmark = pytest.mark.slow

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402


def _browser() -> tuple[str, str]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if chromium and driver:
        return chromium, driver
    if os.environ.get("MOCKPOLICY_REQUIRE_BROWSER"):
        pytest.fail("chromium and chromedriver are required here (apt-get install chromium chromium-driver)")
    pytest.skip("chromium and chromedriver are not installed")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    chromium, driver_path = _browser()
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1000", "--disable-extensions", "--no-first-run"):
        options.add_argument(argument)
    options.binary_location = chromium
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    try:
        yield driver
    finally:
        driver.quit()


def open_page(browser: Any, page: Path, width: int = 1280) -> None:
    browser.set_window_size(width, 1000)
    browser.get_log("browser")
    browser.get_log("performance")
    browser.get(page.as_uri())
    assert browser.execute_script("return document.documentElement.getAttribute('data-ready')") == "true"


def problems(browser: Any, page: Path) -> tuple[list[str], list[str]]:
    """Console messages of warning level or worse, and requests for anything but the page."""
    console = [entry["message"] for entry in browser.get_log("browser") if entry["level"] in ("WARNING", "SEVERE")]
    requests = []
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            url = message["params"]["request"]["url"]
            if url != page.as_uri() and not url.startswith("data:"):
                requests.append(url)
    return console, requests


def count(browser: Any, selector: str) -> int:
    return len(browser.find_elements(By.CSS_SELECTOR, selector))


def column(browser: Any, table: str, index: int) -> list[str]:
    return [cell.text for cell in browser.find_elements(By.CSS_SELECTOR, f"#{table} tbody tr td:nth-child({index})")]


@pytest.fixture(scope="module")
def shop_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    shop = shutil.copytree(EXAMPLE, tmp_path_factory.mktemp("report") / "shop")
    assert mockpolicy_in_process("report", cwd=shop).returncode == 0
    found = json.loads(mockpolicy_in_process("check", "--format", "json", cwd=shop).stdout)
    return shop / "mockpolicy-report.html", found


def test_the_example_report_renders(browser: Any, shop_page: tuple[Path, list[dict[str, Any]]]) -> None:
    page, found = shop_page
    open_page(browser, page)
    rules = {finding["symbol"] for finding in found}
    assert count(browser, "#rules-table tbody tr") == len(rules)
    assert count(browser, "#rules-chart rect.mark") == len(rules)  # all new: one segment per rule
    assert count(browser, "#packages-chart rect.mark") == 1  # one package: shop
    assert count(browser, "#folders-chart rect.mark") == 1
    assert count(browser, "#targets-table tbody tr") >= 4
    assert count(browser, "#files-table tbody tr") == 1
    assert count(browser, "#partials-chart rect.mark") == count(browser, "#partials-table tbody tr") > 0
    assert sum(int(text) for text in column(browser, "rules-table", 5)) == len(found)
    width = browser.execute_script("return document.querySelector('#rules-chart rect.mark').getBBox().width")
    assert width > 0
    console, requests = problems(browser, page)
    assert console == []
    assert requests == []


def test_tables_sort_and_filter_from_the_keyboard(browser: Any, shop_page: tuple[Path, list[dict[str, Any]]]) -> None:
    page, _ = shop_page
    open_page(browser, page)
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    skip = browser.switch_to.active_element
    assert skip.get_attribute("class") == "skip"
    skip.send_keys(Keys.ENTER)
    assert browser.execute_script("return location.hash") == "#summary"

    names = column(browser, "targets-table", 2)
    button = browser.find_element(By.CSS_SELECTOR, "#targets-table thead th:nth-child(2) button")
    button.send_keys(Keys.ENTER)
    header = browser.find_element(By.CSS_SELECTOR, "#targets-table thead th:nth-child(2)")
    assert header.get_attribute("aria-sort") == "ascending"
    assert column(browser, "targets-table", 2) == sorted(names, key=str.lower)
    button.send_keys(Keys.SPACE)
    assert header.get_attribute("aria-sort") == "descending"
    assert column(browser, "targets-table", 2) == sorted(names, key=str.lower, reverse=True)

    sites = browser.find_element(By.CSS_SELECTOR, "#targets-table thead th:nth-child(4) button")
    sites.send_keys(Keys.ENTER)  # counts sort largest first
    numbers = [int(text) for text in column(browser, "targets-table", 4)]
    assert numbers == sorted(numbers, reverse=True)

    search = browser.find_element(By.ID, "targets-filter")
    search.send_keys("storage")
    shown = [row for row in browser.find_elements(By.CSS_SELECTOR, "#targets-table tbody tr") if row.is_displayed()]
    assert shown and all("storage" in row.text for row in shown)
    assert browser.find_element(By.ID, "targets-filter-status").text == f"{len(shown)} of {len(names)} rows shown."
    console, requests = problems(browser, page)
    assert console == [] and requests == []


def test_the_page_fits_a_phone(browser: Any, shop_page: tuple[Path, list[dict[str, Any]]]) -> None:
    page, _ = shop_page
    open_page(browser, page, width=360)
    overflow = browser.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0  # wide tables scroll inside their own regions
    label = browser.find_element(By.CSS_SELECTOR, "#rules-chart .label")
    bar = browser.find_element(By.CSS_SELECTOR, "#rules-chart svg.bar")
    assert bar.location["y"] > label.location["y"]  # labels above their bars
    assert bar.size["width"] > 200


def test_a_hostile_repository_runs_no_script(browser: Any, tmp_path: Path) -> None:
    root = hostile_project(tmp_path / "repo")
    assert mockpolicy_in_process("report", cwd=root).returncode == 0
    page = root / "mockpolicy-report.html"
    open_page(browser, page)
    assert count(browser, "script") == 1
    assert count(browser, "img") == 0
    assert '<img src=x onerror="alert(1)">' in browser.find_element(By.ID, "files-table").text
    assert count(browser, "#history-table tbody tr") == 1
    assert count(browser, "#history-chart circle.point") == 1
    console, requests = problems(browser, page)
    assert console == [] and requests == []


def test_the_burn_down_chart_has_a_mark_per_version(browser: Any, app_project: Path) -> None:
    from conftest import git, write_tree
    from test_report import TESTS

    write_tree(app_project, TESTS)
    git(app_project, "init", "-q", "-b", "main")
    assert mockpolicy_in_process("baseline", cwd=app_project).returncode == 0
    git(app_project, "add", "-A")
    git(app_project, "commit", "-q", "-m", "baseline")
    (app_project / "tests/test_jobs.py").write_text("def test_nothing():\n    pass\n")
    assert mockpolicy_in_process("prune", cwd=app_project).returncode == 0
    git(app_project, "commit", "-q", "-am", "prune")
    assert mockpolicy_in_process("report", cwd=app_project).returncode == 0
    page = app_project / "mockpolicy-report.html"
    open_page(browser, page)
    assert count(browser, "#history-chart circle.point") == 2
    assert count(browser, "#history-chart path.series") >= 1
    assert count(browser, "#history-chart svg.line-chart line.trend") == 1
    assert count(browser, "#history-table tbody tr") == 2
    console, requests = problems(browser, page)
    assert console == [] and requests == []
