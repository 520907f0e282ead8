"""Finding identities: insensitive to layout, sensitive to the mock itself,
the same on every supported Python."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from conftest import REPO

from mockpolicy.identity import excerpt, fingerprint, normalized_tokens

STATEMENTS = [
    'mock.patch(f"{MODULE}.run", return_value={"a": 1})',
    'patch(f"x{y!r:>{w}}z" "tail")',
    'mock.patch(\n    "app.jobs.run"  # why\n)',
    "assert m.call_count == 1",
]


def test_whitespace_and_comments_do_not_matter() -> None:
    assert fingerprint('mock.patch("app.jobs.run", autospec=True)') == fingerprint(
        'mock.patch(\n    "app.jobs.run",  # the runner\n    autospec = True,\n)'.replace(",\n)", "\n)")
    )


@pytest.mark.parametrize(
    "changed",
    ['mock.patch("app.jobs.runner")', 'mock.patch("app.jobs.run", autospec=False)', 'mock.patch.object(jobs, "run")'],
)
def test_changing_the_mock_changes_the_fingerprint(changed: str) -> None:
    assert fingerprint('mock.patch("app.jobs.run", autospec=True)') != fingerprint(changed)


def test_fstrings_are_one_token() -> None:
    assert normalized_tokens('patch(f"{a}.b")') == ["patch", "(", 'f"{a}.b"', ")"]


def test_unfinished_text_falls_back_to_words() -> None:
    assert normalized_tokens('patch("unterminated') == ['patch("unterminated']


def test_excerpt_is_one_short_line() -> None:
    assert excerpt("mock.patch(\n    'x',\n)") == "mock.patch( 'x', )"
    assert len(excerpt("x" * 500)) == 100


@pytest.mark.parametrize("version", ["3.10", "3.12", "3.13", "3.14"])
def test_fingerprints_match_other_pythons(version: str) -> None:
    python = shutil.which(f"python{version}")
    usable = python is not None and subprocess.run(
        [python, "--version"], capture_output=True, check=False, env={"PATH": "/usr/bin:/bin"}
    ).returncode == 0
    if python is None or not usable:
        pytest.skip(f"python{version} is not installed here")
    script = "import sys; from mockpolicy.identity import fingerprint; print([fingerprint(s) for s in sys.argv[1:]])"
    result = subprocess.run(
        [python, "-c", script, *STATEMENTS], cwd=REPO, capture_output=True, text=True, check=False,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )
    if result.returncode != 0 and "No module named" in result.stderr:
        pytest.skip(result.stderr.strip().splitlines()[-1])
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str([fingerprint(s) for s in STATEMENTS])
