"""The one base class of the errors mockpolicy reports to its user.

Each subclass's message is one sentence naming the file (or the input) and
the problem; front ends print it (the CLI, exit 2) or report it as
``mock-analysis-error`` (pylint) and never show a traceback for it.
"""

from __future__ import annotations


class MockpolicyError(Exception):
    """A problem with the user's input, configuration or environment."""
