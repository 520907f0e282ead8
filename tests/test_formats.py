"""The output formats, produced by the real ``mockpolicy check`` and pylint,
checked against what their consumers expect (SARIF by Microsoft's validator).
Each format is produced by the installed command at least once; the other
single runs call ``mockpolicy.cli.main`` in this process."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLE, REPO, mockpolicy, mockpolicy_in_process, pylint, run, write_tree

from mockpolicy.formats.linehash import line_hashes
from mockpolicy.rules import ALL_RULES, RULES_BY_SYMBOL

UNSPECCED = """
    from unittest import mock


    def test_sleep():
        label = "é"; p = mock.patch("app.jobs.time.sleep")
        with p:
            assert label
    """


def validator(variable: str, command: str, package: str) -> str:
    """An outside validator: ``$variable``, else ``command`` on PATH. Missing, the
    test is skipped, or fails where $MOCKPOLICY_REQUIRE_VALIDATORS is set (CI)."""
    found = os.environ.get(variable) or shutil.which(command)
    if found:
        return found
    if os.environ.get("MOCKPOLICY_REQUIRE_VALIDATORS"):
        pytest.fail(f"{package} is required here but neither ${variable} nor PATH has it")
    pytest.skip(f"{package} is not installed (set {variable})")


def validate_sarif(path: Path) -> list[str]:
    """Errors and warnings Microsoft's validator (SARIF and GitHub rule kinds) reports."""
    tool = validator("MOCKPOLICY_SARIF_MULTITOOL", "sarif-multitool", "@microsoft/sarif-multitool")
    report = path.with_suffix(".validation.sarif")
    result = run([tool, "validate", str(path), "--output", str(report), "--log", "ForceOverwrite",
                  "--level", "Error", "Warning", "--rule-kind", "Sarif", "Gh"], cwd=path.parent)
    assert result.returncode == 0, result.stdout + result.stderr
    found = json.loads(report.read_text(encoding="utf-8-sig"))["runs"][0].get("results", [])
    return [f"{r['ruleId']}: {r['message']}" for r in found if r.get("level") in ("error", "warning")]


def validate_rdjson(path: Path) -> None:
    """Checks ``path`` with an RDFormat validator in its strict mode (no fields
    outside reviewdog's specification)."""
    tool = validator("MOCKPOLICY_RDJSON_VALIDATOR", "rdformat-validator", "@umbrelladocs/rdformat-validator")
    result = run([tool, "--strict", "--no-extra-fields", "--format", "json", str(path)], cwd=path.parent)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert (report["success"], report["totalErrors"], report["totalWarnings"]) == (True, 0, 0), result.stdout


def test_line_hash_matches_githubs_own_test_values() -> None:
    # Values from github/codeql-action's tests of its fingerprinting (src/fingerprints.test.ts).
    assert line_hashes("") == ["c129715d7a2bc9a3:1"]
    assert line_hashes(" a\nb\n  \t\tc\n d") == [
        "271789c17abda88f:1", "54703d4cd895b18:1", "180aee12dab6264:1", "a23a3dc5e078b07b:1",
    ]
    expected = ["e9496ae3ebfced30:1", "fb7c023a8b9ccb3f:1", "ce8ba1a563dcdaca:1", "e20e36e16fcb0cc8:1",
                "b3edc88f2938467e:1", "c8e28b0b4002a3a0:1", "c129715d7a2bc9a3:1"]
    for endings in (" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n",
                    " hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n",
                    " hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r"):
        assert line_hashes(endings) == expected
    assert line_hashes("Lorem ipsum dolor sit amet.\n" * 10) == [
        *(f"a7f2ff13bc495cf2:{n}" for n in range(1, 7)),
        "a7f2ff1481e87703:1", "a9cf91f7bbf1862b:1", "55ec222b86bcae53:1", "cc97dc7b1d7d8f7b:1", "c129715d7a2bc9a3:1",
    ]


