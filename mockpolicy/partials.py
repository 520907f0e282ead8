"""The ``# mock-partial:`` block: the comment above a mock that says which
branches of the code under test it leaves untested, and why.

Grammar (docs/partial-mocks.md is the user's page)::

    # mock-partial: <free summary>
    #   untested: <reference>[; <reason for this entry>]
    #   reason: <reason for every entry without its own>

A reference is ``QUALNAME``, ``QUALNAME: if COND``, ``QUALNAME: else COND``,
``QUALNAME: except EXC`` or ``path.py:LINE->LINE``. A comment line indented
by two or more spaces after ``#`` continues the item above it: a wrapped
reference, or a reason. This module parses blocks and finds the branch a
reference names in a function's tree; it knows nothing of mocks or coverage.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from mockpolicy.functions import FunctionNode, own_nodes

REASON_PLACEHOLDER = "<say why this stays untested>"

_OPENER = re.compile(r"^\s*#\s*mock-partial\s*:(.*)$")
_ITEM = re.compile(r"^\s*#\s*(untested|reason)\s*:(.*)$")
_CONTINUATION = re.compile(r"^\s*#\s{2,}(\S.*)$")
_ARC = re.compile(r"^(?P<path>[^\s:;]+\.py):(?P<start>-?\d+)\s*->\s*(?P<end>-?\d+)$")
_QUALNAME = re.compile(r"^(?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?:\s*:\s*(?P<rest>.*))?$")
_ARM = re.compile(r"^(?P<arm>if|elif|else|except)\b\s*(?P<text>.*)$")
_COVERED_BY = re.compile(r"\bcovered by\s+(?P<ids>.+)$", re.IGNORECASE)


@dataclass(frozen=True)
class BranchRef:
    """A parsed reference. ``arm`` is ``function`` (every branch), ``if``,
    ``else``, ``except`` or ``arc``; ``text`` the COND or EXC as written."""

    arm: str
    qualname: str = ""
    text: str = ""
    path: str = ""
    arc: tuple[int, int] | None = None

    def __str__(self) -> str:
        if self.arm == "arc":
            assert self.arc is not None
            return f"{self.path}:{self.arc[0]}->{self.arc[1]}"
        if self.arm == "function":
            return self.qualname
        return f"{self.qualname}: {self.arm} {self.text}".rstrip()


@dataclass
class Text:
    """Comment text gathered from one or more lines, with the line of each piece."""

    pieces: list[tuple[int, str]] = field(default_factory=list)

    @property
    def value(self) -> str:
        return " ".join(text for _, text in self.pieces if text).strip()

    def line_of(self, needle: str) -> int:
        """The line holding ``needle`` (the first line when no piece holds it)."""
        for line, text in self.pieces:
            if needle.lower() in text.lower():
                return line
        return self.pieces[0][0]


@dataclass
class Entry:
    """One ``untested:`` line. ``problem`` says why its reference does not parse."""

    line: int
    reference_text: str
    reference: BranchRef | None
    own_reason: Text | None
    problem: str | None = None


@dataclass(frozen=True)
class Claim:
    """A ``covered by`` claim: the tests said to execute an entry, and the line it is on."""

    line: int
    test_ids: tuple[str, ...]


@dataclass
class Block:
    """One ``# mock-partial:`` block; ``line`` is the opener's, ``end_line`` its last."""

    line: int
    end_line: int
    summary: str
    entries: list[Entry] = field(default_factory=list)
    reason: Text | None = None

    def reason_of(self, entry: Entry) -> Text | None:
        """The reason that applies to ``entry``: its own, else the block's."""
        return entry.own_reason if entry.own_reason is not None else self.reason

    def claim_of(self, entry: Entry) -> Claim | None:
        reason = self.reason_of(entry)
        return parse_claim(reason) if reason is not None else None


def has_reason(text: Text | None) -> bool:
    """Whether ``text`` is a real reason: not empty, not a ``<placeholder>``."""
    if text is None:
        return False
    value = text.value
    return bool(value) and not (value.startswith("<") and value.endswith(">"))


def parse_claim(reason: Text) -> Claim | None:
    """The ``covered by ID[, ID...]`` claim a reason makes, if any. IDs are
    separated by commas; an ID ends at the first space."""
    match = _COVERED_BY.search(reason.value)
    if match is None:
        return None
    ids: list[str] = []
    for part in match.group("ids").split(","):
        words = part.split()
        if not words:
            continue
        ids.append(words[0].rstrip(".;"))
        if len(words) > 1:
            break  # prose follows the last ID
    return Claim(reason.line_of("covered by"), tuple(i for i in ids if i))


def _split_reason(text: str) -> tuple[str, str | None]:
    """``REF; reason`` split at the first semicolon outside quotes."""
    quote = ""
    for index, char in enumerate(text):
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == ";":
            return text[:index].strip(), text[index + 1 :].strip()
    return text.strip(), None


