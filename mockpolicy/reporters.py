"""pylint reporters that write mockpolicy's formats, for
``pylint --load-plugins mockpolicy --output-format=mockpolicy.reporters.SarifReporter``.

Every message pylint emits (its own and mockpolicy's) is rendered; paths are
made relative to the folder pylint runs in, which is also where source lines
for GitHub's line hash are read from.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from pylint.reporters import BaseReporter

from mockpolicy.findings import Finding
from mockpolicy.formats import Context, RuleInfo, render
from mockpolicy.formats.context import Host, Sources

PYLINT_MESSAGES_URL = "https://pylint.readthedocs.io/en/stable/user_guide/messages"
_CATEGORIES = {"C": "convention", "R": "refactor", "W": "warning", "E": "error", "F": "fatal", "I": "information"}

if TYPE_CHECKING:
    from pylint.message import Message
    from pylint.reporters.ureports.nodes import Section


class _FormatReporter(BaseReporter):
    """Collects pylint's messages and writes them in ``fmt`` at the end of the run."""

    fmt = "text"

    def display_messages(self, layout: Section | None) -> None:
        import pylint

        root = Path.cwd()
        sources = Sources(root)
        findings, extra = [], {}
        for message in self.messages:
            path = _relative(message.path or message.abspath, root)
            findings.append(Finding(
                path=path,
                line=message.line or 1,
                column=message.column or 0,
                symbol=message.symbol,
                message=message.msg or "",
                end_line=message.end_line,
                end_column=message.end_column,
                scope=message.obj or "",
                statement=(sources.line(path, message.line or 1) or "").strip(),
            ))
            extra[message.symbol] = self._describe(message)
        host = Host("pylint", pylint.__version__, "https://pylint.readthedocs.io")
        self.out.write(render(sorted(findings), self.fmt, Context(root, (), extra, host=host)))

    def _describe(self, message: Message) -> RuleInfo:
        """pylint's own account of one of its messages: the first sentence of its
        description as the summary, the description, and its documentation page."""
        linter = getattr(self, "linter", None)
        try:
            definition = linter.msgs_store.get_message_definitions(message.msg_id)[0]  # type: ignore[union-attr]
            description = " ".join(str(definition.description).split())
        except Exception:  # noqa: BLE001 - metadata is a nicety; the message itself is reported
            description = ""
        summary = description.split(". ")[0].rstrip(".") + "." if description else message.symbol
        category = _CATEGORIES.get(message.msg_id[:1], "information")
        return RuleInfo(
            message.msg_id, message.symbol, summary,
            help_uri=f"{PYLINT_MESSAGES_URL}/{category}/{message.symbol}.html", description=description or None,
        )

    def display_reports(self, layout: Section) -> None:
        """Reports (pylint's statistics tables) have no place in these formats."""

    def _display(self, layout: Section) -> None:
        """Nothing is written before ``display_messages``."""


def _relative(path: str, root: Path) -> str:
    try:
        return Path(os.path.abspath(path)).relative_to(root).as_posix()
    except ValueError:
        return Path(path).as_posix()


class SarifReporter(_FormatReporter):
    name = "mockpolicy-sarif"
    extension = "sarif"
    fmt = "sarif"


class RdjsonReporter(_FormatReporter):
    name = "mockpolicy-rdjson"
    extension = "json"
    fmt = "rdjson"


class GitlabReporter(_FormatReporter):
    name = "mockpolicy-gitlab"
    extension = "json"
    fmt = "gitlab"


class GithubReporter(_FormatReporter):
    name = "mockpolicy-github"
    extension = "txt"
    fmt = "github"


# Registered under their names by the plugin: `--output-format=mockpolicy-sarif`.
REPORTERS: tuple[type[_FormatReporter], ...] = (SarifReporter, RdjsonReporter, GitlabReporter, GithubReporter)
