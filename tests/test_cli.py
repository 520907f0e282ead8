"""The ``mockpolicy`` command on real projects: the installed console script in
a subprocess where the process is the point (exit status, output streams,
``-j``, crashes), ``mockpolicy.cli.main`` in this process for the rest."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import EXAMPLE, mockpolicy, mockpolicy_in_process, write_tree

from mockpolicy import workers
from mockpolicy.rules import ALL_RULES, COVERAGE_RULES, RUNTIME_RULES

BAD_MOCK = """
    from unittest import mock


    def test_claim():
        with mock.patch("app.jobs.Runner.claim", autospec=True, return_value="x"):
            pass
    """


def test_check_reports_first_party_mock_in_text(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    result = mockpolicy("check", cwd=app_project)
    assert result.returncode == 1, result.stderr
    line = result.stdout.strip()
    assert line.startswith("tests/test_jobs.py:5:9: first-party-mock 'app.jobs.Runner.claim' ")
    assert "src/app/jobs.py" in line


def test_check_json_has_the_documented_fields(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    result = mockpolicy_in_process("check", "--format", "json", cwd=app_project)
    assert result.returncode == 1
    [finding] = json.loads(result.stdout)
    assert finding["symbol"] == "first-party-mock"
    assert finding["message_id"] == "W7301"
    assert finding["path"] == "tests/test_jobs.py"
    assert (finding["line"], finding["column"]) == (5, 9)
    assert "app.jobs.Runner.claim" in finding["message"]


def test_check_clean_project_exits_zero(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": """
        from unittest import mock


        def test_sleep():
            with mock.patch("app.jobs.time.sleep", autospec=True), mock.patch("app.jobs.LOG", autospec=True):
                pass
        """})
    result = mockpolicy_in_process("check", "--format", "json", cwd=app_project)
    assert (result.returncode, json.loads(result.stdout)) == (0, [])


def test_check_paths_outside_cwd_are_relative_to_their_project(app_project: Path, tmp_path: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    result = mockpolicy("check", str(app_project / "tests"), cwd=Path("/"))
    assert result.returncode == 1
    assert result.stdout.startswith("tests/test_jobs.py:5:9: first-party-mock")


def test_parallel_output_is_identical(app_project: Path) -> None:
    # sizes differ, so the workers take the files in another order than they are reported
    files = {f"tests/test_{n:02}.py": BAD_MOCK + "    # padding\n" * (n * 37 % 50) for n in range(12)}
    write_tree(app_project, files)
    serial = mockpolicy("check", "-j", "1", cwd=app_project)
    parallel = mockpolicy("check", "-j", "2", cwd=app_project)
    assert serial.returncode == parallel.returncode == 1
    assert serial.stdout == parallel.stdout
    assert serial.stdout.count("first-party-mock") == 12


def test_workers_take_runs_of_neighbouring_files_of_about_equal_size(tmp_path: Path) -> None:
    sizes = [100, 5000, 100, 100, 2500, 2500, 0, 300]
    files = []
    for number, size in enumerate(sizes):
        files.append(tmp_path / f"test_{number}.py")
        files[-1].write_bytes(b"#" * size)
    files.append(tmp_path / "gone.py")  # unreadable: size 0, still given to a worker
    groups = workers._groups(files, 4)
    assert [path for _, group, _ in groups for path in group] == files  # every file once, in order
    assert all(group[0] == files[start] for start, group, _ in groups)
    assert [(len(group), size) for _, group, size in groups] == [(2, 5100), (3, 2700), (3, 2800), (1, 0)]


def test_missing_path_is_a_usage_error(app_project: Path) -> None:
    result = mockpolicy_in_process("check", "no/such/dir", cwd=app_project)
    assert result.returncode == 2
    assert result.stderr.strip() == "mockpolicy: error: path 'no/such/dir' does not exist."
    assert "Traceback" not in result.stderr


def test_bad_jobs_value_is_a_usage_error(app_project: Path) -> None:
    result = mockpolicy_in_process("check", "-j", "many", cwd=app_project)
    assert result.returncode == 2
    assert "expected a number of processes" in result.stderr


def test_broken_configuration_names_the_file(app_project: Path) -> None:
    (app_project / "pyproject.toml").write_text("[project\nname = 'app'\n")
    result = mockpolicy_in_process("check", cwd=app_project)
    assert result.returncode == 2
    assert "pyproject.toml: not valid TOML" in result.stderr
    assert "Traceback" not in result.stderr


def test_unknown_option_is_rejected(app_project: Path) -> None:
    with (app_project / "pyproject.toml").open("a") as handle:
        handle.write("\n[tool.mockpolicy]\nfirst_party = ['app']\n")
    result = mockpolicy_in_process("check", cwd=app_project)
    assert result.returncode == 2
    assert "unknown option 'first_party' in [tool.mockpolicy]" in result.stderr


def test_first_party_override(app_project: Path) -> None:
    with (app_project / "pyproject.toml").open("a") as handle:
        handle.write("\n[tool.mockpolicy]\nfirst-party = ['somethingelse']\n")
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    result = mockpolicy_in_process("check", "-q", cwd=app_project)
    assert (result.returncode, result.stdout) == (0, "")


def test_a_project_without_metadata_is_rooted_above_its_packages(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "app/__init__.py": "", "app/jobs.py": "class Runner:\n    def claim(self):\n        return 1\n",
        "tests/__init__.py": "", "tests/test_jobs.py": BAD_MOCK,
    })
    result = mockpolicy_in_process("check", "--no-cache", ".", cwd=tmp_path / "tests")
    assert result.returncode == 1, result.stderr
    assert result.stdout.startswith("tests/test_jobs.py:5:9: first-party-mock 'app.jobs.Runner.claim' ")
    assert "no first-party package" not in result.stderr


def test_check_says_when_no_first_party_package_is_found(tmp_path: Path) -> None:
    write_tree(tmp_path, {"tests/test_jobs.py": BAD_MOCK})
    result = mockpolicy_in_process("check", "--no-cache", "tests", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"no first-party package found under {tmp_path / 'tests'}," in result.stderr
    configured = mockpolicy_in_process("check", "--no-cache", "tests", "-q", cwd=tmp_path)
    assert "no first-party" not in configured.stderr  # -q: findings only


def test_check_names_declared_requirements_it_cannot_read(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "pyproject.toml": "[project]\nname = 'app'\ndependencies = ['absent-vendor-lib>=1', 'pylint']\n",
        "app/__init__.py": "", "tests/test_jobs.py": BAD_MOCK,
        "venv/lib/python3.11/site-packages/absent_vendor_lib-1.0.dist-info/METADATA": "",
    })
    result = mockpolicy_in_process("check", "--no-cache", "tests", cwd=tmp_path, env={"VIRTUAL_ENV": ""})
    assert "1 of the project's declared requirements (absent-vendor-lib) are not installed" in result.stderr
    activated = {"VIRTUAL_ENV": str(tmp_path / "venv")}
    found = mockpolicy_in_process("check", "--no-cache", "tests", cwd=tmp_path, env=activated)
    assert "declared requirements" not in found.stderr


def test_exclude_skips_folders_found_by_walking(app_project: Path) -> None:
    with (app_project / "pyproject.toml").open("a") as handle:
        handle.write("\n[tool.mockpolicy]\nexclude = ['tests/legacy']\n")
    write_tree(app_project, {"tests/legacy/test_old.py": BAD_MOCK, "tests/test_new.py": BAD_MOCK})
    result = mockpolicy("check", "-q", cwd=app_project)
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == ["tests/test_new.py"]
    named = mockpolicy("check", "tests/legacy/test_old.py", cwd=app_project)
    assert named.stdout.startswith("tests/legacy/test_old.py:5:9:")


def test_bad_files_are_reported_and_the_rest_checked(app_project: Path) -> None:
    write_tree(app_project, {
        "tests/test_jobs.py": BAD_MOCK,
        "tests/test_syntax.py": "from unittest import mock\ndef test_x(:\n    mock.patch('app.jobs.run', autospec=True)\n",
        "tests/test_cycle_a.py": "from tests.test_cycle_b import x as y\nx = 1\n",
        "tests/test_cycle_b.py": "from tests.test_cycle_a import y as x\nfrom unittest import mock\n"
        "def test_c():\n    with mock.patch('tests.test_cycle_a.y', autospec=True), mock.patch('nowhere.at.all', autospec=True):\n        pass\n",
    })
    (app_project / "tests" / "__init__.py").write_text("")
    (app_project / "tests" / "test_bytes.py").write_bytes(b"from unittest import mock\nx = '\xff\xfe'\n")
    result = mockpolicy_in_process("check", cwd=app_project)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert any(line.startswith("tests/test_jobs.py:5:9: first-party-mock") for line in lines)
    [syntax] = [line for line in lines if line.startswith("tests/test_syntax.py")]
    assert syntax.startswith("tests/test_syntax.py:2:0: mock-analysis-error cannot parse")
    [undecodable] = [line for line in lines if line.startswith("tests/test_bytes.py")]
    assert "mock-analysis-error" in undecodable
    assert not [line for line in lines if "test_cycle" in line]
    assert "Traceback" not in result.stderr


def test_large_generated_file(app_project: Path) -> None:
    # Over a megabyte and 10,000 mocks in one module; the time grows linearly
    # with the size, so a larger file proves no more.
    body = "".join(
        f"def test_{n}():\n    with mock.patch('app.jobs.time.sleep', autospec=True):\n        assert {n} == {n}\n\n"
        for n in range(10_000)
    )
    source = "from unittest import mock\n\n" + body
    assert len(source) > 1_000_000
    (app_project / "tests" / "test_generated.py").write_text(source)
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    result = mockpolicy_in_process("check", "-q", cwd=app_project)
    assert result.returncode == 1
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == ["tests/test_jobs.py"]


def test_deeply_nested_expression_does_not_crash(app_project: Path) -> None:
    nested = "(" * 5000 + "1" + ")" * 5000
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK})
    (app_project / "tests" / "test_deep.py").write_text(f"from unittest import mock\nX = {nested}\n")
    result = mockpolicy("check", cwd=app_project)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "tests/test_deep.py:" in result.stdout
    assert "tests/test_jobs.py:5:9: first-party-mock" in result.stdout


def test_explain_prints_a_rule_page() -> None:
    result = mockpolicy("explain", "W7301", cwd=EXAMPLE)
    assert (result.returncode, result.stderr) == (0, ""), result.stderr
    assert result.stdout.startswith("# first-party-mock (W7301)\n")


def test_explain_prints_every_rule_page(tmp_path: Path) -> None:
    for rule in ALL_RULES:
        for name in (rule.symbol, rule.msgid, rule.msgid.lower()):
            result = mockpolicy_in_process("explain", name, cwd=tmp_path)
            assert result.returncode == 0, result.stderr
            assert result.stdout.startswith(f"# {rule.symbol} ({rule.msgid})")


def test_explain_unknown_rule() -> None:
    result = mockpolicy_in_process("explain", "no-such-rule", cwd=EXAMPLE)
    assert result.returncode == 2
    assert result.stderr.startswith("mockpolicy: error: unknown rule 'no-such-rule' (known rules: first-party-mock")


def test_example_project_triggers_every_rule() -> None:
    result = mockpolicy("check", "--format", "json", cwd=EXAMPLE)
    assert result.returncode == 1, result.stderr
    symbols = {finding["symbol"] for finding in json.loads(result.stdout)}
    assert symbols == {rule.symbol for rule in ALL_RULES} - {"mock-analysis-error", "baseline-grew"} - COVERAGE_RULES - RUNTIME_RULES
