"""Posting a change's findings as one GitHub pull-request review.

Each inline comment sits on a right-side line inside the diff's hunks (GitHub
rejects a whole review for one comment outside them) and ends with a hidden
marker holding the finding's key, so a second run on the same head posts
nothing again, and comments whose finding is gone are deleted. Findings that
no hunk holds are listed, with their markers, in the body of the review
that first reports them (review bodies stay; only inline comments are deleted). Text from source files is
escaped; the token is the client's alone.

Markers are trusted only where the bot wrote them: on review comments and
reviews whose author is the account the token posts as (``bot_login``), and
only at the place the bot puts them (a comment's last line, the end of a
review body's list item). Anyone can copy a marker into their own comment or
review, and a suggestion block quotes source lines verbatim, so a marker
anywhere else means nothing.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mockpolicy import gitio
from mockpolicy.findings import Finding
from mockpolicy.fixes import fix_for
from mockpolicy.formats import emit
from mockpolicy.formats.context import Context, Sources
from mockpolicy.formats.markdown import code_fence, escape
from mockpolicy.github_api import PUBLIC_API, Forbidden, GitHub, GitHubError
from mockpolicy.identity import finding_keys
from mockpolicy.printable import printable
from mockpolicy.review import Change

MARKER = "<!-- mockpolicy-finding: {key} -->"
_MARKER_RE = re.compile(r"<!-- mockpolicy-finding: ([0-9a-f]{20}) -->")
_LISTED_RE = re.compile(r"- .* <!-- mockpolicy-finding: ([0-9a-f]{20}) -->")  # a review body's list item
COMMENT_HEADING = "**mockpolicy: `"  # how every inline comment of the bot starts
REVIEW_HEADING = "**mockpolicy** found "  # how every review body of the bot starts
COMMENTS_PER_REVIEW = 30  # GitHub times out on reviews with many more
ACTIONS_BOT = "github-actions[bot]"  # who GitHub Actions' GITHUB_TOKEN posts as
BOT_LOGIN_VARIABLE = "MOCKPOLICY_BOT_LOGIN"
_LOGIN_RE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?")


@dataclass(frozen=True)
class Posted:
    """What a run did: comments created, already present, deleted; findings in the body."""

    created: int
    kept: int
    deleted: int
    in_body: int


def comment_body(finding: Finding, key: str, context: Context, line_text: str | None) -> str:
    """What is wrong, why, how to fix it (a suggestion replacing ``line_text``,
    the finding's line as GitHub has it, when the fix is mechanical), the
    rule's page, and the hidden marker."""
    rule = context.rule(finding.symbol)
    parts = [f"{COMMENT_HEADING}{rule.symbol}`** ({rule.msgid})", "", escape(finding.message)]
    why = rule.first_paragraph("Why is this bad?")
    if why:
        parts += ["", f"**Why:** {why}"]
    fix = fix_for(finding, line_text)
    if fix is not None and line_text is not None:
        parts += ["", f"**Fix:** {fix.description}.", "", code_fence(fix.apply(line_text), "suggestion")]
    elif rule.help_uri:
        parts += ["", "**Fix:** see *Use instead* on the rule's page."]
    if rule.help_uri:
        parts += ["", f"[{rule.symbol} documentation]({rule.help_uri})"]
    parts += ["", MARKER.format(key=key)]
    return "\n".join(parts)


def bot_login(api: GitHub, configured: str | None) -> str:
    """The login of the account the token posts as: ``configured`` when given,
    else what ``GET /user`` says, else (a token that may not read ``/user``, as
    GitHub Actions' ``GITHUB_TOKEN``) ``github-actions[bot]``."""
    if configured is not None:
        return configured
    try:
        user = api.request("GET", "/user").data
    except GitHubError as refused:
        if refused.status in (403, 404):  # "Resource not accessible by integration"
            return ACTIONS_BOT
        raise
    login = user.get("login") if isinstance(user, dict) else None
    if not isinstance(login, str) or not _LOGIN_RE.fullmatch(login):
        raise GitHubError(f"GitHub's answer to GET /user names no login; set {BOT_LOGIN_VARIABLE} to the account the token posts as.")
    return login


def _by(item: object, login: str) -> bool:
    """Whether ``item`` (a comment or review from the API) is ``login``'s (logins ignore case)."""
    user = item.get("user") if isinstance(item, dict) else None
    author = user.get("login") if isinstance(user, dict) else None
    return isinstance(author, str) and author.casefold() == login.casefold()


def _comment_key(body: str) -> str | None:
    """The key of the marker that ends one of the bot's inline comments: the
    last line, and only when the comment starts as the bot's do."""
    if not body.startswith(COMMENT_HEADING):
        return None
    found = _MARKER_RE.fullmatch(body.rstrip().rsplit("\n", 1)[-1].strip())
    return found.group(1) if found else None


def _listed_keys(body: str) -> list[str]:
    """The keys that end the list items of one of the bot's review bodies."""
    if not body.startswith(REVIEW_HEADING):
        return []
    return [found.group(1) for line in body.split("\n") if (found := _LISTED_RE.fullmatch(line.rstrip("\r")))]


def post(
    api: GitHub, repository: str, pr: int, change: Change, context: Context, local_head: str, login: str | None = None
) -> Posted:
    """Bring pull request ``pr``'s mockpolicy comments in line with ``change``;
    ``login`` is the bot's (``bot_login``'s ``configured``)."""
    pull = api.request("GET", f"/repos/{repository}/pulls/{pr}").data
    head_ref = pull.get("head") if isinstance(pull, dict) else None
    head = head_ref.get("sha") if isinstance(head_ref, dict) else None
    if not isinstance(head, str):
        raise GitHubError(f"GitHub's answer for pull request {pr} has no head commit.")
    if head != local_head:
        raise GitHubError(
            f"HEAD is {local_head[:12]} but pull request {pr}'s head is {head[:12]}; "
            "check out the pull request's head commit before posting."
        )
    bot = bot_login(api, login)
    existing: dict[str, list[int]] = {}
    for comment in api.pages(f"/repos/{repository}/pulls/{pr}/comments"):
        if not _by(comment, bot) or comment.get("in_reply_to_id"):
            continue
        key = _comment_key(str(comment.get("body") or ""))
        if key is not None and isinstance(comment.get("id"), int):
            existing.setdefault(key, []).append(comment["id"])
    listed = {
        key
        for review in api.pages(f"/repos/{repository}/pulls/{pr}/reviews")
        if _by(review, bot)
        for key in _listed_keys(str(review.get("body") or ""))
    }
    sources = Sources(context.root)
    keys = finding_keys(change.findings)
    inline, outside = [], []
    for finding, key in zip(change.findings, keys):
        if key in existing or key in listed:
            continue
        line, line_text = sources.github_line(finding.path, finding.line)
        if change.changed.commentable(finding.path, line):
            inline.append({
                "path": change.repo_prefix + finding.path,
                "line": line,
                "side": "RIGHT",
                "body": comment_body(finding, key, context, line_text),
            })
        else:
            outside.append((finding, key))
    batches = [inline[i : i + COMMENTS_PER_REVIEW] for i in range(0, len(inline), COMMENTS_PER_REVIEW)]
    if outside and not batches:
        batches = [[]]
    for number, batch in enumerate(batches):
        body = _review_body(len(change.findings), outside if number == 0 else [], context)
        api.request("POST", f"/repos/{repository}/pulls/{pr}/reviews",
                    {"commit_id": head, "event": "COMMENT", "body": body, "comments": batch})
    current = set(keys)
    gone = [comment_id for key, ids in existing.items() if key not in current for comment_id in ids]
    for comment_id in gone:
        api.request("DELETE", f"/repos/{repository}/pulls/comments/{comment_id}")
    return Posted(len(inline), sum(1 for key in keys if key in existing or key in listed), len(gone), len(outside))


def _review_body(total: int, outside: Sequence[tuple[Finding, str]], context: Context) -> str:
    lines = [f"{REVIEW_HEADING}{total} new finding(s) in this change."]
    if outside:
        lines += ["", "Outside the diff's hunks (no inline comment possible):", ""]
        for finding, key in outside:
            rule = context.rule(finding.symbol)
            name = f"[{finding.symbol}]({rule.help_uri})" if rule.help_uri else finding.symbol
            lines.append(f"- {escape(finding.path)}:{finding.line} {name}: {escape(finding.message)} {MARKER.format(key=key)}")
    return "\n".join(lines)


def post_or_fall_back(root: Path, pr: int, change: Change, context: Context) -> None:
    """Post ``change`` to pull request ``pr`` of ``$GITHUB_REPOSITORY`` with
    ``$GITHUB_TOKEN`` (API at ``$GITHUB_API_URL``, posting as
    ``$MOCKPOLICY_BOT_LOGIN`` when set); report what was done on stdout. When
    GitHub refuses (a fork's read-only token), print the findings as workflow
    commands instead, so they still show as annotations."""
    token = os.environ.get("GITHUB_TOKEN", "").strip()
    repository = os.environ.get("GITHUB_REPOSITORY", "").strip()
    if not token:
        raise GitHubError("GITHUB_TOKEN is not set; posting a review needs a token that may write pull requests.")
    if not re.fullmatch(r"[\w.-]+/[\w.-]+", repository, flags=re.ASCII):
        raise GitHubError(f"GITHUB_REPOSITORY must be 'owner/name', got '{repository}'.")
    login = os.environ.get(BOT_LOGIN_VARIABLE, "").strip() or None
    if login is not None and not _LOGIN_RE.fullmatch(login):
        raise GitHubError(f"{BOT_LOGIN_VARIABLE} must be a GitHub login such as {ACTIONS_BOT}, got '{login}'.")
    api = GitHub(os.environ.get("GITHUB_API_URL", "").strip() or PUBLIC_API, token)
    try:
        posted = post(api, repository, pr, change, context, gitio.head(root), login)
    except Forbidden as refused:
        print(printable(f"mockpolicy: {refused} Printing the findings as workflow commands instead."), file=sys.stderr)
        emit(change.findings, "github", context, sys.stdout)
        return
    print(
        f"mockpolicy: pull request {pr}: {posted.created} comment(s) posted, {posted.kept} already there, "
        f"{posted.deleted} deleted as fixed, {posted.in_body} listed in the review body."
    )
