"""mockpolicy: enforce a team's mock policy in its test suite.

``pylint --load-plugins mockpolicy`` calls ``register``; the ``mockpolicy``
command is ``mockpolicy.cli:main``. Both run the engine in ``mockpolicy.engine``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pylint.lint import PyLinter

from mockpolicy.version import __version__

__all__ = ["__version__", "register"]


def register(linter: PyLinter) -> None:
    """Register mockpolicy's pylint checker (pylint's plugin entry point)."""
    from pylint_plugins.mockpolicy_checker import register as register_checker

    register_checker(linter)
