"""Deferred function bodies equal the bodies parsed with the whole module."""

from __future__ import annotations

import ast
import sysconfig
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import REPO

from mockpolicy.bodies import LazyBody, body_spans, defer_bodies, function_lines, reading_once, skeleton
from mockpolicy.source import Lines, python_lines

TRICKY = '''\
# -*- coding: utf-8 -*-
import os

def top(a,
        b=1):
    """Doc."""
    return a + b  # pragma: no cover

class Outer:
    x = 1
    @property
    def prop(self): return self.x
    class Inner:
        async def run(self):
            text = """
not indented
            """
            await other(text); yield \\
                1
    if os.name:
        def conditional(self):
            try:
                pass
            except ValueError:
                def nested():
                    nonlocal_free = 1
                    return nonlocal_free
                return nested
class Tabbed:
\tdef tabbed(self):
\t\treturn "caf\u00e9\\f"
match os.name:
    case "nt":
        def on_windows(): return 1
'''


def _bodies(tree: ast.Module) -> list[str]:
    return [
        ast.dump(ast.Module(body=list(node.body), type_ignores=[]), include_attributes=True)
        for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]


def _check(text: str) -> int:
    expected = _bodies(ast.parse(text))
    tree = ast.parse(text)
    defer_bodies(tree, text)
    deferred = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    assert all(isinstance(n.body, LazyBody) for n in deferred)
    assert _bodies(tree) == expected
    return len(expected)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
def test_tricky_layouts_give_the_same_nodes(newline: str) -> None:
    text = TRICKY.replace("\n", newline) if newline != "\n" else TRICKY
    assert _check(text) == 7


def test_the_form_feed_is_not_a_line_break() -> None:
    assert _check("def f():\n    x = '\f'\n\f\n    return x\n\ndef g():\n    return 2\n") == 2


def test_real_modules_give_the_same_nodes() -> None:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    files = [*sorted((REPO / "mockpolicy").rglob("*.py")), stdlib / "argparse.py", stdlib / "unittest" / "mock.py"]
    assert sum(_check(path.read_text(encoding="utf-8")) for path in files) > 500


def test_a_lazy_body_acts_as_a_list() -> None:
    tree = ast.parse("def f():\n    a = 1\n    return a\n")
    defer_bodies(tree, "def f():\n    a = 1\n    return a\n")
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef)
    assert len(function.body) == 2 and isinstance(function.body[-1], ast.Return)
    assert [type(s).__name__ for s in function.body] == ["Assign", "Return"]
    assert ast.unparse(tree) == "def f():\n    a = 1\n    return a"
    assert ast.get_docstring(function) is None
    compile(tree, "<test>", "exec")


def test_a_walk_reading_once_drops_only_the_body_it_parsed() -> None:
    text = "def f():\n    a = g()\n    return a\n\ndef h():\n    return 1\n"
    tree = ast.parse(text)
    defer_bodies(tree, text)
    first, second = tree.body
    assert isinstance(first, ast.FunctionDef) and isinstance(second, ast.FunctionDef)
    assert isinstance(first.body, LazyBody) and isinstance(second.body, LazyBody)
    kept = list(second.body)  # parsed before the walk: the walk must not drop it
    done_first, done_second = reading_once(first), reading_once(second)
    names = [n.id for n in ast.walk(first) if isinstance(n, ast.Name)]
    list(ast.walk(second))
    done_first()
    done_second()
    assert sorted(names) == ["a", "a", "g"]
    assert not first.body.loaded and second.body.loaded and second.body[0] is kept[0]
    again = list(first.body)  # parsed afresh, equal to the original
    assert ast.dump(ast.Module(body=again, type_ignores=[])) == ast.dump(
        ast.Module(body=ast.parse(text).body[0].body, type_ignores=[]))  # type: ignore[attr-defined]
    plain = ast.parse(text).body[0]
    assert isinstance(plain, ast.FunctionDef)
    statements = plain.body
    reading_once(plain)()  # a body that is not deferred is left alone
    assert plain.body is statements and len(statements) == 2


