"""``mockpolicy review --post github`` against a local HTTP server standing in
for GitHub's REST API (the infrastructure edge, not our code): the tests
assert on the requests it receives. Runs of one pull request's repository go
through the installed command; single runs call ``mockpolicy.cli.main`` in
this process. Waits between tries are asked for with ``Retry-After: 0``, and
the client's own waits are checked by handing it a ``sleep`` that records."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import subprocess
import textwrap
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from conftest import git, mockpolicy, mockpolicy_in_process, write_tree

from mockpolicy.formats.context import Sources
from mockpolicy.github_api import GitHub, GitHubError

TOKEN = "ghs_sekrit0123456789"
BOT = "mockpolicy-bot"  # the account the stand-in says the token posts as
MARKER = "<!-- mockpolicy-finding: 0123456789abcdef0123 -->"  # a finding no test has
CUT_SHORT = "X-Stand-In-Cut-Short"  # answer headers the stand-in reads and does not send
RAW = "X-Stand-In-Raw"
REPO_PATH = "/repos/octo/shop"
ADDED = """

    def test_added():
        with mock.patch("app.jobs.Runner.claim"):
            pass
    """
ADDED_LINE = 9


@dataclass
class Received:
    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: Any


@dataclass
class Fault:
    method: str
    path: str
    status: int
    message: str
    headers: dict[str, str] = field(default_factory=dict)
    times: int = 1
    cut_short: bool = False  # announce more body than is sent, then close the connection
    raw: str | None = None  # the body, instead of {"message": message}


class GitHubStandIn:
    """Pull request 7 of octo/shop: its head, review comments and reviews;
    lists are served two items a page with Link headers. The token's account
    is ``login`` (``GET /user``); reviews and comments posted with it are
    that account's, comments added by a test are a person's."""

    def __init__(self) -> None:
        self.head = ""
        self.login = BOT
        self.comments: list[dict[str, Any]] = []
        self.reviews: list[dict[str, Any]] = []
        self.received: list[Received] = []
        self.faults: list[Fault] = []
        self.redirects: dict[tuple[str, str], tuple[int, str]] = {}  # (method, path) -> (status, Location)
        self.endless = False  # every page of a list links to a next one
        self.link_base = ""  # where Link headers point; "" for this server
        self._ids = iter(range(1000, 100000))
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        # A short poll interval: shutdown() waits for the serving loop to look.
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.01,), daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def add_comment(self, body: str, author: str = "a-person", **extra: Any) -> int:
        comment = {"id": next(self._ids), "body": body, "path": "tests/test_jobs.py", "line": 1, "in_reply_to_id": None,
                   "user": {"login": author, "type": "Bot" if author.endswith("[bot]") else "User"}, **extra}
        self.comments.append(comment)
        return int(comment["id"])

    def requests(self, method: str, path: str | None = None) -> list[Received]:
        return [r for r in self.received if r.method == method and (path is None or r.path == path)]

    def _answer(self, method: str, path: str, query: dict[str, list[str]], body: Any) -> tuple[int, dict[str, str], Any]:
        for fault in self.faults:
            if fault.times and (fault.method, fault.path) == (method, path):
                fault.times -= 1
                headers = {**fault.headers, **({CUT_SHORT: "1"} if fault.cut_short else {}), **({RAW: fault.raw} if fault.raw else {})}
                return fault.status, headers, {"message": fault.message}
        if (method, path) in self.redirects:
            status, location = self.redirects[method, path]
            return status, {"Location": location}, None
        if (method, path) == ("GET", "/user"):
            return 200, {}, {"login": self.login, "type": "User"}
        if (method, path) == ("GET", f"{REPO_PATH}/pulls/7"):
            return 200, {}, {"number": 7, "head": {"sha": self.head}}
        if method == "GET" and path in (f"{REPO_PATH}/pulls/7/comments", f"{REPO_PATH}/pulls/7/reviews"):
            items = self.comments if path.endswith("comments") else self.reviews
            page = int(query.get("page", ["1"])[0])
            headers = {}
            if page * 2 < len(items) or self.endless:
                base = self.link_base or self.url
                headers["Link"] = f'<{base}{path}?page={page + 1}>; rel="next", <{base}{path}?page=99>; rel="last"'
            return 200, headers, items[(page - 1) * 2 : page * 2]
        if (method, path) == ("POST", f"{REPO_PATH}/pulls/7/reviews"):
            review = {"id": next(self._ids), "body": body["body"], "commit_id": body["commit_id"], "state": "COMMENTED",
                      "user": {"login": self.login}}
            self.reviews.append(review)
            for comment in body["comments"]:
                self.add_comment(comment["body"], self.login, path=comment["path"], line=comment["line"], side=comment["side"])
            return 200, {}, review
        found = re.fullmatch(rf"{REPO_PATH}/pulls/comments/(\d+)", path)
        if method == "DELETE" and found:
            before = len(self.comments)
            self.comments = [c for c in self.comments if c["id"] != int(found.group(1))]
            return (204, {}, None) if len(self.comments) < before else (404, {}, {"message": "Not Found"})
        return 404, {}, {"message": "Not Found"}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def _serve(self) -> None:
                parts = urllib.parse.urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                body = json.loads(raw) if raw else None
                stand_in.received.append(Received(self.command, parts.path, parts.query, dict(self.headers.items()), body))
                status, headers, data = stand_in._answer(self.command, parts.path, urllib.parse.parse_qs(parts.query), body)
                payload = json.dumps(data).encode() if data is not None else b""
                cut_short = bool(headers.pop(CUT_SHORT, ""))
                payload = headers.pop(RAW).encode() if RAW in headers else payload
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload) + (100 if cut_short else 0)))
                self.end_headers()
                self.wfile.write(payload)
                if cut_short:
                    self.close_connection = True

            do_GET = do_POST = do_DELETE = _serve

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - pylint's name
                pass

        return Handler


@pytest.fixture
def github(monkeypatch: pytest.MonkeyPatch) -> Iterator[GitHubStandIn]:
    for name in ("NO_PROXY", "no_proxy"):  # in this process too, whatever proxy the environment names
        monkeypatch.setenv(name, "127.0.0.1")
    server = GitHubStandIn()
    yield server
    server.close()


@pytest.fixture
def pull_request(app_project: Path, github: GitHubStandIn) -> Path:
    """A repository whose feature branch adds a first-party, unspecced mock; the
    stand-in's pull request 7 has the branch's head."""
    write_tree(app_project, {"tests/test_jobs.py": "from unittest import mock\n\n\ndef test_plain():\n    assert 1\n"})
    git(app_project, "init", "-q", "-b", "main")
    git(app_project, "add", "-A")
    git(app_project, "commit", "-qm", "base")
    git(app_project, "checkout", "-qb", "feature")
    commit_change(app_project, ADDED)
    github.head = git(app_project, "rev-parse", "HEAD").strip()
    return app_project


def commit_change(repo: Path, added: str) -> None:
    with (repo / "tests/test_jobs.py").open("a", encoding="utf-8") as handle:
        handle.write(textwrap.dedent(added))
    git(repo, "commit", "-qam", "change")


Runner = Callable[..., "subprocess.CompletedProcess[str]"]


def post(repo: Path, github: GitHubStandIn, *extra: str, runner: Runner = mockpolicy_in_process, **env: str) -> Any:
    """``mockpolicy review --post github`` of pull request 7; ``runner=mockpolicy``
    for the installed command (needed to run the same repository again)."""
    full_env = {"GITHUB_TOKEN": TOKEN, "GITHUB_REPOSITORY": "octo/shop", "GITHUB_API_URL": github.url,
                "NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1", **env}
    result = runner("review", "--base", "main", "--post", "github", "--pr", "7", *extra, cwd=repo, env=full_env)
    assert TOKEN not in result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    return result


def assert_token_only_in_the_header(github: GitHubStandIn) -> None:
    assert github.received
    for request in github.received:
        assert request.headers["Authorization"] == f"Bearer {TOKEN}"
        assert TOKEN not in json.dumps(request.body) + request.path + request.query


def test_post_is_idempotent_and_deletes_fixed_findings(pull_request: Path, github: GitHubStandIn) -> None:
    human = [github.add_comment(f"a person's comment {n}") for n in range(3)]
    first = post(pull_request, github, runner=mockpolicy)
    assert first.returncode == 1, first.stderr
    assert "2 comment(s) posted, 0 already there, 0 deleted" in first.stdout
    [review] = github.requests("POST", f"{REPO_PATH}/pulls/7/reviews")
    assert (review.body["event"], review.body["commit_id"]) == ("COMMENT", github.head)
    assert "2 new finding(s)" in review.body["body"]
    comments = review.body["comments"]
    assert [(c["path"], c["line"], c["side"]) for c in comments] == [("tests/test_jobs.py", ADDED_LINE, "RIGHT")] * 2
    first_party, unspecced = sorted(comments, key=lambda c: "unspecced" in c["body"])
    assert first_party["body"].startswith("**mockpolicy: `first-party-mock`** (W7301)")
    assert "**Why:**" in first_party["body"]
    assert "suggestion" not in first_party["body"]
    assert "```suggestion\n    with mock.patch(\"app.jobs.Runner.claim\", autospec=True):\n```" in unspecced["body"]
    assert "(https://github.com/mockpolicy/mockpolicy/blob/main/docs/rules/unspecced-mock.md)" in unspecced["body"]
    markers = [re.search(r"<!-- mockpolicy-finding: [0-9a-f]{20} -->$", c["body"]) for c in comments]
    assert all(markers) and markers[0].group(0) != markers[1].group(0)  # type: ignore[union-attr]
    github.add_comment(f"> quoting {markers[0].group(0)}", in_reply_to_id=human[0])  # type: ignore[union-attr]

    second = post(pull_request, github, runner=mockpolicy)
    assert second.returncode == 1
    assert "0 comment(s) posted, 2 already there, 0 deleted" in second.stdout
    assert len(github.requests("POST")) == 1 and not github.requests("DELETE")
    pages = [r.query for r in github.requests("GET", f"{REPO_PATH}/pulls/7/comments")]
    assert pages[-3:] == ["per_page=100", "page=2", "page=3"]  # followed the Link headers

    source = (pull_request / "tests/test_jobs.py").read_text()
    fixed = source.replace('    with mock.patch("app.jobs.Runner.claim"):\n        pass\n', "    assert 2\n")
    (pull_request / "tests/test_jobs.py").write_text(fixed)
    git(pull_request, "commit", "-qam", "fix")
    github.head = git(pull_request, "rev-parse", "HEAD").strip()
    third = post(pull_request, github, runner=mockpolicy)
    assert third.returncode == 0, third.stderr
    assert "0 comment(s) posted, 0 already there, 2 deleted as fixed" in third.stdout
    deleted = sorted(int(r.path.rsplit("/", 1)[1]) for r in github.requests("DELETE"))
    assert len(deleted) == 2 and not set(deleted) & set(human)
    assert len(github.requests("POST")) == 1
    assert [c["body"] for c in github.comments if "quoting" not in c["body"]] == [f"a person's comment {n}" for n in range(3)]
    assert_token_only_in_the_header(github)


def test_findings_outside_the_hunks_go_into_the_review_body_once(pull_request: Path, github: GitHubStandIn) -> None:
    git(pull_request, "checkout", "-q", "main")
    write_tree(pull_request, {"tests/test_old.py": """
        from unittest import mock


        def test_old():
            with mock.patch("app.jobs.run", autospec=True):
                pass
        """})
    git(pull_request, "add", "-A")
    git(pull_request, "commit", "-qm", "an old finding nobody baselined")
    git(pull_request, "checkout", "-q", "feature")
    git(pull_request, "rebase", "-q", "main")
    github.head = git(pull_request, "rev-parse", "HEAD").strip()
    first = post(pull_request, github, "--filter", "nofilter", runner=mockpolicy)
    assert "2 comment(s) posted, 0 already there, 0 deleted as fixed, 1 listed in the review body." in first.stdout
    [review] = github.requests("POST")
    assert {c["path"] for c in review.body["comments"]} == {"tests/test_jobs.py"}
    assert "Outside the diff's hunks" in review.body["body"]
    assert re.search(r"tests/test\\_old\.py:5 \[first-party-mock\]\(https://[^)]+\): .* <!-- mockpolicy-finding: [0-9a-f]{20} -->",
                     review.body["body"])
    second = post(pull_request, github, "--filter", "nofilter", runner=mockpolicy)
    assert "0 comment(s) posted, 3 already there, 0 deleted as fixed, 0 listed" in second.stdout
    assert len(github.requests("POST")) == 1


def test_source_text_is_escaped(pull_request: Path, github: GitHubStandIn) -> None:
    commit_change(pull_request, """

    def test_target():
        with mock.patch("app.jobs.<img src=x onerror=alert(1)>**@octocat**", autospec=True):
            pass
    """)
    github.head = git(pull_request, "rev-parse", "HEAD").strip()
    assert post(pull_request, github).returncode == 1
    bodies = [c["body"] for c in github.requests("POST")[0].body["comments"]]
    [target] = [b for b in bodies if "mock-target-not-found" in b]
    assert "<img" not in target and "&lt;img src=x onerror=alert(1)&gt;" in target
    assert "\\*\\*@\u2060octocat\\*\\*" in target


def test_a_forks_403_falls_back_to_workflow_commands(pull_request: Path, github: GitHubStandIn) -> None:
    github.faults.append(Fault("POST", f"{REPO_PATH}/pulls/7/reviews", 403, "Resource not accessible by integration"))
    result = post(pull_request, github)
    assert result.returncode == 1
    assert result.stderr.startswith(
        f"mockpolicy: GitHub refused POST {REPO_PATH}/pulls/7/reviews (403: Resource not accessible by integration)."
    )
    warnings = [line for line in result.stdout.splitlines() if line.startswith("::warning ")]
    assert len(warnings) == 2
    assert all(w.startswith(f"::warning file=tests/test_jobs.py,line={ADDED_LINE},") for w in warnings)
    assert len(github.requests("POST")) == 1  # a refusal is not retried


def test_server_errors_and_rate_limits_are_retried(pull_request: Path, github: GitHubStandIn) -> None:
    pr = f"{REPO_PATH}/pulls/7"
    github.faults += [
        Fault("GET", pr, 502, "Bad Gateway", {"Retry-After": "0"}),
        Fault("GET", pr, 429, "Too Many Requests", {"Retry-After": "0"}),
        Fault("GET", pr, 403, "You have exceeded a secondary rate limit. Please wait.", {"Retry-After": "0"}),
        Fault("POST", f"{pr}/reviews", 500, "Server Error"),  # no Retry-After: a short backoff
    ]
    started = time.monotonic()
    result = post(pull_request, github)
    elapsed = time.monotonic() - started
    assert result.returncode == 1, result.stderr
    assert "2 comment(s) posted" in result.stdout
    assert len(github.requests("GET", pr)) == 4
    assert len(github.requests("POST")) == 2
    assert elapsed < 15  # the rate limits' Retry-After: 0 is taken over GitHub's minute


def test_the_client_waits_what_the_server_asks_else_backs_off(github: GitHubStandIn) -> None:
    pr = f"{REPO_PATH}/pulls/7"
    github.faults += [
        Fault("GET", pr, 502, "Bad Gateway", {"Retry-After": "0"}),
        Fault("GET", pr, 429, "Too Many Requests", {"Retry-After": "2"}),
        Fault("GET", pr, 403, "You have exceeded a secondary rate limit. Please wait.", {"Retry-After": "1"}),
        Fault("POST", f"{pr}/reviews", 500, "Server Error", times=2),  # no Retry-After: an exponential backoff
    ]
    waits: list[float] = []
    api = GitHub(github.url, TOKEN, sleep=waits.append)
    assert api.request("GET", pr).data == {"number": 7, "head": {"sha": ""}}
    assert waits == [0.0, 2.0, 1.0]
    api.request("POST", f"{pr}/reviews", {"body": "", "commit_id": "", "comments": []})
    assert waits == [0.0, 2.0, 1.0, 0.25, 0.5]
    assert api.waited == 3.75
    assert len(github.requests("GET", pr)) == 4 and len(github.requests("POST")) == 3


def test_retries_give_up_with_one_sentence(pull_request: Path, github: GitHubStandIn) -> None:
    github.faults.append(Fault("GET", f"{REPO_PATH}/pulls/7", 503, f"down for {TOKEN}", {"Retry-After": "0"}, times=50))
    result = post(pull_request, github)
    assert result.returncode == 2
    assert result.stderr == (
        f"mockpolicy: error: GitHub did not answer GET {REPO_PATH}/pulls/7 after 5 tries (last: 503: down for ***).\n"
    )
    assert len(github.received) == 5


def test_a_wait_longer_than_allowed_is_not_waited(pull_request: Path, github: GitHubStandIn) -> None:
    github.faults.append(Fault("GET", f"{REPO_PATH}/pulls/7", 429, "slow down", {"Retry-After": "3600"}))
    started = time.monotonic()
    result = post(pull_request, github)
    assert time.monotonic() - started < 10
    assert result.returncode == 2
    assert "GitHub asked to wait 3600 s before retrying GET" in result.stderr
    assert "more than mockpolicy waits in one run (60 s)." in result.stderr


def test_links_to_another_host_are_not_followed(pull_request: Path, github: GitHubStandIn) -> None:
    for n in range(3):
        github.add_comment(f"comment {n}")
    github.link_base = "http://collector.invalid"
    result = post(pull_request, github)
    assert result.returncode == 2
    assert result.stderr == (
        "mockpolicy: error: GitHub sent a link to another host (collector.invalid); it is not followed with the token.\n"
    )


def test_head_must_be_the_pull_requests_head(pull_request: Path, github: GitHubStandIn) -> None:
    github.head = "0" * 40
    result = post(pull_request, github)
    assert result.returncode == 2
    assert "pull request 7's head is 000000000000; check out the pull request's head commit" in result.stderr
    assert not github.requests("POST")


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"GITHUB_TOKEN": ""}, "mockpolicy: error: GITHUB_TOKEN is not set;"),
        ({"GITHUB_REPOSITORY": ""}, "mockpolicy: error: GITHUB_REPOSITORY must be 'owner/name', got ''."),
        ({"GITHUB_REPOSITORY": "just-a-name"}, "GITHUB_REPOSITORY must be 'owner/name', got 'just-a-name'."),
    ],
)
def test_missing_environment(pull_request: Path, github: GitHubStandIn, env: dict[str, str], message: str) -> None:
    result = post(pull_request, github, **env)
    assert result.returncode == 2
    assert message in result.stderr
    assert github.received == []


def test_unreachable_api(github: GitHubStandIn) -> None:
    github.close()
    waits: list[float] = []
    api = GitHub(github.url, TOKEN, sleep=waits.append)
    with pytest.raises(GitHubError) as raised:
        api.request("GET", f"{REPO_PATH}/pulls/7")
    assert str(raised.value).startswith(f"GitHub did not answer GET {REPO_PATH}/pulls/7 after 5 tries (last: ")
    assert TOKEN not in str(raised.value)
    assert waits == [0.25, 0.5, 1.0, 2.0]  # the backoff doubles; no wait after the last try


def test_redirects_on_the_api_host_are_followed_with_the_token(github: GitHubStandIn) -> None:
    """A renamed repository answers 301, a moved one 307/308: on the API's own
    host they are followed, keeping the method and the body."""
    old = "/repos/octo/old/pulls/7"
    github.redirects[("GET", old)] = (301, f"{github.url}{REPO_PATH}/pulls/7")
    github.redirects[("POST", f"{old}/reviews")] = (307, f"{REPO_PATH}/pulls/7/reviews")  # relative, as RFC 9110 allows
    github.redirects[("DELETE", f"{old}/comments/1")] = (308, f"{github.url}{REPO_PATH}/pulls/comments/1")
    api = GitHub(github.url, TOKEN)
    assert api.request("GET", old).data == {"number": 7, "head": {"sha": ""}}
    review = {"body": "b", "commit_id": "c", "event": "COMMENT", "comments": []}
    api.request("POST", f"{old}/reviews", review)
    [posted] = github.requests("POST", f"{REPO_PATH}/pulls/7/reviews")
    assert posted.body == review
    comment = github.add_comment("x")
    github.redirects[("DELETE", f"{old}/comments/1")] = (308, f"{REPO_PATH}/pulls/comments/{comment}")
    api.request("DELETE", f"{old}/comments/1")
    assert github.comments == []
    assert [r.method for r in github.received] == ["GET", "GET", "POST", "POST", "DELETE", "DELETE"]
    assert_token_only_in_the_header(github)


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_redirects_to_another_host_are_refused(github: GitHubStandIn, status: int) -> None:
    elsewhere = GitHubStandIn()  # another port of the same address: another host for the token
    try:
        github.redirects[("GET", f"{REPO_PATH}/pulls/7")] = (status, f"{elsewhere.url}{REPO_PATH}/pulls/7")
        with pytest.raises(GitHubError) as raised:
            GitHub(github.url, TOKEN).request("GET", f"{REPO_PATH}/pulls/7")
        assert str(raised.value) == (
            f"GitHub redirected GET {REPO_PATH}/pulls/7 to another host ({elsewhere.url}); "
            f"the token goes to {github.url} only, so mockpolicy does not follow."
        )
        assert elsewhere.received == []
    finally:
        elsewhere.close()


def test_a_redirect_loop_ends(github: GitHubStandIn) -> None:
    github.redirects[("GET", f"{REPO_PATH}/pulls/7")] = (302, f"{REPO_PATH}/pulls/7")
    with pytest.raises(GitHubError) as raised:
        GitHub(github.url, TOKEN).request("GET", f"{REPO_PATH}/pulls/7")
    assert str(raised.value) == f"GitHub redirected GET {REPO_PATH}/pulls/7 more than 5 times."
    assert len(github.received) == 6


def test_the_bot_refuses_a_redirect_to_another_host(pull_request: Path, github: GitHubStandIn) -> None:
    github.redirects[("POST", f"{REPO_PATH}/pulls/7/reviews")] = (307, "http://collector.invalid/steal")
    result = post(pull_request, github)
    assert result.returncode == 2
    assert result.stderr == (
        f"mockpolicy: error: GitHub redirected POST {REPO_PATH}/pulls/7/reviews to another host "
        f"(http://collector.invalid); the token goes to {github.url} only, so mockpolicy does not follow.\n"
    )


def markers_of(bodies: list[str]) -> list[str]:
    return [m for body in bodies for m in re.findall(r"<!-- mockpolicy-finding: [0-9a-f]{20} -->", body)]


def test_markers_count_only_on_the_bots_own_comments(pull_request: Path, github: GitHubStandIn) -> None:
    """A maintainer's comment or a pull-request author's review body carrying
    the markers neither suppresses findings nor gets deleted."""
    first = post(pull_request, github)
    assert "2 comment(s) posted" in first.stdout
    bodies = [c["body"] for c in github.comments]
    current = markers_of(bodies)
    assert len(current) == 2
    github.comments.clear()
    github.reviews.clear()
    # Copies of the bot's own texts, by others: word for word, and with a marker of a finding that is gone.
    github.add_comment(bodies[0], author="maintainer")
    maintainers = github.add_comment(bodies[1].replace(current[1], MARKER), author="maintainer")
    listing = "\n".join(f"- tests/test\\_jobs.py:9 x: y {m}" for m in [*current, MARKER])
    github.reviews.append({"id": 1, "body": f"**mockpolicy** found 2 new finding(s) in this change.\n\n{listing}",
                           "state": "COMMENTED", "user": {"login": "pr-author"}})
    second = post(pull_request, github)
    assert "2 comment(s) posted, 0 already there, 0 deleted as fixed" in second.stdout, second.stdout
    assert not github.requests("DELETE")
    assert maintainers in [c["id"] for c in github.comments]


def test_a_marker_in_quoted_source_is_not_the_comments_key(pull_request: Path, github: GitHubStandIn) -> None:
    """The suggestion block quotes the source line; a marker-like string in it
    must not be read as the comment's key (else the comment is deleted and
    posted again on every push)."""
    commit_change(pull_request, """

    def test_quoted():
        with mock.patch("app.jobs.run"):  # <!-- mockpolicy-finding: 0123456789abcdef0123 -->
            pass
    """)
    github.head = git(pull_request, "rev-parse", "HEAD").strip()
    first = post(pull_request, github)
    assert "4 comment(s) posted" in first.stdout
    assert any("```suggestion\n" in c["body"] and "0123456789abcdef0123" in c["body"] for c in github.comments)
    second = post(pull_request, github)
    assert "0 comment(s) posted, 4 already there, 0 deleted as fixed" in second.stdout, second.stdout
    assert not github.requests("DELETE")


def test_an_actions_token_posts_as_github_actions(pull_request: Path, github: GitHubStandIn) -> None:
    """GITHUB_TOKEN in Actions cannot read /user; its comments are github-actions[bot]'s."""
    github.login = "github-actions[bot]"
    github.faults.append(Fault("GET", "/user", 403, "Resource not accessible by integration", times=2))
    github.add_comment(f"**mockpolicy: `x`**\n\n{MARKER}", author="someone-else[bot]")
    assert "2 comment(s) posted" in post(pull_request, github).stdout
    second = post(pull_request, github)
    assert "0 comment(s) posted, 2 already there, 0 deleted as fixed" in second.stdout, second.stdout
    assert not github.requests("DELETE")


