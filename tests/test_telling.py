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


# Each caller calls ``pkg.ops.act`` in one shape; each test calls one caller
# and asserts only that ``act`` was called with the value it handed over.
SHAPES = {
    "always": "act(x)",
    "in_try_body": "try:\n        act(x)\n    except ValueError:\n        pass",
    "in_with_body": "with open(x):\n        act(x)",
    "after_a_statement_a_handler_swallows": "try:\n        int(x)\n        act(x)\n    except ValueError:\n        pass",
    "after_a_statement_a_handler_reraises": "try:\n        int(x)\n        act(x)\n    except ValueError:\n        raise",
    "under_if": "if x:\n        act(x)",
    "after_guard": "if not x:\n        return None\n    act(x)",
    "in_loop": "for item in x:\n        act(item)",
    "in_handler": "try:\n        int(x)\n    except ValueError:\n        act(x)",
    "in_conditional_expression": "return act(x) if x else None",
    "after_and": "return x and act(x)",
    "in_comprehension": "return [act(item) for item in x]",
}
UNCONDITIONAL = {"always", "in_try_body", "in_with_body", "after_a_statement_a_handler_reraises"}


def _tautologies(tmp_path: Path, callers: dict[str, str], test_body: str) -> set[str]:
    """The names of ``callers`` (each ``def NAME(x):`` with its body calling
    ``pkg.ops.act``) whose test, ``test_body`` with ``act`` mocked and
    ``callers.NAME`` in place of ``CALLER``, is reported as tautological."""
    code = "\n\n".join(f"def {name}(x):\n    {body}\n" for name, body in callers.items())
    tests = "\n\n".join(
        f"@mock.patch('pkg.ops.act', autospec=True)\ndef test_{name}(act):\n"
        + test_body.replace("CALLER", f"callers.{name}")
        for name in callers
    )
    root = write_tree(tmp_path, {
        "pyproject.toml": '[project]\nname = "pkg"\nversion = "0"\n',
        "pkg/__init__.py": "",
        "pkg/ops.py": "def act(value):\n    return value\n",
        "pkg/callers.py": f"from pkg.ops import act\n\n\n{code}",
        "tests/test_callers.py": f"from unittest import mock\n\nfrom pkg import callers\n\n\n{tests}",
    })
    result = mockpolicy_in_process(
        "check", "--no-baseline", "--format", "json", "--select", "tautological-mock-assertion", "--exit-zero", cwd=root
    )
    assert result.returncode == 0, result.stderr
    return {str(f["message"]).split("'")[1].removeprefix("test_") for f in json.loads(result.stdout)}


def test_a_call_the_code_makes_on_some_paths_only_is_a_decision_not_a_restated_call(tmp_path: Path) -> None:
    body = "    CALLER('a')\n    act.assert_called_once_with('a')\n"
    assert _tautologies(tmp_path, SHAPES, body) == UNCONDITIONAL


def test_a_call_on_an_object_the_engine_cannot_type_is_no_evidence_of_the_call(tmp_path: Path) -> None:
    """``ops.act(x)`` on an untyped ``ops`` may be another class's ``act``:
    only the call on an instance the engine types shows the test's call made."""
    root = write_tree(tmp_path, {
        "pyproject.toml": '[project]\nname = "pkg"\nversion = "0"\n',
        "pkg/__init__.py": "",
        "pkg/ops.py": "class Ops:\n    def act(self, x):\n        return x\n",
        "pkg/callers.py": "from pkg.ops import Ops\n\n\n" + (
            "def guarded(ops, x):\n    if x:\n        ops.act(x)\n\n\n"
            "def always(ops, x):\n    ops.act(x)\n\n\n"
            "def typed(x):\n    Ops().act(x)\n"
        ),
        "tests/test_callers.py": (
            "from unittest import mock\n\nfrom pkg import callers\nfrom pkg.ops import Ops\n\n\n"
            "@mock.patch.object(Ops, 'act', autospec=True)\ndef test_guarded(act):\n"
            "    callers.guarded(Ops(), 'a')\n    act.assert_called_once()\n\n\n"
            "@mock.patch.object(Ops, 'act', autospec=True)\ndef test_always(act):\n"
            "    callers.always(Ops(), 'a')\n    act.assert_called_once()\n\n\n"
            "@mock.patch.object(Ops, 'act', autospec=True)\ndef test_typed(act):\n"
            "    callers.typed('a')\n    act.assert_called_once()\n"
        ),
    })
    result = mockpolicy_in_process(
        "check", "--no-baseline", "--format", "json", "--select", "tautological-mock-assertion", "--exit-zero", cwd=root
    )
    assert result.returncode == 0, result.stderr
    assert [str(f["message"]).split("'")[1] for f in json.loads(result.stdout)] == ["test_typed"]


# Each caller always calls ``pkg.ops.act`` with an argument made one way; each
# test hands it 'a' and asserts the argument. Only an argument passed on as it
# came (maybe through a local, an attribute or a container) restates the call.
ARGUMENTS = {
    "as_given": "act(x)",
    "through_a_local": "y = x\n    act(y)",
    "in_a_container": "act({'name': x, 'tags': [x]})",
    "an_item": "act(x['name'])",
    "by_keyword": "act(value=x)",
    "computed": "act(x.strip())",
    "with_a_fallback": "act(x or 'default')",
    "formatted": "act(f'{x}/path')",
    "an_operator": "act(x + '1')",
    "a_local_assigned_twice": "y = x\n    y = y.upper()\n    act(y)",
    "a_computed_item": "act(x[len(x) - 1])",
}
PASSED_THROUGH = {"as_given", "through_a_local", "in_a_container", "an_item", "by_keyword"}


def test_an_asserted_argument_the_code_derives_is_a_result_of_its_logic(tmp_path: Path) -> None:
    body = "    value = 'a'\n    CALLER(value)\n    act.assert_called_once_with(value)\n"
    assert _tautologies(tmp_path, ARGUMENTS, body) == PASSED_THROUGH


def test_an_arm_is_told_by_its_runs_of_words_between_format_fields() -> None:
    from mockpolicy.telling import text_runs

    assert text_runs("Ring Builder file is invalid: %s") == ["Ring Builder file is invalid:"]
    assert text_runs("ComputeNode %(name)s moving from %(old)s to %(new)s") == ["moving from"]  # no lone name
    assert text_runs("{} could not be read, {path!r} is missing the header") == [
        "could not be read,", "is missing the header",
    ]
    assert text_runs("%-10s %d entries") == []
    assert text_runs("nova.objects.compute_node.ComputeNode.create") == []  # a patch target, not words
