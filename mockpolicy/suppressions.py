"""``# pylint: disable=...`` comments, honoured by ``mockpolicy check`` as pylint
honours them for the plugin.

Nothing is re-implemented: pylint's own pragma machinery reads the comments
(line, ``disable-next``, block and scope disables, ``enable``, ``skip-file``;
by symbol or message id) from an astroid tree of the source. astroid only
parses the text; nothing is imported or run. Only files with findings and a
``pylint:`` comment pay for it.
"""

from __future__ import annotations

import re
import tokenize
from collections.abc import Sequence

from mockpolicy.findings import Finding

_PRAGMA = re.compile(rb"#\s*pylint\s*:")


def unsuppressed(findings: Sequence[Finding], data: bytes, module_name: str) -> list[Finding]:
    """``findings`` of the module whose bytes are ``data`` minus those its
    ``# pylint:`` comments disable (or all of them under ``skip-file``)."""
    if not findings or _PRAGMA.search(data) is None:
        return list(findings)
    import astroid
    from pylint import utils as pylint_utils
    from pylint.lint import PyLinter
    from pylint.utils.file_state import FileState

    from pylint_plugins.mockpolicy_checker import register

    try:
        node = astroid.parse(data.decode("utf-8-sig", errors="replace"), module_name, findings[0].path)
        linter = PyLinter()
        register(linter)
        linter.file_state = FileState(module_name, linter.msgs_store, node)
        linter.process_tokens(pylint_utils.tokenize_module(node))
    except (SyntaxError, ValueError, RecursionError, tokenize.TokenError, astroid.AstroidError):
        return list(findings)  # what pylint cannot read, it cannot suppress either
    if linter._ignore_file:  # `# pylint: skip-file`; pylint keeps this flag private
        return []
    return [f for f in findings if linter.is_message_enabled(f.symbol, f.line)]