def test_the_bot_login_can_be_configured(pull_request: Path, github: GitHubStandIn) -> None:
    github.login = "shop-review[bot]"  # an app's installation token: /user refuses it, its comments are the app's
    github.faults.append(Fault("GET", "/user", 403, "Resource not accessible by integration", times=9))
    stale = github.add_comment(f"**mockpolicy: `x`**\n\n{MARKER}", author="shop-review[bot]")
    github.add_comment(f"**mockpolicy: `x`**\n\n{MARKER}", author="a-person")
    first = post(pull_request, github, MOCKPOLICY_BOT_LOGIN="Shop-Review[bot]")  # logins ignore case
    assert "2 comment(s) posted, 0 already there, 1 deleted as fixed" in first.stdout, first.stdout
    assert [r.path for r in github.requests("DELETE")] == [f"{REPO_PATH}/pulls/comments/{stale}"]
    second = post(pull_request, github, MOCKPOLICY_BOT_LOGIN="shop-review[bot]")
    assert "0 comment(s) posted, 2 already there, 0 deleted as fixed" in second.stdout, second.stdout
    assert not github.requests("GET", "/user")


def test_a_bad_bot_login_is_one_sentence(pull_request: Path, github: GitHubStandIn) -> None:
    result = post(pull_request, github, MOCKPOLICY_BOT_LOGIN="a b\n::error::x")
    assert result.returncode == 2
    assert result.stderr == (
        "mockpolicy: error: MOCKPOLICY_BOT_LOGIN must be a GitHub login such as github-actions[bot], got 'a b\\n::error::x'.\n"
    )
    assert github.received == []


