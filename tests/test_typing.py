"""The package type-checks under ``mypy --strict`` (configured in pyproject.toml)."""

from __future__ import annotations

import sys

from conftest import REPO, run


def test_mypy_strict_is_clean() -> None:
    result = run([sys.executable, "-m", "mypy", "--strict"], cwd=REPO)
    assert result.returncode == 0, result.stdout + result.stderr
