"""Posting a change's findings as one GitHub pull-request review.

Each inline comment sits on a right-side line inside the diff's hunks (GitHub
rejects a whole review for one comment outside them) and ends with a hidden
marker holding the finding's key, so a second run on the same head posts
nothing again, and comments whose finding is gone are deleted. Findings that
no hunk holds are listed, with their markers, in the body of the review
that first reports them (review bodies stay; only inline comments are deleted). Text from source files is
escaped; the token is the client's alone.
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
COMMENTS_PER_REVIEW = 30  # GitHub times out on reviews with many more


@dataclass(frozen=True)
class Posted:
    """What a run did: comments created, already present, deleted; findings in the body."""

    created: int
    kept: int
    deleted: int
    in_body: int


def comment_body(finding: Finding, key: str, context: Context, sources: Sources) -> str:
    """What is wrong, why, how to fix it (a suggestion when the fix is mechanical),
    the rule's page, and the hidden marker."""
    rule = context.rule(finding.symbol)
    parts = [f"**mockpolicy: `{rule.symbol}`** ({rule.msgid})", "", escape(finding.message)]
    why = rule.first_paragraph("Why is this bad?")
    if why:
        parts += ["", f"**Why:** {why}"]
    line_text = sources.line(finding.path, finding.line)
    fix = fix_for(finding, line_text)
    if fix is not None and line_text is not None:
        parts += ["", f"**Fix:** {fix.description}.", "", code_fence(fix.apply(line_text), "suggestion")]
    elif rule.help_uri:
        parts += ["", "**Fix:** see *Use instead* on the rule's page."]
    if rule.help_uri:
        parts += ["", f"[{rule.symbol} documentation]({rule.help_uri})"]
    parts += ["", MARKER.format(key=key)]
    return "\n".join(parts)


def post(api: GitHub, repository: str, pr: int, change: Change, context: Context, local_head: str) -> Posted:
    """Bring pull request ``pr``'s mockpolicy comments in line with ``change``."""
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
    existing: dict[str, list[int]] = {}
    for comment in api.pages(f"/repos/{repository}/pulls/{pr}/comments"):
        if not isinstance(comment, dict) or comment.get("in_reply_to_id"):
            continue
        found = _MARKER_RE.search(str(comment.get("body", "")))
        if found and isinstance(comment.get("id"), int):
            existing.setdefault(found.group(1), []).append(comment["id"])
    listed = {
        key
        for review in api.pages(f"/repos/{repository}/pulls/{pr}/reviews")
        if isinstance(review, dict)
        for key in _MARKER_RE.findall(str(review.get("body") or ""))
    }
    sources = Sources(context.root)
    keys = finding_keys(change.findings)
    inline, outside = [], []
    for finding, key in zip(change.findings, keys):
        if key in existing or key in listed:
            continue
        if change.changed.commentable(finding.path, finding.line):
            inline.append({
                "path": change.repo_prefix + finding.path,
                "line": finding.line,
                "side": "RIGHT",
                "body": comment_body(finding, key, context, sources),
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
    lines = [f"**mockpolicy** found {total} new finding(s) in this change."]
    if outside:
        lines += ["", "Outside the diff's hunks (no inline comment possible):", ""]
        for finding, key in outside:
            rule = context.rule(finding.symbol)
            name = f"[{finding.symbol}]({rule.help_uri})" if rule.help_uri else finding.symbol
            lines.append(f"- {escape(finding.path)}:{finding.line} {name}: {escape(finding.message)} {MARKER.format(key=key)}")
    return "\n".join(lines)


def post_or_fall_back(root: Path, pr: int, change: Change, context: Context) -> None:
    """Post ``change`` to pull request ``pr`` of ``$GITHUB_REPOSITORY`` with
    ``$GITHUB_TOKEN`` (API at ``$GITHUB_API_URL``); report what was done on
    stdout. When GitHub refuses (a fork's read-only token), print the findings
    as workflow commands instead, so they still show as annotations."""
    token = os.environ.get("GITHUB_TOKEN", "").strip()
    repository = os.environ.get("GITHUB_REPOSITORY", "").strip()
    if not token:
        raise GitHubError("GITHUB_TOKEN is not set; posting a review needs a token that may write pull requests.")
    if not re.fullmatch(r"[\w.-]+/[\w.-]+", repository):
        raise GitHubError(f"GITHUB_REPOSITORY must be 'owner/name', got '{repository}'.")
    api = GitHub(os.environ.get("GITHUB_API_URL") or PUBLIC_API, token)
    try:
        posted = post(api, repository, pr, change, context, gitio.head(root))
    except Forbidden as refused:
        print(printable(f"mockpolicy: {refused} Printing the findings as workflow commands instead."), file=sys.stderr)
        emit(change.findings, "github", context, sys.stdout)
        return
    print(
        f"mockpolicy: pull request {pr}: {posted.created} comment(s) posted, {posted.kept} already there, "
        f"{posted.deleted} deleted as fixed, {posted.in_body} listed in the review body."
    )
