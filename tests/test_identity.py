"""Finding identities: insensitive to layout, sensitive to the mock itself,
the same on every supported Python."""

from __future__ import annotations

import ast
import glob
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import EXAMPLE, REPO

from mockpolicy.canonical import MAX_DEPTH, canonical, canonical_statement
from mockpolicy.cli import analyse_files
from mockpolicy.identity import (
    LEGACY,
    excerpt,
    identify,
    legacy_identity,
    normalized_tokens,
    statement_fingerprint,
    token_fingerprint,
)

STATEMENTS = [
    ('mock.patch(f"{MODULE}.run", return_value={"a": 1})', 0),
    ('patch(f"x{y!r:>{w}}z" "tail")', 0),
    ('patch(f"a{{b}}c{x=}" f"{y:}" rf"\\d{z}")', 0),
    ('mock.patch(\n    "app.jobs.run"  # why\n)', 0),
    ("assert m.call_count == 1", 0),
    ('os.environ["A"] = b"\\x00" + u"\\U0001F600\\u0378"', 0),
    ("x = 1e999, 0x" + "f" * 400 + ", 3j", 0),
    ('@mock.patch("a.b", new=1)', 4),
    ('with mock.patch("a") as m:', 8),
    ("except ValueError as error:", 4),
    ('mock.patch("a") as m', 13),
    ('with mock.patch(\n            "a"\n        ):\n            pass', 8),
    ("# mock-partial: nothing", 0),
    ('patch("unterminated', 0),
    ("+".join(["a"] * 3000), 0),
]

SAME = [
    'mock.patch("app.jobs.run", autospec=True)',
    "mock.patch('app.jobs.run', autospec=True)",
    "mock.patch(u'app.jobs.run', autospec = True)",
    'mock.patch(r"app.jobs.run", autospec=True,)',
    'mock.patch("app." "jobs.run", autospec=(True))',
    '(mock.patch)(\n    "app.jobs.run",  # the runner\n    autospec=True,\n)',
    'mock.patch(\n    "app.jobs.run", autospec=True\n)',
    'mock \\\n    .patch("app.jobs.run",\n               autospec=True)',
]


@pytest.mark.parametrize("text", SAME[1:])
def test_quotes_prefixes_parentheses_line_splits_trailing_commas_and_comments_do_not_matter(text: str) -> None:
    assert statement_fingerprint(text) == statement_fingerprint(SAME[0])


@pytest.mark.parametrize(
    "changed",
    [
        'mock.patch("app.jobs.runner", autospec=True)',
        'mock.patch("app.jobs.run", autospec=False)',
        'mock.patch("app.jobs.run", autospec=True, new=1)',
        'mock.patch("app.jobs.run", True)',
        'mock.patch(b"app.jobs.run", autospec=True)',
        'mock.patch.object(jobs, "run", autospec=True)',
    ],
)
def test_changing_the_mock_changes_the_fingerprint(changed: str) -> None:
    assert statement_fingerprint(SAME[0]) != statement_fingerprint(changed)


def test_the_tree_is_written_without_positions_contexts_kinds_or_empty_defaults() -> None:
    text = canonical(ast.parse("def f(a: int = u'x') -> None:  # type: ignore\n    a.b = [c for c in d]\n"))
    assert text is not None
    for left_out in ("lineno", "col_offset", "ctx", "Load", "Store", "kind", "type_comment", "type_params", "None,"):
        assert left_out not in text, left_out
    assert 'Constant(value=s"x";)' in text


def test_statements_that_do_not_parse_alone_are_parsed_where_they_stand() -> None:
    assert statement_fingerprint('@mock.patch("a.b", new=1)') == statement_fingerprint('mock.patch("a.b", new=1)')
    for text, column in STATEMENTS[8:12]:
        assert canonical_statement(text, column) is not None, text
    assert (canonical_statement("with mock.patch('a') as m:") or "").startswith("With(")
    assert (canonical_statement("except ValueError as error:") or "").startswith("ExceptHandler(")
    assert (canonical_statement("mock.patch('a') as m") or "").startswith("withitem(")


def test_text_that_does_not_parse_falls_back_to_its_tokens() -> None:
    assert canonical_statement("# mock-partial: nothing") is None
    assert canonical_statement('patch("unterminated') is None
    assert statement_fingerprint("# a") != statement_fingerprint("# b")
    deep = "+".join(["a"] * (MAX_DEPTH + 10))
    assert canonical_statement(deep) is None  # every Python parses it or not alike: left to the tokens


def test_format_1_identities_keep_the_token_fingerprint() -> None:
    finding = analyse_files([EXAMPLE / "tests" / "test_checkout.py"], 1)[0]
    assert legacy_identity(finding).fingerprint == LEGACY + token_fingerprint(finding.statement)
    assert identify(finding).fingerprint == statement_fingerprint(finding.statement, finding.column)


def test_fstrings_are_one_token() -> None:
    assert normalized_tokens('patch(f"{a}.b")') == ["patch", "(", 'f"{a}.b"', ")"]


def test_unfinished_text_falls_back_to_words() -> None:
    assert normalized_tokens('patch("unterminated') == ['patch("unterminated']


def test_excerpt_is_one_short_line() -> None:
    assert excerpt("mock.patch(\n    'x',\n)") == "mock.patch('x',)"
    assert len(excerpt("x" * 500)) == 100


# The identities of the example project's findings, pinned: a change to how
# identities are made breaks every team's baseline, so it must be deliberate
# (a new format version that still reads the old one), never an accident.
EXAMPLE_IDENTITIES = "example_identities.json"


def test_the_example_projects_identities_are_pinned() -> None:
    findings = analyse_files(sorted((EXAMPLE / "tests").rglob("*.py")), 1)
    found = sorted([f.symbol, f.path, f.scope, identify(f).fingerprint] for f in findings)
    pinned = json.loads((Path(__file__).parent / EXAMPLE_IDENTITIES).read_text())
    assert found == pinned, "identities changed: baselines written by earlier versions would no longer match"


def _python(version: str) -> str | None:
    """An interpreter of ``version`` (on PATH, or installed by pyenv) that runs."""
    candidates = [shutil.which(f"python{version}"),
                  *sorted(glob.glob(os.path.expanduser(f"~/.pyenv/versions/{version}.*/bin/python{version}")))]
    for python in filter(None, candidates):
        works = subprocess.run([python, "--version"], capture_output=True, check=False, env={"PATH": "/usr/bin:/bin"})
        if works.returncode == 0:
            return python
    return None


@pytest.mark.parametrize("version", ["3.10", "3.11", "3.12", "3.13", "3.14"])
def test_fingerprints_match_other_pythons(version: str) -> None:
    python = _python(version)
    if python is None:
        pytest.skip(f"python{version} is not installed here")
    script = (
        "import json, sys; from mockpolicy.identity import statement_fingerprint, token_fingerprint; "
        "items = json.loads(sys.stdin.read()); "
        "print(json.dumps([[statement_fingerprint(s, c), token_fingerprint(s)] for s, c in items]))"
    )
    result = subprocess.run(
        [python, "-c", script], input=json.dumps(STATEMENTS), cwd=REPO, capture_output=True, text=True, check=False,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )
    if result.returncode != 0 and "No module named" in result.stderr:
        pytest.skip(result.stderr.strip().splitlines()[-1])
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [[statement_fingerprint(s, c), token_fingerprint(s)] for s, c in STATEMENTS]