def parse_reference(text: str) -> BranchRef | str:
    """The reference ``text`` denotes, or a sentence saying why it does not parse."""
    text = text.strip()
    arc = _ARC.match(text)
    if arc is not None:
        return BranchRef("arc", path=arc.group("path"), arc=(int(arc.group("start")), int(arc.group("end"))))
    match = _QUALNAME.match(text)
    if match is None:
        return (
            f"cannot read the reference '{text}': write QUALNAME, 'QUALNAME: if COND', "
            "'QUALNAME: else COND', 'QUALNAME: except EXC' or 'path.py:LINE->LINE'"
        )
    qualname, rest = match.group("name"), match.group("rest")
    if rest is None:
        return BranchRef("function", qualname)
    arm_match = _ARM.match(rest.strip())
    if arm_match is None:
        return f"'{rest.strip()}' after '{qualname}:' must start with 'if', 'else' or 'except'"
    arm, condition = arm_match.group("arm"), arm_match.group("text").strip()
    arm = "if" if arm == "elif" else arm
    if arm != "except" and not condition:
        return f"'{arm}' in the reference to '{qualname}' needs the condition's source text"
    if condition and normalized_expression(condition) is None:
        return f"'{condition}' in the reference to '{qualname}' is not a Python expression"
    return BranchRef(arm, qualname, condition)


def normalized_expression(text: str) -> str | None:
    """``text`` as ``ast.unparse`` writes it (so whitespace, quotes and redundant
    parentheses do not matter), or None when it is not an expression."""
    try:
        return ast.unparse(ast.parse(text.strip(), mode="eval"))
    except (SyntaxError, ValueError, RecursionError):
        return None


def parse_blocks(lines: list[str]) -> list[Block]:
    """Every block in a file's ``lines`` (no line endings), in order."""
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        if "mock-partial" in lines[index]:
            opener = _OPENER.match(lines[index])
            if opener is not None:
                block, index = _parse_block(lines, index, opener.group(1).strip())
                blocks.append(block)
                continue
        index += 1
    return blocks


def _parse_block(lines: list[str], start: int, summary: str) -> tuple[Block, int]:
    block = Block(start + 1, start + 1, summary)
    reason: Text | None = None  # the reason a continuation line extends
    wrapped: list[str] | None = None  # or the reference text it extends
    index = start + 1
    while index < len(lines):
        line, number = lines[index], index + 1
        item = _ITEM.match(line)
        if item is not None:
            key, rest = item.group(1), item.group(2).strip()
            if key == "reason":
                block.reason = reason = Text([(number, rest)])
                wrapped = None
            else:
                reference_text, own = _split_reason(rest)
                reason = Text([(number, own)]) if own is not None else None
                block.entries.append(_entry(number, reference_text, reason))
                wrapped = None if reason is not None else [reference_text]
        else:
            continuation = _CONTINUATION.match(line)
            if continuation is None or _OPENER.match(line):
                break
            text = continuation.group(1).strip()
            if wrapped is not None:  # a long reference wrapped onto this line
                wrapped.append(text)
                reference_text, own = _split_reason(" ".join(wrapped))
                reason = Text([(number, own)]) if own is not None else None
                block.entries[-1] = _entry(block.entries[-1].line, reference_text, reason)
                if reason is not None:
                    wrapped = None
            elif reason is not None:
                reason.pieces.append((number, text))
        block.end_line = number
        index += 1
    return block, index


def _entry(line: int, reference_text: str, own_reason: Text | None) -> Entry:
    parsed = parse_reference(reference_text)
    if isinstance(parsed, str):
        return Entry(line, reference_text, None, own_reason, parsed)
    return Entry(line, reference_text, parsed, own_reason)


@dataclass(frozen=True)
class Branch:
    """Where a reference points in a function: the ``if``/``while``/conditional
    expression tests or ``except`` handlers whose arm it names (every one with
    that text), or none for a whole-function reference."""

    function: FunctionNode
    arm: str
    nodes: tuple[ast.AST, ...]


def conditions(function: FunctionNode) -> Iterator[ast.If | ast.While | ast.IfExp]:
    """The ``if``/``elif``/``while`` statements and conditional expressions of
    ``function``'s own body (nested functions and classes are their own code)."""
    for node in own_nodes(function):
        if isinstance(node, (ast.If, ast.While, ast.IfExp)):
            yield node


def handlers(function: FunctionNode) -> Iterator[ast.ExceptHandler]:
    for node in own_nodes(function):
        if isinstance(node, ast.ExceptHandler):
            yield node


def handler_names(handler: ast.ExceptHandler) -> list[str]:
    """What a handler catches, as ``ast.unparse`` writes it: the whole type
    expression and each name of a tuple (``[]`` for a bare ``except:``)."""
    if handler.type is None:
        return []
    names = [ast.unparse(handler.type)]
    if isinstance(handler.type, ast.Tuple):
        names.extend(ast.unparse(item) for item in handler.type.elts)
    return names


def find_branch(function: FunctionNode, reference: BranchRef) -> Branch | str:
    """The branch ``reference`` names in ``function``, or a sentence saying what is missing."""
    if reference.arm == "function":
        return Branch(function, "function", ())
    if reference.arm == "except":
        wanted = normalized_expression(reference.text) if reference.text else None
        found: tuple[ast.AST, ...] = tuple(
            handler for handler in handlers(function)
            if (handler.type is None if wanted is None else wanted in handler_names(handler))
        )
        if not found:
            shown = f"'except {reference.text}'" if reference.text else "bare 'except:'"
            return f"{reference.qualname} has no {shown} handler"
        return Branch(function, "except", found)
    wanted = normalized_expression(reference.text)
    found = tuple(node for node in conditions(function) if ast.unparse(node.test) == wanted)
    if not found:
        return f"{reference.qualname} has no if/elif/while test or conditional expression '{reference.text}'"
    return Branch(function, reference.arm, found)