@pytest.mark.parametrize("status", [422, 403])
def test_the_token_is_masked_before_a_message_is_cut(github: GitHubStandIn, status: int) -> None:
    """GitHub's message is quoted up to 300 characters; a token straddling the
    cut must not leave its first characters behind."""
    github.faults.append(Fault("GET", f"{REPO_PATH}/pulls/7", status, "x" * 281 + TOKEN + " and more"))
    with pytest.raises(GitHubError) as raised:
        GitHub(github.url, TOKEN).request("GET", f"{REPO_PATH}/pulls/7")
    quoted = "x" * 281 + "*** and more"
    assert str(raised.value) == (
        f"GitHub refused GET {REPO_PATH}/pulls/7 (403: {quoted})." if status == 403
        else f"GitHub answered GET {REPO_PATH}/pulls/7 with 422: {quoted}."
    )


@pytest.mark.parametrize("token", ["ghs_abc\r\nX-Injected: 1", "ghs_abc\ndef", "ghs_abc def", "ghs_\u20acuro", "ghs_\x1b[31m"])
def test_a_token_that_cannot_be_a_header_is_refused_unseen(pull_request: Path, github: GitHubStandIn, token: str) -> None:
    result = post(pull_request, github, GITHUB_TOKEN=token)
    assert result.returncode == 2
    assert result.stderr == (
        "mockpolicy: error: GITHUB_TOKEN is not a token mockpolicy can send: "
        "it must be printable ASCII without spaces or line breaks (its value is not shown).\n"
    )
    assert github.received == []


