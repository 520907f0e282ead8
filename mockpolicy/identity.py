"""A finding's identity without line numbers: rule, path, enclosing scope, a
fingerprint of the offending statement's tokens, and its occurrence among
identical statements in that scope.

The fingerprint ignores whitespace and comments, so moving or reformatting
code keeps it; changing the statement (its target, its arguments) changes it.
Tokens are taken so that every supported Python reads a statement the same way
(3.12 split f-strings into several tokens; they are joined back here).
"""

from __future__ import annotations

import hashlib
import io
import tokenize
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mockpolicy.findings import Finding

_SKIPPED = frozenset(
    {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
)
_FSTRING_START = getattr(tokenize, "FSTRING_START", None)
_FSTRING_END = getattr(tokenize, "FSTRING_END", None)


@dataclass(frozen=True, order=True)
class Identity:
    rule: str
    path: str
    scope: str
    fingerprint: str


def normalized_tokens(statement: str) -> list[str]:
    """The statement's tokens, without whitespace and comments."""
    lines = statement.splitlines(keepends=True)
    tokens: list[str] = []
    try:
        generated = list(tokenize.generate_tokens(io.StringIO(statement).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return statement.split()
    depth, start = 0, (0, 0)
    for token in generated:
        if _FSTRING_START is not None and token.type == _FSTRING_START:
            if depth == 0:
                start = token.start
            depth += 1
            continue
        if depth:
            if token.type == _FSTRING_END:
                depth -= 1
                if depth == 0:
                    tokens.append(_slice(lines, start, token.end))
            continue
        if token.type not in _SKIPPED:
            tokens.append(token.string)
    return tokens


def _slice(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> str:
    if start[0] == end[0]:
        return lines[start[0] - 1][start[1] : end[1]]
    parts = [lines[start[0] - 1][start[1] :], *lines[start[0] : end[0] - 1], lines[end[0] - 1][: end[1]]]
    return "".join(parts)


def fingerprint(statement: str) -> str:
    """16 hex digits of a hash of the normalized tokens."""
    text = "\x1f".join(normalized_tokens(statement))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def identify(finding: Finding) -> Identity:
    """The identity of a finding whose path is already relative to the project root."""
    return Identity(finding.symbol, finding.path, finding.scope, fingerprint(finding.statement))


def count_identities(findings: Iterable[Finding]) -> Counter[Identity]:
    return Counter(identify(finding) for finding in findings)


def finding_keys(findings: Sequence[Finding]) -> list[str]:
    """A stable, line-independent key for each finding (paths relative): its
    identity and its occurrence among the findings with that identity, hashed
    to 20 hex digits. Formats and review comments use it as a fingerprint."""
    seen: Counter[Identity] = Counter()
    keys = []
    for finding in findings:
        identity = identify(finding)
        seen[identity] += 1
        text = "\x1f".join((identity.rule, identity.path, identity.scope, identity.fingerprint, str(seen[identity])))
        keys.append(hashlib.sha256(text.encode("utf-8")).hexdigest()[:20])
    return keys


def excerpt(statement: str, width: int = 100) -> str:
    """A one-line, whitespace-collapsed excerpt of a statement for reviewers."""
    text = " ".join(statement.split())
    return text if len(text) <= width else text[: width - 3] + "..."
