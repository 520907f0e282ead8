"""mockpolicy's pylint front end. ``pylint_plugins`` is a namespace package, so
other distributions may ship their own plugins beside this one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pylint_plugins.mockpolicy_checker.checker import MockPolicyChecker

if TYPE_CHECKING:
    from pylint.lint import PyLinter

__all__ = ["MockPolicyChecker", "register"]


def register(linter: PyLinter) -> None:
    """Register the checker once per linter: pylint's parallel workers load
    plugins again into a linter that already holds it."""
    if not any(isinstance(checker, MockPolicyChecker) for checker in linter.get_checkers()):
        linter.register_checker(MockPolicyChecker(linter))
    from mockpolicy import reporters  # --output-format=mockpolicy-sarif and the other short names

    for reporter in reporters.REPORTERS:
        linter.register_reporter(reporter)
