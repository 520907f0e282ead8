"""The '# mock-partial:' grammar: parsing, references, claims, and finding
the branch a reference names; and the outcomes read from real functions."""

from __future__ import annotations

import ast

import pytest

from mockpolicy.outcomes import function_outcomes
from mockpolicy.partials import BranchRef, find_branch, has_reason, parse_blocks, parse_reference

GATES = '''
def run_gates(name, status):
    if status == "APPROVED":
        return True
    elif (status
          == "RETRY"):
        pass
    while name:
        name = name[1:]
    try:
        gate(name)
    except (KeyError, ValueError):
        return False
    except OSError as exc:
        raise
    except:
        pass
    def inner():
        if hidden:
            return 1
    return "ok" if name else None
'''


def _function(source: str = GATES) -> ast.FunctionDef:
    node = ast.parse(source).body[0]
    assert isinstance(node, ast.FunctionDef)
    return node


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("app.gates.run_gates", BranchRef("function", "app.gates.run_gates")),
        ("app.gates.run_gates: if status == 'X'", BranchRef("if", "app.gates.run_gates", "status == 'X'")),
        ("app.Gate.check:elif x", BranchRef("if", "app.Gate.check", "x")),
        ("a.b: else not ready", BranchRef("else", "a.b", "not ready")),
        ("a.b: except KeyError", BranchRef("except", "a.b", "KeyError")),
        ("a.b: except", BranchRef("except", "a.b", "")),
        ("src/app/x.py:12->-3", BranchRef("arc", path="src/app/x.py", arc=(12, -3))),
        ("src/app/x.py:12 -> 14", BranchRef("arc", path="src/app/x.py", arc=(12, 14))),
    ],
)
def test_references_parse(text: str, expected: BranchRef) -> None:
    assert parse_reference(text) == expected


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "cannot read the reference"),
        ("bad thing here", "cannot read the reference"),
        ("a.b: when x", "must start with 'if', 'else' or 'except'"),
        ("a.b: if", "needs the condition's source text"),
        ("a.b: else", "needs the condition's source text"),
        ("a.b: if x ==", "is not a Python expression"),
        ("a.b: except Key Error", "is not a Python expression"),
        ("x.py:1->", "must start with"),
    ],
)
def test_bad_references_say_why(text: str, problem: str) -> None:
    result = parse_reference(text)
    assert isinstance(result, str) and problem in result


def test_a_block_with_own_and_shared_reasons_wrapped_lines_and_a_claim() -> None:
    lines = '''x = 1
# mock-boundary: the gate service is remote
# mock-partial: the critic always approves here
#   untested: app.gates.run_gates: else status == "APPROVED"
#   untested: app.gates.run_gates: except KeyError; no test raises; not even one
#   untested: app.gates.run_gates: if (a and
#     b); wrapped
#   reason: covered by tests/test_gates.py::test_retry, tests/test_gates.py::T::t[a-b] and prose
#     that goes on
@patch("x")
def f(): pass
'''.split("\n")
    [block] = parse_blocks(lines)
    assert (block.line, block.end_line, block.summary) == (3, 9, "the critic always approves here")
    first, second, third = block.entries
    assert first.reference == BranchRef("else", "app.gates.run_gates", 'status == "APPROVED"')
    assert first.own_reason is None and has_reason(block.reason_of(first))
    assert second.own_reason is not None and second.own_reason.value == "no test raises; not even one"
    assert block.claim_of(second) is None
    assert third.line == 6 and third.reference == BranchRef("if", "app.gates.run_gates", "(a and b)")
    claim = block.claim_of(first)
    assert claim is not None and claim.line == 8
    assert claim.test_ids == ("tests/test_gates.py::test_retry", "tests/test_gates.py::T::t[a-b]")


def test_blocks_end_at_code_or_another_comment_and_placeholders_are_no_reason() -> None:
    lines = [
        "# mock-partial: first",
        "#   untested: a.b",
        "# an ordinary comment ends it",
        "# mock-partial: second",
        "#   untested: a.c",
        "#   reason: <say why this stays untested>",
        "# mock-partial:",
        "y = 2",
    ]
    first, second, third = parse_blocks(lines)
    assert (first.line, first.end_line, second.line, second.end_line) == (1, 2, 4, 6)
    assert not has_reason(first.reason_of(first.entries[0]))
    assert not has_reason(second.reason_of(second.entries[0]))
    assert third.entries == [] and third.summary == ""
    assert parse_blocks([]) == [] and parse_blocks(['s = "# mock-partial: in a string"']) == []