def test_sarif_of_the_example_passes_microsofts_validator(tmp_path: Path) -> None:
    result = mockpolicy("check", "--format", "sarif", cwd=EXAMPLE)
    assert result.returncode == 1, result.stderr
    (tmp_path / "shop.sarif").write_text(result.stdout, encoding="utf-8")
    assert validate_sarif(tmp_path / "shop.sarif") == []
    log = json.loads(result.stdout)
    broken = json.loads(result.stdout)
    del broken["runs"][0]["results"][0]["message"]
    (tmp_path / "broken.sarif").write_text(json.dumps(broken), encoding="utf-8")
    assert validate_sarif(tmp_path / "broken.sarif") != []  # the validator does see errors
    assert log["version"] == "2.1.0"
    [sarif_run] = log["runs"]
    rules = sarif_run["tool"]["driver"]["rules"]
    for descriptor in rules:
        rule = RULES_BY_SYMBOL[descriptor["properties"]["symbol"]]
        assert descriptor["id"] == rule.msgid
        assert descriptor["shortDescription"]["text"] == rule.summary
        assert descriptor["fullDescription"]["text"] and descriptor["help"]["markdown"].startswith(f"# {rule.symbol}")
        assert descriptor["helpUri"] == rule.doc_url
    for result_ in sarif_run["results"]:
        location = result_["locations"][0]["physicalLocation"]
        uri, line = location["artifactLocation"]["uri"], location["region"]["startLine"]
        # From the repository's top in a git checkout (examples/shop/...), else from the project.
        top = REPO if uri.startswith("examples/shop/") else EXAMPLE
        assert not uri.startswith(("/", "file:")) and (top / uri).is_file()
        assert rules[result_["ruleIndex"]]["id"] == result_["ruleId"]
        text = (top / uri).read_text(encoding="utf-8")
        assert result_["partialFingerprints"]["primaryLocationLineHash"] == line_hashes(text)[line - 1]
    keys = [r["partialFingerprints"]["mockpolicy/v1"] for r in sarif_run["results"]]
    assert len(set(keys)) == len(keys)


