"""What every output format may need beside the findings: rule metadata and
the source lines findings point at."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mockpolicy.findings import Finding
from mockpolicy.rules import RULES_BY_SYMBOL, doc_text
from mockpolicy.source import python_lines

TOOL_URL = "https://github.com/mockpolicy/mockpolicy"


@dataclass(frozen=True)
class RuleInfo:
    """A rule as formats describe it; pylint's own messages get one too."""

    msgid: str
    symbol: str
    summary: str
    help_uri: str | None = None
    page: str | None = None  # the rule's Markdown page, when there is one
    description: str | None = None  # a longer text, for messages with no page (pylint's own)

    @property
    def level(self) -> str:
        """``error``, ``warning`` or ``note``, from the message id's category letter."""
        return {"E": "error", "F": "error", "W": "warning"}.get(self.msgid[:1], "note")

    def section(self, heading: str) -> str:
        """The text under ``## heading`` of the page, or "" without one."""
        if not self.page:
            return ""
        match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", self.page, flags=re.MULTILINE | re.DOTALL)
        return match.group(1).strip() if match else ""

    def first_paragraph(self, heading: str) -> str:
        return " ".join(self.section(heading).split("\n\n", 1)[0].split())


def rule_info(symbol: str, extra: Mapping[str, RuleInfo] | None = None) -> RuleInfo:
    """Metadata for ``symbol``: a mockpolicy rule, one of ``extra``, or a bare entry."""
    if symbol in RULES_BY_SYMBOL:
        return _own_rule_info(symbol)
    if extra and symbol in extra:
        return extra[symbol]
    return RuleInfo(symbol, symbol, symbol)


@functools.cache
def _own_rule_info(symbol: str) -> RuleInfo:
    """A mockpolicy rule's metadata, its page read once per process (formats
    ask once per finding)."""
    rule = RULES_BY_SYMBOL[symbol]
    return RuleInfo(rule.msgid, rule.symbol, rule.summary, rule.doc_url, doc_text(rule))


class Sources:
    """The text of files under ``root``, read once, as GitHub reads them (UTF-8,
    undecodable bytes replaced, line endings kept)."""

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self._texts: dict[str, str | None] = {}

    def text(self, relative: str) -> str | None:
        if relative not in self._texts:
            self._texts[relative] = None
            if self.root is not None:
                try:
                    with (self.root / relative).open(encoding="utf-8", errors="replace", newline="") as stream:
                        self._texts[relative] = stream.read()
                except OSError:
                    pass
        return self._texts[relative]

    def lines(self, relative: str) -> list[str]:
        """The file's lines as Python numbers them (the numbering of findings),
        without their line endings ([] when it cannot be read)."""
        text = self.text(relative)
        return [] if text is None else python_lines(text)

    def github_line(self, relative: str, number: int) -> tuple[int, str | None]:
        """Line ``number`` as Python numbers it, as GitHub (git) numbers it, and
        that line's text when Python sees the same line and it is all UTF-8,
        else None (a suggestion made from it would not give the line back).

        git breaks lines at LF only (a CR before it is part of the ending);
        Python breaks at a lone CR too, so after a lone CR the numbers
        disagree, and a GitHub line holding one is several Python lines.
        """
        text = self.text(relative)
        if text is None:
            return number, None
        pieces = text.split("\n")
        seen = 0  # Python lines before this GitHub line
        for github_number, piece in enumerate(pieces, start=1):
            if github_number < len(pieces) and piece.endswith("\r"):
                piece = piece[:-1]  # CRLF
            parts = piece.split("\r")
            if seen + len(parts) >= number:
                return github_number, piece if len(parts) == 1 and "\ufffd" not in piece else None
            seen += len(parts)
        return number, None

    def line(self, relative: str, number: int) -> str | None:
        lines = self.lines(relative)
        return lines[number - 1] if 0 < number <= len(lines) else None

    def character_column(self, relative: str, number: int, byte_column: int, utf16: bool = False) -> int:
        """A 0-based UTF-8 byte column of line ``number`` as characters (code points,
        or UTF-16 code units with ``utf16``); unchanged when the line is unknown."""
        line = self.line(relative, number)
        if line is None:
            return byte_column
        prefix = line.encode("utf-8")[:byte_column].decode("utf-8", errors="ignore")
        return len(prefix.encode("utf-16-le")) // 2 if utf16 else len(prefix)


@dataclass(frozen=True)
class TrendPoint:
    """One version of the baseline file in its history: a label (date and
    commit) and how many findings it allows."""

    label: str
    allowed: int


@dataclass(frozen=True)
class Host:
    """A program whose report mockpolicy writes, its own messages and ours
    together (pylint, through ``mockpolicy.reporters``)."""

    name: str
    version: str
    information_uri: str


@dataclass(frozen=True)
class Context:
    """What a format may use beside the findings.

    ``root`` is the folder finding paths are relative to (source lines are read
    from it); ``baselined`` the findings the baseline allowed (for summaries);
    ``extra_rules`` metadata for symbols mockpolicy does not define;
    ``path_prefix`` the folder ``root`` is in the repository ("" at its top,
    else ending in "/"), which formats read by CI services put before paths;
    ``trend`` the baseline's history, oldest first (for the Markdown summary's chart).
    """

    root: Path | None = None
    baselined: Sequence[Finding] = ()
    extra_rules: Mapping[str, RuleInfo] = field(default_factory=dict)
    trend: Sequence[TrendPoint] = ()
    path_prefix: str = ""
    host: Host | None = None  # the tool mockpolicy runs inside (pylint), when it is not run alone

    def repository_path(self, relative: str) -> str:
        """``relative`` (to ``root``) as a path from the repository's top."""
        return self.path_prefix + relative

    def rule(self, symbol: str) -> RuleInfo:
        return rule_info(symbol, self.extra_rules)