def test_endless_pagination_stops_at_the_page_cap(pull_request: Path, github: GitHubStandIn) -> None:
    github.add_comment("a person's comment")
    github.endless = True  # every page links to a next one
    api = GitHub(github.url, TOKEN, max_pages=3)
    with pytest.raises(GitHubError) as raised:
        list(api.pages(f"{REPO_PATH}/pulls/7/comments"))
    assert str(raised.value) == (
        f"GitHub's list GET {REPO_PATH}/pulls/7/comments goes on past 3 pages, more than mockpolicy reads (3 pages of 100 items)."
    )
    assert len(github.received) == 3
    result = post(pull_request, github)
    assert result.returncode == 2
    assert result.stderr == (
        f"mockpolicy: error: GitHub's list GET {REPO_PATH}/pulls/7/comments goes on past 100 pages, "
        "more than mockpolicy reads (100 pages of 100 items).\n"
    )
    assert len(github.requests("GET", f"{REPO_PATH}/pulls/7/comments")) == 3 + 100


@contextlib.contextmanager
def stalling_server(drip: bool) -> Iterator[str]:
    """A server that takes connections and never answers; with ``drip``, it
    starts an answer and then sends one more byte of a header every 20 ms,
    so no read ever waits long enough to time out."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.02)
    stop = threading.Event()
    held: list[socket.socket] = []

    def dribble(connection: socket.socket) -> None:
        try:
            connection.sendall(b"HTTP/1.1 200 OK\r\n")
            while not stop.wait(0.02):
                connection.sendall(b"X")
        except OSError:
            pass

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            held.append(connection)
            if drip:
                threading.Thread(target=dribble, args=(connection,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        for connection in held:
            connection.close()
        listener.close()


@pytest.mark.parametrize("drip", [False, True], ids=["silent", "dripping"])
def test_the_whole_run_has_a_time_budget(drip: bool) -> None:
    """Per request, a silent server is cut off after ``timeout``; a server that
    keeps dripping bytes never is. Neither may hold the run past its budget."""
    with stalling_server(drip) as url:
        api = GitHub(url, TOKEN, timeout=10, budget=0.5)
        started = time.monotonic()
        with pytest.raises(GitHubError) as raised:
            api.request("GET", f"{REPO_PATH}/pulls/7")
        assert time.monotonic() - started < 3
    assert str(raised.value) == f"mockpolicy's time for GitHub's API in one run (0.5 s) ran out during GET {REPO_PATH}/pulls/7."


def test_a_retry_is_not_waited_for_past_the_budget(github: GitHubStandIn) -> None:
    github.faults.append(Fault("GET", f"{REPO_PATH}/pulls/7", 502, "Bad Gateway", {"Retry-After": "20"}))
    waits: list[float] = []
    api = GitHub(github.url, TOKEN, sleep=waits.append, budget=10)
    with pytest.raises(GitHubError) as raised:
        api.request("GET", f"{REPO_PATH}/pulls/7")
    assert str(raised.value) == (
        f"GitHub asked to wait 20 s before retrying GET {REPO_PATH}/pulls/7 (502: Bad Gateway), "
        "more than is left of mockpolicy's 10 s for GitHub's API in one run."
    )
    assert waits == []


@pytest.mark.parametrize(
    ("url", "shown"),
    [("not a url", "'not a url'"), ("ftp://x", "'ftp://x'"), ("http://", "'http://'"), ("https://:443/", "'https://:443/'"),
     ("http://x:99999", "'http://x:99999'"), ("https://api.github.com/?per_page=1", "'https://api.github.com/?per_page=1'"),
     ("https://a b/", "'https://a b/'"), ("https://me:pw@ghe.example/api/v3", "one with a user name or password (not shown)")],
)
def test_a_bad_api_url_is_one_sentence(pull_request: Path, github: GitHubStandIn, url: str, shown: str) -> None:
    result = post(pull_request, github, GITHUB_API_URL=url)
    assert result.returncode == 2
    assert result.stderr == (
        f"mockpolicy: error: GITHUB_API_URL must be the http or https URL of GitHub's API, "
        f"such as https://api.github.com, not {shown}.\n"
    )
    assert "pw" not in result.stderr


@pytest.mark.parametrize(
    ("status", "times", "message"),
    [(422, 1, "GitHub answered GET {pr} with 422: Validation Failed."),
     (502, 9, "GitHub did not answer GET {pr} after 5 tries (last: 502: Validation Failed)."),
     (403, 1, "GitHub refused GET {pr} (403: Validation Failed). Printing")],
)
def test_an_error_answer_cut_short_is_one_sentence(
    pull_request: Path, github: GitHubStandIn, status: int, times: int, message: str
) -> None:
    """An error's body that ends before its Content-Length: what came is the message."""
    pr = f"{REPO_PATH}/pulls/7"
    retry_now = {"Retry-After": "0"} if status >= 500 else {}
    github.faults.append(Fault("GET", pr, status, "Validation Failed", retry_now, times=times, cut_short=True))
    result = post(pull_request, github)
    assert message.format(pr=pr) in result.stderr
    assert result.stderr.count("\n") == 1
    assert result.returncode == (1 if status == 403 else 2)


