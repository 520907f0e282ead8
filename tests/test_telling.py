"""Which withheld outcomes the code under test tells apart, on whole projects:
layouts the functional project does not have (tests inside the package, the
project's root as the test path)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import mockpolicy_in_process, write_tree

IN_PACKAGE = {
    "pyproject.toml": """
        [project]
        name = "pkg"
        version = "0"
        """,
    "pkg/__init__.py": "",
    "pkg/gates.py": """
        def read(name):
            if not name:
                raise KeyError(name)
            return "RETRY" if name.startswith("r") else "APPROVED"


        def run(name):
            if read(name) == "APPROVED":
                return True
            return False
        """,
    "pkg/tests/__init__.py": "",
    "pkg/tests/helpers.py": """
        from pkg import gates


        def run_twice(name):
            if gates.read(name) == "RETRY":
                return gates.read(name)
            return None
        """,
    "pkg/tests/test_gates.py": """
        from unittest import mock

        from pkg import gates


        @mock.patch("pkg.gates.read", return_value="APPROVED", autospec=True)
        def test_run(read):
            assert gates.run("x")
        """,
}


def _findings(root: Path) -> list[dict[str, object]]:
    result = mockpolicy_in_process(
        "check", "--no-baseline", "--format", "json", "--select", "W7314", "--exit-zero", cwd=root
    )
    assert result.returncode == 0, result.stderr
    found: list[dict[str, object]] = json.loads(result.stdout)
    return found


def test_tests_inside_the_package_are_not_code_under_test(tmp_path: Path) -> None:
    """With the root as test path, the package's own modules are still the code
    under test, and its tests folder (a helper reading the result) is not."""
    findings = _findings(write_tree(tmp_path, IN_PACKAGE))
    assert [f["line"] for f in findings] == [6]
    message = str(findings[0]["message"])
    assert "`pkg.gates.run: else read(name) == \"APPROVED\"`" in message
    assert "run_twice" not in message
    assert "#   untested: pkg.gates.run: else read(name) == \"APPROVED\"; <reason>" in message
