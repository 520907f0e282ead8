"""Habits of ruff, pylint and mypy users: choosing rules, suppressing inline
(both front ends alike), summaries, statistics, exit and output options,
colour, progress and closed pipes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import coverage
import pytest
from conftest import executable, mockpolicy, mockpolicy_in_process, pylint, run, write_tree

MOCKS = """
    from unittest import mock


    def test_claim():
        with mock.patch("app.jobs.Runner.claim"):
            pass
    """

# Every suppression form pylint knows, on findings of two rules (first-party-mock W7301, unspecced-mock W7307).
SUPPRESSED = """
    from unittest import mock


    def test_line_end_by_symbol():
        with mock.patch("app.jobs.run"):  # pylint: disable=first-party-mock
            pass


    def test_line_end_by_id():
        with mock.patch("app.jobs.run"):  # pylint: disable=W7301,W7307
            pass


    def test_disable_next():
        # pylint: disable-next=unspecced-mock
        with mock.patch("app.jobs.run"):
            pass


    def test_block():
        # pylint: disable=first-party-mock
        with mock.patch("app.jobs.run"):
            pass
        with mock.patch("app.jobs.Runner.claim"):
            pass


    class TestScope:
        # pylint: disable=unspecced-mock

        def test_in_class(self):
            with mock.patch("app.jobs.run"):
                pass

        def test_enabled_again(self):
            # pylint: enable=unspecced-mock
            with mock.patch("app.jobs.run"):
                pass


    def test_untouched():
        with mock.patch("app.jobs.run"):
            pass
    """


def _from_pylint(project: Path, *args: str) -> set[tuple[str, int, str]]:
    result = pylint("--disable=all", "--enable=mockpolicy", "--output-format=json2", *args, "tests", cwd=project)
    assert "Traceback" not in result.stderr, result.stderr
    return {(m["path"], m["line"], m["symbol"]) for m in json.loads(result.stdout)["messages"]}


def _from_cli(project: Path, *args: str) -> set[tuple[str, int, str]]:
    result = mockpolicy_in_process("check", "--format", "json", *args, cwd=project)
    assert result.returncode in (0, 1), result.stderr
    return {(f["path"], f["line"], f["symbol"]) for f in json.loads(result.stdout)}


def test_every_suppression_form_is_honoured_alike_by_pylint_and_the_cli(app_project: Path) -> None:
    write_tree(app_project, {
        "tests/test_forms.py": SUPPRESSED,
        "tests/test_skipped.py": "# pylint: skip-file\n" + MOCKS.replace("\n    ", "\n"),
    })
    from_cli = _from_cli(app_project)
    assert from_cli == _from_pylint(app_project)
    lines = {(line, symbol) for path, line, symbol in from_cli if path.endswith("test_forms.py")}
    assert lines == {
        (5, "unspecced-mock"),                                # the line-end disable names first-party-mock only
        (16, "first-party-mock"),                             # disable-next names unspecced-mock only
        (22, "unspecced-mock"), (24, "unspecced-mock"),       # the block disable is first-party-mock's
        (32, "first-party-mock"),                             # class scope: unspecced-mock off ...
        (37, "first-party-mock"), (37, "unspecced-mock"),     # ... until enabled again
        (42, "first-party-mock"), (42, "unspecced-mock"),     # no comment
    }
    assert not any(path.endswith("test_skipped.py") for path, _, _ in from_cli)


def test_pylint_configuration_disables_our_rules_for_the_cli_too(app_project: Path) -> None:
    with (app_project / "pyproject.toml").open("a") as handle:
        handle.write('\n[tool.pylint."messages control"]\ndisable = ["unspecced-mock", "missing-docstring", "all"]\n')
    write_tree(app_project, {"tests/test_jobs.py": MOCKS})
    assert _from_cli(app_project) == {("tests/test_jobs.py", 5, "first-party-mock")}
    result = pylint("--enable=mockpolicy", "--output-format=json2", "tests", cwd=app_project)
    found = {(m["path"], m["line"], m["symbol"]) for m in json.loads(result.stdout)["messages"] if m["messageId"].startswith("W73")}
    assert found == {("tests/test_jobs.py", 5, "first-party-mock")}


def test_selection_in_config_and_flags_applies_to_both_front_ends(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": MOCKS, "tests/legacy/test_old.py": MOCKS})
    both = {("tests/test_jobs.py", 5, "first-party-mock"), ("tests/test_jobs.py", 5, "unspecced-mock"),
            ("tests/legacy/test_old.py", 5, "first-party-mock"), ("tests/legacy/test_old.py", 5, "unspecced-mock")}
    assert _from_cli(app_project) == both
    assert _from_cli(app_project, "--select", "W7307") == {f for f in both if f[2] == "unspecced-mock"}
    assert _from_cli(app_project, "--ignore", "first-party-mock") == {f for f in both if f[2] == "unspecced-mock"}
    assert _from_cli(app_project, "--select", "W7301", "--extend-select", "unspecced-mock") == both
    with (app_project / "pyproject.toml").open("a") as handle:
        handle.write('\n[tool.mockpolicy]\nignore = ["W7301"]\nper-file-ignores = {"tests/legacy/*" = ["unspecced-mock"]}\n')
    expected = {("tests/test_jobs.py", 5, "unspecced-mock")}
    assert _from_cli(app_project) == expected
    assert _from_pylint(app_project) == expected
    assert _from_cli(app_project, "--extend-select", "ALL") >= expected | {("tests/test_jobs.py", 5, "first-party-mock")}


def test_a_file_not_analysed_is_reported_whatever_is_selected(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": MOCKS, "tests/test_broken.py": "from unittest import mock\ndef test(:\n"})
    broken = ("tests/test_broken.py", 2, "mock-analysis-error")
    assert broken in _from_cli(app_project, "--select", "unspecced-mock")
    assert broken not in _from_cli(app_project, "--select", "unspecced-mock", "--ignore", "E7399")
    with (app_project / "pyproject.toml").open("a") as handle:
        handle.write('\n[tool.mockpolicy]\nselect = ["first-party-mock"]\n')
    assert _from_cli(app_project) == {("tests/test_jobs.py", 5, "first-party-mock"), broken}
    with (app_project / "pyproject.toml").open("a") as handle:
        handle.write('ignore = ["mock-analysis-error"]\n')
    assert _from_cli(app_project, "--select", "unspecced-mock") == {("tests/test_jobs.py", 5, "unspecced-mock")}


def test_an_unknown_rule_name_is_one_sentence(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": MOCKS})
    result = mockpolicy_in_process("check", "--ignore", "no-such-rule", cwd=app_project)
    assert result.returncode == 2
    assert result.stderr == (
        "mockpolicy: error: --ignore: 'no-such-rule' names no mockpolicy rule (use a symbol such as first-party-mock, "
        "an id such as W7301, an id prefix such as W73, or ALL).\n"
    )
    with (app_project / "pyproject.toml").open("a") as handle:
        handle.write('\n[tool.mockpolicy]\nselect = ["W99"]\n')
    result = mockpolicy_in_process("check", cwd=app_project)
    assert result.returncode == 2 and "pyproject.toml: [tool.mockpolicy] select: 'W99' names no mockpolicy rule" in result.stderr


def test_the_plugin_honours_exclude(app_project: Path) -> None:
    with (app_project / "pyproject.toml").open("a") as handle:
        handle.write('\n[tool.mockpolicy]\nexclude = ["tests/legacy"]\n')
    write_tree(app_project, {"tests/test_jobs.py": MOCKS, "tests/legacy/test_old.py": MOCKS})
    assert {path for path, _, _ in _from_pylint(app_project)} == {"tests/test_jobs.py"}
    assert {path for path, _, _ in _from_cli(app_project)} == {"tests/test_jobs.py"}


def test_summary_statistics_exit_zero_quiet_and_output_file(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_a.py": MOCKS, "tests/test_b.py": MOCKS.replace("Runner.claim", "run")})
    result = mockpolicy_in_process("check", cwd=app_project)
    assert result.returncode == 1
    assert result.stdout.splitlines()[-1] == "Found 4 findings in 2 of 2 files checked (0 baselined, 0 stale)."
    stats = mockpolicy_in_process("check", "--statistics", cwd=app_project)
    assert stats.stdout == "2  W7301  first-party-mock\n2  W7307  unspecced-mock\n"
    assert stats.stderr == "Found 4 findings in 2 of 2 files checked (0 baselined, 0 stale).\n"
    as_json = json.loads(mockpolicy_in_process("check", "--statistics", "--format", "json", "-q", cwd=app_project).stdout)
    assert as_json == [{"symbol": "first-party-mock", "message_id": "W7301", "count": 2},
                       {"symbol": "unspecced-mock", "message_id": "W7307", "count": 2}]
    assert mockpolicy_in_process("check", "--exit-zero", "-q", cwd=app_project).returncode == 0
    quiet = mockpolicy_in_process("check", "-q", cwd=app_project)
    assert len(quiet.stdout.splitlines()) == 4 and quiet.stderr == ""
    report = app_project / "out" / "report.sarif"
    report.parent.mkdir()
    written = mockpolicy_in_process("check", "--format", "sarif", "--output-file", str(report), cwd=app_project)
    assert written.stdout == "" and written.returncode == 1
    assert len(json.loads(report.read_text())["runs"][0]["results"]) == 4
    missing = mockpolicy_in_process("check", "-o", str(app_project / "nowhere" / "r.txt"), cwd=app_project)
    assert missing.returncode == 2 and missing.stderr.startswith("mockpolicy: error: cannot write ")


def test_colour_follows_the_terminal_conventions(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_a.py": MOCKS})
    plain = mockpolicy("check", "-q", cwd=app_project)
    assert "\x1b[" not in plain.stdout  # a pipe gets no colour
    forced = mockpolicy("check", "-q", cwd=app_project, env={"FORCE_COLOR": "1"})
    assert "\x1b[1mtests/test_a.py\x1b[0m:5:9: \x1b[33mfirst-party-mock\x1b[0m" in forced.stdout
    both = mockpolicy("check", "-q", cwd=app_project, env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\x1b[" not in both.stdout and both.stdout == plain.stdout


def test_a_closed_pipe_ends_quietly(app_project: Path) -> None:
    write_tree(app_project, {f"tests/test_{n}.py": MOCKS for n in range(40)})
    result = subprocess.run(f"'{executable('mockpolicy')}' check | head -0", shell=True, cwd=app_project,
                            capture_output=True, text=True, check=False)
    assert result.stderr == ""


def test_the_quick_exit_loses_no_output_and_no_coverage_data(app_project: Path, tmp_path: Path) -> None:
    # The program ends without tearing its objects down once its output is
    # flushed: a long report through a pipe and a report file arrive whole, and
    # a run measured by coverage.py still gets to save its data.
    write_tree(app_project, {f"tests/test_{n}.py": MOCKS for n in range(40)})
    piped = mockpolicy("check", "-q", cwd=app_project)
    assert piped.returncode == 1 and len(piped.stdout.splitlines()) == 80 and piped.stdout.endswith(".\n")
    report = tmp_path / "report.txt"
    written = mockpolicy("check", "-q", "-o", str(report), cwd=app_project)
    assert written.returncode == 1 and report.read_text() == piped.stdout
    data_file = tmp_path / "measured.coverage"
    measured = run([sys.executable, "-m", "coverage", "run", f"--data-file={data_file}", "--source=mockpolicy",
                    "-m", "mockpolicy", "check", "-q"], cwd=app_project)  # by name: installed or editable alike
    assert measured.returncode == 1 and measured.stdout == piped.stdout
    data = coverage.CoverageData(basename=str(data_file))
    data.read()
    assert any(Path(name).name == "cli.py" and Path(name).parent.name == "mockpolicy" for name in data.measured_files())


def test_what_is_analysed_is_said_when_the_whole_project_is_walked(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": '[project]\nname = "app"\n', "app/__init__.py": "", "app/jobs.py": "def run():\n    pass\n",
                          "app/test_jobs.py": MOCKS.replace("app.jobs.Runner.claim", "app.jobs.run")})
    result = mockpolicy_in_process("check", cwd=tmp_path)
    assert result.stderr.splitlines()[0] == (
        "mockpolicy: analysing 3 files under . (the whole project: no tests folder or pytest testpaths found)"
    )


def _stderr_on_a_terminal(*args: str, cwd: Path) -> tuple[int, str]:
    """Run mockpolicy with stderr on a pseudo-terminal; its exit status and what the terminal showed."""
    primary, secondary = os.openpty()
    process = subprocess.Popen([executable("mockpolicy"), *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=secondary)
    os.close(secondary)
    shown = b""
    while True:
        try:
            chunk = os.read(primary, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        shown += chunk
    os.close(primary)
    return process.wait(timeout=120), shown.decode()


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_a_terminal_gets_the_analysing_line_and_progress(app_project: Path) -> None:
    write_tree(app_project, {f"tests/test_{n}.py": MOCKS for n in range(210)})
    assert _stderr_on_a_terminal("check", "-q", "--exit-zero", cwd=app_project) == (0, "")
    status, shown = _stderr_on_a_terminal("check", "--exit-zero", cwd=app_project)
    assert status == 0
    assert "mockpolicy: analysing 210 files under tests (the project's test folder)" in shown
    assert "mockpolicy: analysing 210/210 files" in shown and shown.endswith("\r\x1b[K")


def test_ci_formats_give_paths_from_the_repository_top_in_a_monorepo(tmp_path: Path) -> None:
    from conftest import APP_FILES, git

    write_tree(tmp_path, {f"shop/{name}": text for name, text in APP_FILES.items()})
    write_tree(tmp_path, {"shop/tests/test_jobs.py": MOCKS, "README.md": "monorepo\n"})
    git(tmp_path, "init", "-q")
    project = tmp_path / "shop"

    def paths(fmt: str, *args: str) -> set[str]:
        out = mockpolicy_in_process("check", "--format", fmt, "-q", *args, cwd=project).stdout
        if fmt == "sarif":
            return {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in json.loads(out)["runs"][0]["results"]}
        if fmt == "gitlab":
            return {issue["location"]["path"] for issue in json.loads(out)}
        if fmt == "rdjson":
            return {d["location"]["path"] for d in json.loads(out)["diagnostics"]}
        if fmt == "github":
            return {line.split("file=")[1].split(",")[0] for line in out.splitlines() if "file=" in line}
        return {f["path"] for f in json.loads(out)}

    for fmt in ("sarif", "gitlab", "rdjson", "github"):
        assert paths(fmt) == {"shop/tests/test_jobs.py"}, fmt
        assert paths(fmt, "--path-prefix", "") == {"tests/test_jobs.py"}, fmt
        assert paths(fmt, "--path-prefix", "services/shop/") == {"services/shop/tests/test_jobs.py"}, fmt
    assert paths("json") == {"tests/test_jobs.py"}  # mockpolicy's own formats stay relative to the project, like the baseline


def test_comments_naming_pylints_own_or_unknown_messages_are_understood(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": MOCKS.replace(
        'with mock.patch("app.jobs.Runner.claim"):',
        'with mock.patch("app.jobs.Runner.claim"):  # pylint: disable=missing-docstring,no-such-message,first-party-mock',
    )})
    result = mockpolicy_in_process("check", "--format", "json", cwd=app_project)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert {(f["line"], f["symbol"]) for f in json.loads(result.stdout)} == {(5, "unspecced-mock")}
    ours = {m for m in _from_pylint(app_project) if m[2] != "unknown-option-value"}  # pylint's word on the typo
    assert ours == {("tests/test_jobs.py", 5, "unspecced-mock")}