def test_a_success_cut_short_is_tried_again(github: GitHubStandIn) -> None:
    pr = f"{REPO_PATH}/pulls/7"
    github.faults.append(Fault("GET", pr, 200, "half", cut_short=True))
    assert GitHub(github.url, TOKEN, sleep=lambda _: None).request("GET", pr).data == {"number": 7, "head": {"sha": ""}}
    assert len(github.requests("GET", pr)) == 2


@pytest.mark.parametrize("status", [200, 422])
def test_json_nested_too_deep_is_one_sentence(github: GitHubStandIn, status: int) -> None:
    pr = f"{REPO_PATH}/pulls/7"
    github.faults.append(Fault("GET", pr, status, "", raw="[" * 100_000))
    with pytest.raises(GitHubError) as raised:
        GitHub(github.url, TOKEN).request("GET", pr)
    if status == 200:
        assert str(raised.value) == f"GitHub answered GET {pr} with something that is not JSON."
    else:
        assert str(raised.value) == f"GitHub answered GET {pr} with 422: {'[' * 300}."


def test_suggestions_land_on_the_line_github_numbers(pull_request: Path, github: GitHubStandIn) -> None:
    """Python and GitHub break lines at LF (and CRLF) only: a form feed, a
    Unicode line separator or the like is inside a line, not a line break."""
    with (pull_request / "tests/test_jobs.py").open("a", encoding="utf-8", newline="") as handle:
        handle.write(
            "\f\n\n"
            "def test_separators():\n"
            "    # \f \x0b \x1c \x1d \x1e \x85 \u2028 \u2029 are not line breaks\r\n"
            "    with mock.patch(\"app.jobs.run\"):\n"
            "        pass\n"
        )
    git(pull_request, "commit", "-qam", "separators")
    github.head = git(pull_request, "rev-parse", "HEAD").strip()
    text = (pull_request / "tests/test_jobs.py").read_bytes().decode()
    line = text.split("\n").index('    with mock.patch("app.jobs.run"):') + 1
    assert post(pull_request, github).returncode == 1
    [comment] = [c for c in github.comments if c["body"].startswith("**mockpolicy: `unspecced-mock`") and c["line"] != ADDED_LINE]
    assert comment["line"] == line
    assert '```suggestion\n    with mock.patch("app.jobs.run", autospec=True):\n```' in comment["body"]


