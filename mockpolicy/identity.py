"""A finding's identity without line numbers: rule, path, enclosing scope, a
fingerprint of the offending statement, and its occurrence among identical
statements in that scope.

The fingerprint (baseline format 2) hashes the statement's syntax tree as
``mockpolicy.canonical`` writes it, so moving code, reformatting it (quotes,
parentheses, line splits, trailing commas, comments) keeps it, while changing
the statement (the mock's target, its arguments, its ``new`` value) changes it.

Format 1 hashed the statement's tokens without whitespace and comments
(``token_fingerprint``); a formatter changes those. Identities read from a
format 1 file keep that fingerprint behind the ``tokens:`` prefix and are
matched with ``legacy_identity`` until the file is rewritten. The keys of
``finding_keys`` (SARIF, GitLab, review comments) are published and stay on
the token fingerprint. Tokens are taken so that every supported Python reads
a statement the same way (3.12 split f-strings into several tokens; they are
joined back here).
"""

from __future__ import annotations

import functools
import hashlib
import io
import re
import tokenize
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from mockpolicy.canonical import canonical_statement
from mockpolicy.findings import Finding

_SKIPPED = frozenset(
    {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
)
_FSTRING_START = getattr(tokenize, "FSTRING_START", None)
_FSTRING_END = getattr(tokenize, "FSTRING_END", None)


# The fingerprint of an identity read from a format 1 file starts with this.
LEGACY = "tokens:"


@dataclass(frozen=True, order=True)
class Identity:
    rule: str
    path: str
    scope: str
    fingerprint: str

    @property
    def legacy(self) -> bool:
        """Whether the fingerprint is format 1's hash of tokens."""
        return self.fingerprint.startswith(LEGACY)


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


def token_fingerprint(statement: str) -> str:
    """Format 1's fingerprint: 16 hex digits of a hash of the normalized tokens."""
    text = "\x1f".join(normalized_tokens(statement))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@functools.lru_cache(maxsize=1 << 16)  # suites repeat the same mock call many times
def statement_fingerprint(statement: str, column: int = 0) -> str:
    """12 hex digits of a hash of the statement's canonical syntax tree (found
    at ``column`` of its first line); of its tokens without whitespace and
    comments when it does not parse; of its words when it is only comments
    (a ``# mock-partial:`` line)."""
    tree = canonical_statement(statement, column)
    if tree is not None:
        text = "ast:" + tree
    else:
        tokens = normalized_tokens(statement)
        text = "tokens:" + "\x1f".join(tokens) if tokens else "text:" + " ".join(statement.split())
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]


def identify(finding: Finding) -> Identity:
    """The identity of a finding whose path is already relative to the project root."""
    return Identity(finding.symbol, finding.path, finding.scope, statement_fingerprint(finding.statement, finding.column))


def legacy_identity(finding: Finding) -> Identity:
    """The identity format 1 gave the finding (its fingerprint behind ``LEGACY``)."""
    return Identity(finding.symbol, finding.path, finding.scope, LEGACY + token_fingerprint(finding.statement))


def finding_keys(findings: Sequence[Finding]) -> list[str]:
    """A stable, line-independent key for each finding (paths relative): its
    identity with format 1's token fingerprint and its occurrence among the
    findings with that identity, hashed to 20 hex digits. Formats and review
    comments publish it, so it does not change with the baseline's format."""
    seen: Counter[Identity] = Counter()
    keys = []
    for finding in findings:
        identity = Identity(finding.symbol, finding.path, finding.scope, token_fingerprint(finding.statement))
        seen[identity] += 1
        text = "\x1f".join((identity.rule, identity.path, identity.scope, identity.fingerprint, str(seen[identity])))
        keys.append(hashlib.sha256(text.encode("utf-8")).hexdigest()[:20])
    return keys


_INSIDE_BRACKETS = re.compile(r"(?<=[(\[{]) | (?=[)\]}])")


def excerpt(statement: str, width: int = 100) -> str:
    """A one-line excerpt of a statement for reviewers: whitespace collapsed, and
    none just inside brackets (an exploded call reads as a one-line call)."""
    text = _INSIDE_BRACKETS.sub("", " ".join(statement.split()))
    return text if len(text) <= width else text[: width - 3] + "..."
