"""``# pylint: disable=...`` comments, honoured by ``mockpolicy check`` as pylint
honours them for the plugin.

Nothing is re-implemented: pylint's own pragma machinery reads the comments
(line, ``disable-next``, block and scope disables, ``enable``, ``skip-file``;
by symbol or message id) from an astroid tree of the source. astroid only
parses the text; nothing is imported or run. Only files with findings and a
``pylint:`` comment pay for it, and one linter serves a whole run.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from mockpolicy.findings import Finding

if TYPE_CHECKING:
    from pylint.lint import PyLinter

_PRAGMA = re.compile(rb"#\s*pylint\s*:")


class Suppressions:
    """Reads the ``# pylint:`` comments of files with pylint's own machinery."""

    def __init__(self) -> None:
        self._linter: PyLinter | None = None
        self.skipped: list[str] = []  # files with findings whose ``# pylint: skip-file`` dropped them all

    def _ready(self) -> PyLinter:
        if self._linter is None:
            from pylint.lint import PyLinter
            from pylint.reporters import CollectingReporter

            from pylint_plugins.mockpolicy_checker import register

            linter = PyLinter(reporter=CollectingReporter())  # what pylint says of the comments is not ours to print
            linter.load_default_plugins()  # so comments naming pylint's own messages are understood
            register(linter)
            self._linter = linter
        return self._linter

    def unsuppressed(self, findings: Sequence[Finding], data: bytes, module_name: str) -> list[Finding]:
        """``findings`` of the module whose bytes are ``data`` minus those its
        ``# pylint:`` comments disable (or all of them under ``skip-file``)."""
        if not findings or _PRAGMA.search(data) is None:
            return list(findings)
        import astroid
        from pylint import utils as pylint_utils
        from pylint.utils.file_state import FileState

        try:
            linter = self._ready()
            node = astroid.parse(data.decode("utf-8-sig", errors="replace"), module_name, findings[0].path)
            linter.set_current_module(module_name, findings[0].path)
            linter.file_state = FileState(module_name, linter.msgs_store, node)
            linter._ignore_file = False  # pylint keeps this flag private; `skip-file` sets it
            linter.process_tokens(pylint_utils.tokenize_module(node))
            if linter._ignore_file:
                self.skipped.append(findings[0].path)
                return []
            return [f for f in findings if linter.is_message_enabled(f.symbol, f.line)]
        except Exception:  # noqa: BLE001 - what pylint cannot read, it cannot suppress either
            return list(findings)