@pytest.mark.parametrize(
    "text", ["", "a", "a\n", "\n", "\n\n", "a\r\nb\rc\n", "a\r", "x\ny", "\u00e9\r\n\rz\f\n", "tail\n\n"]
)
def test_lines_are_python_lines_without_a_string_per_line(text: str) -> None:
    lines, expected = Lines(text), python_lines(text)
    assert list(lines) == expected and len(lines) == len(expected)
    assert lines[1:3] == expected[1:3] and lines[:-1] == expected[:-1] and lines[::2] == expected[::2]
    if expected:
        assert lines[-1] == expected[-1] and lines[0] == expected[0]
    with pytest.raises(IndexError):
        lines[len(expected)]  # noqa: B018 - the lookup is what is tested


def test_lines_with_breaks_give_a_function_as_written() -> None:
    text = "a = 1\r\ndef f():\r    return 2\n\nz = 3"
    lines = Lines(text)
    assert lines.with_breaks(2, 3) == "def f():\r    return 2\n"
    assert lines.with_breaks(5, 5) == "z = 3"  # the last line has no break
    assert lines.with_breaks(1, 5) == text


def _never(function: ast.FunctionDef | ast.AsyncFunctionDef, is_method: bool) -> bool:
    return False


def _skeleton_check(text: str, kept: Callable[[ast.FunctionDef | ast.AsyncFunctionDef, bool], bool] = _never) -> int:
    """The skeleton of ``text`` has every function where ``text`` has it, and
    its deferred bodies parse to the nodes the whole module has."""
    original = ast.parse(text)
    lines = Lines(text)
    spans = body_spans(original, lines, kept)
    tree = ast.parse(skeleton(lines, spans))
    assert function_lines(tree) == function_lines(original)
    defer_bodies(tree, lines, keep=True, only={last for _, last, _ in spans})
    assert _bodies(tree) == _bodies(ast.parse(text))
    return len(spans)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
def test_a_skeleton_leaves_out_the_bodies_and_gives_them_back(newline: str) -> None:
    text = TRICKY.replace("\n", newline) if newline != "\n" else TRICKY
    assert _skeleton_check(text) == 4  # the one-line bodies (prop, on_windows) stay: their line holds the signature
    skeletal = skeleton(Lines(text), body_spans(ast.parse(text), Lines(text), _never))
    assert "not indented" not in skeletal and "nonlocal_free" not in skeletal
    assert len(Lines(skeletal)) == len(Lines(text))


def test_real_modules_give_the_same_nodes_from_their_skeletons() -> None:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    files = [*sorted((REPO / "mockpolicy").rglob("*.py")), stdlib / "argparse.py", stdlib / "unittest" / "mock.py"]
    assert sum(_skeleton_check(path.read_text(encoding="utf-8")) for path in files) > 500


def test_a_skeleton_keeps_the_bodies_asked_for() -> None:
    text = "class A:\n    def __init__(self):\n        self.x = 1\n\n    def run(self):\n        return self.x\n"
    spans = body_spans(ast.parse(text), Lines(text), lambda function, is_method: function.name == "__init__")
    assert spans == [(6, 6, "        ")]
    assert "self.x = 1" in skeleton(Lines(text), spans) and "return self.x" not in skeleton(Lines(text), spans)
    assert _skeleton_check(text, lambda function, is_method: is_method and function.name == "__init__") == 1


@pytest.mark.parametrize("spans", [[(9, 9, "    ")], [(3, 2, "")], [(2, 2, ""), (2, 2, "")], [(0, 1, "")]])
def test_spans_that_do_not_fit_the_text_are_refused(spans: list[tuple[int, int, str]]) -> None:
    with pytest.raises(ValueError, match="do not fit"):
        skeleton(Lines("def f():\n    return 1\n"), spans)