def test_find_branch_matches_condition_text_not_layout() -> None:
    function = _function()
    found = find_branch(function, BranchRef("if", "m.run_gates", "status=='RETRY'"))
    assert not isinstance(found, str) and [n.lineno for n in found.nodes] == [5]
    found = find_branch(function, BranchRef("else", "m.run_gates", "name"))
    assert not isinstance(found, str) and {type(n).__name__ for n in found.nodes} == {"While", "IfExp"}
    for exc, line in (("KeyError", 12), ("(KeyError, ValueError)", 12), ("OSError", 14), ("", 16)):
        found = find_branch(function, BranchRef("except", "m.run_gates", exc))
        assert not isinstance(found, str) and [n.lineno for n in found.nodes] == [line]


def test_find_branch_says_what_is_missing_and_ignores_nested_functions() -> None:
    function = _function()
    missing = find_branch(function, BranchRef("if", "m.run_gates", "hidden"))
    assert missing == "m.run_gates has no if/elif/while test or conditional expression 'hidden'"
    assert find_branch(function, BranchRef("except", "m.run_gates", "TypeError")) == (
        "m.run_gates has no 'except TypeError' handler"
    )


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def f(x):\n    if x:\n        return 'A'\n    return 'B'\n", {'returns "A"', 'returns "B"'}),
        ("def f(x):\n    return x > 1\n", {"returns True", "returns False"}),
        ("def f(x):\n    if x:\n        return x\n", {"returns a value", "returns None"}),
        ("def f(x):\n    print(x)\n", {"returns None"}),
        ("def f(x):\n    raise NotImplementedError\n", {"raises NotImplementedError"}),
        ("def f(x):\n    try:\n        g()\n    except KeyError:\n        raise\n    return []\n",
         {"raises KeyError", "returns []"}),
        ("def f(x):\n    try:\n        raise KeyError(x)\n    except KeyError:\n        return -1\n", {"returns -1"}),
        ("def f(x):\n    while True:\n        return 1\n", {"returns 1"}),
        ("def f(x):\n    if x:\n        return 1\n    else:\n        raise errors.Bad(x)\n",
         {"returns 1", "raises Bad"}),
        ("def f(x):\n    if x:\n        return 1\n    raise error\n", {"returns 1", "raises an exception"}),
        ("def f(x, catch):\n    for n in count():\n        try:\n            return x()\n        except catch:\n            raise\n",
         {"returns a value"}),
    ],
)
def test_outcomes_of_real_functions(source: str, expected: set[str]) -> None:
    outcomes = function_outcomes(_function(source))
    assert outcomes is not None and {str(o) for o in outcomes} == expected


@pytest.mark.parametrize(
    "source",
    ["def f(x):\n    yield x\n", "@property\ndef f(self):\n    return 1 if self else 2\n"],
)
def test_outcomes_not_told_for_generators_and_properties(source: str) -> None:
    assert function_outcomes(_function(source)) is None


def test_code_marked_no_cover_gives_no_outcomes() -> None:
    source = (
        "def f(x):\n"
        "    if x is None:  # pragma: no cover\n"
        "        return None\n"
        "    try:\n"
        "        g()\n"
        "    except OSError:  # pragma: no cover\n"
        "        raise\n"
        "    if x:\n"
        "        return 1\n"
        "    else:  # pragma: no cover\n"
        "        raise ValueError(x)\n"
        "    return 2\n"
    )
    function = _function(source)
    outcomes = function_outcomes(function, source.split("\n"))
    assert outcomes is not None and {str(o) for o in outcomes} == {"returns 1", "returns 2"}
    unmarked = _function(source.replace("# pragma: no cover", ""))
    everything = function_outcomes(unmarked, source.replace("# pragma: no cover", "").split("\n"))
    assert everything is not None and {str(o) for o in everything} == {
        "returns None", "returns 1", "returns 2", "raises OSError", "raises ValueError"
    }