def test_a_lone_carriage_return_is_not_a_line_break_on_github(pull_request: Path, github: GitHubStandIn) -> None:
    """Python breaks lines at a lone CR too, GitHub does not: a comment goes on
    GitHub's line, and a line that Python sees split gets no suggestion."""
    source = (pull_request / "tests/test_jobs.py").read_text()
    # At the top, in a line the change does not touch (a change whose hunks hold a lone CR cannot be reviewed).
    (pull_request / "tests/test_jobs.py").write_bytes(source.replace("from unittest import mock\n", "from unittest import mock\r# x\n", 1).encode())
    git(pull_request, "commit", "-qam", "a lone CR, far above")
    git(pull_request, "branch", "-f", "main", "HEAD")  # the CR is in the base; the change adds a mock below
    commit_change(pull_request, """

    def test_more():
        with mock.patch("app.jobs.run"):
            pass
    """)
    github.head = git(pull_request, "rev-parse", "HEAD").strip()
    lines = (pull_request / "tests/test_jobs.py").read_bytes().decode().split("\n")
    assert post(pull_request, github, "--filter", "diff_context").returncode == 1
    placed = sorted((c["line"], "```suggestion" in c["body"]) for c in github.comments if "unspecced-mock" in c["body"])
    github_lines = [n for n, text in enumerate(lines, start=1) if text.startswith("    with mock.patch(")]
    assert placed == [(n, True) for n in github_lines]


