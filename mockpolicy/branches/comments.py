"""Where a file's comment lines are, and where a new one may go, read from its
tokens rather than from line starts: text that looks like a comment inside a
str, bytes or f-string literal is not one, and no comment line may go inside
such a literal or after a line that a backslash continues."""

from __future__ import annotations

import io
import tokenize
from dataclasses import dataclass

from mockpolicy.partials import Block

_FSTRING_START = getattr(tokenize, "FSTRING_START", None)  # Python 3.12+ splits f-strings into tokens
_FSTRING_END = getattr(tokenize, "FSTRING_END", None)
_NOT_CODE = frozenset({tokenize.COMMENT, tokenize.NL})


@dataclass(frozen=True)
class CommentLines:
    """``comments``: the lines holding only a comment; ``openings``: the lines
    a new comment line may go directly above (where a new line could start)."""

    comments: frozenset[int]
    openings: frozenset[int]

    @classmethod
    def of(cls, text: str) -> CommentLines:
        """The comment lines of ``text`` (a module's source); none, and nowhere
        to add one, when it does not tokenize."""
        text = text.replace("\r\n", "\n").replace("\r", "\n")  # lines as Python numbers them
        lines = text.split("\n")
        comments: set[int] = set()
        openings: set[int] = {1}
        depth = 0  # inside an f-string's tokens (3.12+): its comments and line breaks are its own
        try:
            for token in tokenize.generate_tokens(io.StringIO(text).readline):
                if _FSTRING_START is not None and token.type == _FSTRING_START:
                    depth += 1
                elif depth and token.type == _FSTRING_END:
                    depth -= 1
                elif depth:
                    continue
                elif token.type == tokenize.COMMENT:
                    row, column = token.start
                    if not lines[row - 1][:column].strip():
                        comments.add(row)
                elif token.type in (tokenize.NL, tokenize.NEWLINE):
                    openings.add(token.start[0] + 1)  # a line break outside any literal, not a backslash's
        except (tokenize.TokenError, SyntaxError):
            return cls(frozenset(), frozenset())
        return cls(frozenset(comments), frozenset(openings))

    def holds(self, block: Block) -> bool:
        """Whether every line of ``block`` is a comment line (not text in a literal)."""
        return all(line in self.comments for line in range(block.line, block.end_line + 1))


def same_code(before: bytes, after: bytes) -> bool:
    """Whether two versions of a file tokenize alike (encoding included), comments
    and blank or comment-only lines aside: an edit of comment lines only."""
    try:
        return _code_tokens(before) == _code_tokens(after)
    except (tokenize.TokenError, SyntaxError):
        return False


def _code_tokens(data: bytes) -> list[tuple[int, str]]:
    return [
        (token.type, token.string) for token in tokenize.tokenize(io.BytesIO(data).readline) if token.type not in _NOT_CODE
    ]