def test_columns_suggestions_and_fixes(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_sleep.py": UNSPECCED})
    line = (app_project / "tests/test_sleep.py").read_text(encoding="utf-8").splitlines()[4]
    byte_column = line.encode("utf-8").index(b"mock.patch")
    fixed = line.replace('mock.patch("app.jobs.time.sleep")', 'mock.patch("app.jobs.time.sleep", autospec=True)')

    rd_text = mockpolicy("check", "--format", "rdjson", cwd=app_project).stdout
    (app_project / "out.rdjson").write_text(rd_text, encoding="utf-8")
    validate_rdjson(app_project / "out.rdjson")
    rd = json.loads(rd_text)
    [diagnostic] = rd["diagnostics"]
    assert diagnostic["code"] == {"value": "unspecced-mock", "url": RULES_BY_SYMBOL["unspecced-mock"].doc_url}
    assert diagnostic["severity"] == "WARNING"
    assert diagnostic["location"]["range"]["start"] == {"line": 5, "column": byte_column + 1}
    [suggestion] = diagnostic["suggestions"]
    start, end = suggestion["range"]["start"]["column"] - 1, suggestion["range"]["end"]["column"] - 1
    data = line.encode("utf-8")
    assert (data[:start] + suggestion["text"].encode("utf-8") + data[end:]).decode("utf-8") == fixed

    sarif = mockpolicy("check", "--format", "sarif", cwd=app_project)
    (app_project / "out.sarif").write_text(sarif.stdout, encoding="utf-8")
    assert validate_sarif(app_project / "out.sarif") == []
    [result] = json.loads(sarif.stdout)["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["region"]["startColumn"] == line.index("mock.patch") + 1
    replacement = result["fixes"][0]["artifactChanges"][0]["replacements"][0]
    assert replacement["insertedContent"]["text"] == 'mock.patch("app.jobs.time.sleep", autospec=True)'


def test_no_suggestion_when_the_fix_is_not_certain(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_sleep.py": """
        from unittest import mock


        def test_sleep():
            with mock.patch("app.jobs.time.sleep", create=True), mock.patch(
                "app.jobs.time.monotonic"
            ):
                pass
        """})
    rd = json.loads(mockpolicy_in_process("check", "--format", "rdjson", cwd=app_project).stdout)
    assert [d["code"]["value"] for d in rd["diagnostics"]] == ["unspecced-mock", "unspecced-mock"]
    assert all("suggestions" not in d for d in rd["diagnostics"])


def test_github_format_honours_annotation_limits(app_project: Path) -> None:
    body = "".join(f"def test_{n}():\n    with mock.patch('app.jobs.run', autospec=True):\n        pass\n\n" for n in range(14))
    (app_project / "tests" / "test_many, odd: name.py").write_text("from unittest import mock\n\n" + body)
    summary = app_project / "summary.md"
    result = mockpolicy("check", "--format", "github", cwd=app_project, env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    warnings = [line for line in lines if line.startswith("::warning ")]
    assert len(warnings) == 10
    assert warnings[0].startswith("::warning file=tests/test_many%2C odd%3A name.py,line=4,col=10,endLine=4,"
                                  "title=first-party-mock (W7301)::'app.jobs.run'")
    assert lines[-1].startswith("::notice title=mockpolicy::4 more finding(s)")
    table = summary.read_text(encoding="utf-8")
    assert table.count("| tests/test\\_many, odd: name.py |") == 4
    assert "[first-party-mock](https://" in table


def test_gitlab_fingerprints_are_unique_and_survive_moves(app_project: Path) -> None:
    twice = """
        from unittest import mock


        def test_twice():
            with mock.patch("app.jobs.run", autospec=True):
                pass
            with mock.patch("app.jobs.run", autospec=True):
                pass
        """
    write_tree(app_project, {"tests/test_jobs.py": twice})
    first = json.loads(mockpolicy_in_process("check", "--format", "gitlab", cwd=app_project).stdout)
    assert [issue["location"]["lines"]["begin"] for issue in first] == [5, 7]
    assert {issue["severity"] for issue in first} == {"minor"} and first[0]["check_name"] == "first-party-mock"
    assert len({issue["fingerprint"] for issue in first}) == 2
    path = app_project / "tests/test_jobs.py"
    path.write_text("# moved\n# down\n# three lines\n" + path.read_text())
    moved = json.loads(mockpolicy("check", "--format", "gitlab", cwd=app_project).stdout)
    assert [issue["location"]["lines"]["begin"] for issue in moved] == [8, 10]
    assert [i["fingerprint"] for i in moved] == [i["fingerprint"] for i in first]


def test_markdown_counts_new_and_baselined(app_project: Path) -> None:
    write_tree(app_project, {"tests/test_jobs.py": """
        from unittest import mock


        def test_old():
            with mock.patch("app.jobs.run", autospec=True):
                pass
        """})
    assert mockpolicy_in_process("baseline", cwd=app_project).returncode == 0
    with (app_project / "tests/test_jobs.py").open("a") as handle:
        handle.write("\n\ndef test_new():\n    with mock.patch('app.jobs.Runner.claim<b>', autospec=True):\n        pass\n")
    result = mockpolicy("check", "--format", "markdown", cwd=app_project)
    assert result.returncode == 1
    text = result.stdout
    assert "**1 new finding(s)**, 1 allowed by the baseline." in text
    assert "| [`first-party-mock`](https://github.com/mockpolicy/mockpolicy/blob/main/docs/rules/first-party-mock.md) (W7301) | 0 | 1 |" in text
    assert "<b>" not in text and "&lt;b&gt;" in text


def test_pylint_sarif_reporter(tmp_path: Path) -> None:
    result = pylint("--output-format=mockpolicy.reporters.SarifReporter", "--disable=all", "--enable=mockpolicy",
                    "tests", cwd=EXAMPLE)
    log = json.loads(result.stdout)
    cli = json.loads(mockpolicy("check", "--format", "sarif", cwd=EXAMPLE).stdout)
    ours = sorted((r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in log["runs"][0]["results"])
    assert ours == sorted((r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in cli["runs"][0]["results"])
    (tmp_path / "pylint.sarif").write_text(result.stdout, encoding="utf-8")
    assert validate_sarif(tmp_path / "pylint.sarif") == []


@pytest.mark.parametrize(
    ("call", "suggested"),
    [
        ('mock.patch("app.jobs.time.sleep",)', 'mock.patch("app.jobs.time.sleep", autospec=True)'),
        ('mock.patch.object(time, "sleep")', 'mock.patch.object(time, "sleep", autospec=True)'),
        ('mock.patch("app.jobs.time.sleep", return_value=None)', 'mock.patch("app.jobs.time.sleep", return_value=None, autospec=True)'),
        ('mock.patch("app.jobs.time.sleep", **{})', None),
        ('mock.patch.multiple("app.jobs.time", sleep=mock.DEFAULT)', None),
    ],
)
def test_autospec_suggestions_only_when_certain(app_project: Path, call: str, suggested: str | None) -> None:
    write_tree(app_project, {"tests/test_sleep.py": f"""
        import time
        from unittest import mock


        def test_sleep():
            with {call}:
                pass
        """})
    rd = json.loads(mockpolicy_in_process("check", "--format", "rdjson", cwd=app_project).stdout)
    unspecced = [d for d in rd["diagnostics"] if d["code"]["value"] == "unspecced-mock"]
    assert unspecced, rd
    texts = [s["text"] for d in unspecced for s in d.get("suggestions", [])]
    assert texts == ([suggested] if suggested else [])


def test_a_full_pylint_run_as_sarif_names_pylint_the_driver_and_validates(tmp_path: Path) -> None:
    result = pylint("--output-format=mockpolicy-sarif", "tests", cwd=EXAMPLE)  # default checks and ours
    log = json.loads(result.stdout)
    (tmp_path / "full.sarif").write_text(result.stdout, encoding="utf-8")
    run_ = log["runs"][0]
    driver, [extension] = run_["tool"]["driver"], run_["tool"]["extensions"]
    assert (driver["name"], extension["name"]) == ("pylint", "mockpolicy")
    assert driver["rules"] and all(not rule["id"].startswith(("W73", "E73")) for rule in driver["rules"])
    assert all("tags" not in rule["properties"] for rule in driver["rules"])
    docstring = next(rule for rule in driver["rules"] if rule["properties"]["symbol"] == "missing-function-docstring")
    assert docstring["shortDescription"]["text"] == "Used when a function or method has no docstring."
    assert docstring["helpUri"].endswith("/messages/convention/missing-function-docstring.html")
    assert {rule["id"] for rule in extension["rules"]} >= {"W7301", "W7307"}
    ours = [r for r in run_["results"] if r["ruleId"].startswith("W73")]
    assert ours and all(r["rule"]["toolComponent"] == {"index": 0} for r in ours)
    assert all(extension["rules"][r["rule"]["index"]]["id"] == r["ruleId"] for r in ours)
    theirs = [r for r in run_["results"] if not r["ruleId"].startswith("W73")]
    assert theirs and all(driver["rules"][r["ruleIndex"]]["id"] == r["ruleId"] for r in theirs)
    assert validate_sarif(tmp_path / "full.sarif") == []


def test_every_rule_is_known_to_pylint_help_msg() -> None:
    symbols = [rule.symbol for rule in ALL_RULES]
    result = pylint("--help-msg=" + ",".join(symbols), cwd=EXAMPLE)
    assert result.returncode == 0, result.stderr
    for rule in ALL_RULES:
        assert f":{rule.symbol} ({rule.msgid}):" in result.stdout, rule.symbol


def test_lines_are_numbered_as_python_numbers_them(app_project: Path) -> None:
    """A form feed or a Unicode line separator is inside a line for Python (and
    git and GitHub), not a line break as ``str.splitlines`` has it: suggestions
    and columns come from the finding's own line."""
    source = (
        'from unittest import mock\n\f\n\n# \f\u2028\x85\x1c\n\ndef test_sleep():\n'
        '    label = "\u00e9"; p = mock.patch("app.jobs.time.sleep")\n    with p:\n        assert label\n'
    )
    (app_project / "tests/test_sleep.py").write_text(source, encoding="utf-8")
    line = source.split("\n")[6]
    rd = json.loads(mockpolicy_in_process("check", "--format", "rdjson", cwd=app_project).stdout)
    [diagnostic] = rd["diagnostics"]
    assert diagnostic["location"]["range"]["start"]["line"] == 7
    [suggestion] = diagnostic["suggestions"]
    assert suggestion["text"] == 'mock.patch("app.jobs.time.sleep", autospec=True)'
    github = mockpolicy_in_process("check", "--format", "github", cwd=app_project).stdout
    assert f"line=7,col={line.index('mock.patch') + 1}," in github