def test_python_and_github_line_numbers(tmp_path: Path) -> None:
    (tmp_path / "f.py").write_bytes("a\r\nb\rc\n\fd\u2028e\x85\x1c\nf\r".encode())
    sources = Sources(tmp_path)
    assert sources.lines("f.py") == ["a", "b", "c", "\fd\u2028e\x85\x1c", "f"]
    assert [sources.github_line("f.py", n) for n in range(1, 6)] == [(1, "a"), (2, None), (2, None), (3, "\fd\u2028e\x85\x1c"), (4, None)]
    assert sources.github_line("missing.py", 3) == (3, None)
    (tmp_path / "latin.py").write_bytes(b"# -*- coding: latin-1 -*-\nx = 'caf\xe9'\n")
    assert [sources.github_line("latin.py", n) for n in (1, 2)] == [(1, "# -*- coding: latin-1 -*-"), (2, None)]


@pytest.mark.parametrize(
    ("base", "problem"),
    [("/\u00e4", "/\u00e4/repos/octo/shop/pulls/7/comments"), ("/a b", "/a b/repos/octo/shop/pulls/7/comments"),
     ("/a\x1b", "/a\\x1b/repos/octo/shop/pulls/7/comments")],
)
def test_a_link_http_cannot_carry_is_one_sentence(pull_request: Path, github: GitHubStandIn, base: str, problem: str) -> None:
    for n in range(3):
        github.add_comment(f"comment {n}")
    github.link_base = github.url + base  # the API's own host, a path no request line can hold
    result = post(pull_request, github)
    assert result.returncode == 2
    assert result.stderr == f"mockpolicy: error: GitHub led GET {problem} to a URL that HTTP cannot carry.\n"


def test_a_repository_name_that_is_not_ascii_is_one_sentence(pull_request: Path, github: GitHubStandIn) -> None:
    result = post(pull_request, github, GITHUB_REPOSITORY="\u00f6/shop")
    assert result.returncode == 2
    assert result.stderr == "mockpolicy: error: GITHUB_REPOSITORY must be 'owner/name', got '\u00f6/shop'.\n"
    assert github.received == []
