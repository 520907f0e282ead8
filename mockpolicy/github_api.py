"""A small client for GitHub's REST API (stdlib ``urllib``), the one place that
speaks HTTP.

Requests send the token as a header and never echo it: every message the
client builds has it replaced by ``***`` (before GitHub's own message is cut
to ``_QUOTED`` characters, so no part of it survives a cut), and a token that
is not printable ASCII without spaces is refused unseen before any request.

Server errors (5xx), dropped connections and rate limits are retried; a ``Retry-After`` (or, for the
primary limit, ``X-RateLimit-Reset``) is honoured, other retries back off
exponentially, and no run waits more than ``max_wait`` seconds in total. A
403 that is not a rate limit raises ``Forbidden`` (a fork's read-only token).

Time: one client is one run's use of the API, and it has ``budget`` seconds
for all of it, requests and waits together. Each request may go ``timeout``
seconds without a byte from the server (less when less of the budget is
left), and a watchdog shuts a connection still open when the budget runs out,
so a server that drips bytes holds no request longer either. Lists are read
up to ``max_pages`` pages; a longer one is an error.

The token goes to the API's own origin (scheme, host and port of ``api_url``)
and nowhere else: redirects there are followed (301, 302, 307 and 308 keep
the method and body, 303 becomes a GET), at most ``_REDIRECTS`` in a row, and a
redirect or a pagination link to another origin is an error, not followed.
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from email.message import Message
from typing import Any

from mockpolicy.errors import MockpolicyError
from mockpolicy.version import __version__

PUBLIC_API = "https://api.github.com"
_NEXT_LINK = re.compile(r'<([^>]+)>\s*;\s*rel="next"')
_REDIRECTS = 5  # in a row, for one request
_PER_PAGE = 100  # GitHub's largest page
_QUOTED = 300  # characters of GitHub's message (or of a network error) quoted in an error
_VISIBLE_ASCII = re.compile(r"[!-~]+")  # what a header or a request line can carry verbatim
_DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(url: str) -> tuple[str, str, int | None]:
    """Scheme, host and port of ``url``, the port filled in when it is the scheme's default."""
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port
    except ValueError:  # not a number, or out of range
        port = -1
    return scheme, (parts.hostname or "").lower(), port if port is not None else _DEFAULT_PORTS.get(scheme)


def _checked_api_url(url: str) -> str:
    """``url`` without a trailing slash, when it can be the API's base URL."""
    parts = urllib.parse.urlsplit(url)
    credentials = "@" in parts.netloc
    scheme, host, port = _origin(url)
    if (
        scheme not in ("http", "https") or not host or port == -1 or credentials
        or parts.query or parts.fragment or not _VISIBLE_ASCII.fullmatch(url)
    ):
        shown = "one with a user name or password (not shown)" if credentials else f"'{url}'"
        raise GitHubError(f"GITHUB_API_URL must be the http or https URL of GitHub's API, such as {PUBLIC_API}, not {shown}.")
    return url.rstrip("/")


def _host(url: str) -> str:
    """``url``'s host and port, without any user name or password."""
    parts = urllib.parse.urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    return (parts.hostname or "") + (f":{port}" if port is not None else "")


def _shown_origin(url: str) -> str:
    return f"{urllib.parse.urlsplit(url).scheme}://{_host(url)}"


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """Hands every redirect back to ``GitHub.request`` (as an ``HTTPError``),
    which decides where the token may go."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _opener(connections: list[http.client.HTTPConnection]) -> urllib.request.OpenerDirector:
    """An opener that follows no redirect and adds each connection it opens to
    ``connections`` (for the watchdog); proxies from the environment still apply."""

    def tracked(kind: type[http.client.HTTPConnection]) -> Any:
        def connect(*args: Any, **kwargs: Any) -> http.client.HTTPConnection:
            connection = kind(*args, **kwargs)
            connections.append(connection)
            return connection

        return connect

    class Plain(urllib.request.HTTPHandler):
        def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(tracked(http.client.HTTPConnection), req)

    class Secure(urllib.request.HTTPSHandler):
        def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(tracked(http.client.HTTPSConnection), req)

    return urllib.request.build_opener(_NoRedirects, Plain, Secure)


def _shut(connections: list[http.client.HTTPConnection], fired: threading.Event) -> None:
    """End every read or write on ``connections`` now (from another thread),
    setting ``fired`` first: what was read by then may look complete but is not."""
    fired.set()
    for connection in connections:
        sock = connection.sock
        if sock is not None:
            try:  # socket.socket's own shutdown: an SSLSocket's would drop its TLS state under the reader
                socket.socket.shutdown(sock, socket.SHUT_RDWR)
            except OSError:
                pass


def _seconds(value: str | None) -> float | None:
    """A header's whole number of seconds (or epoch seconds), or None."""
    if value is None or not value.strip().isdigit():
        return None
    return float(value.strip())


class GitHubError(MockpolicyError):
    """A request to GitHub failed for good; the message is one sentence, and
    ``status`` the HTTP status GitHub answered with, when it answered."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class Forbidden(GitHubError):
    """GitHub refused the request (403) and it is not a rate limit."""


@dataclass(frozen=True)
class Response:
    status: int
    headers: Message
    data: Any


def _error_body(error: urllib.error.HTTPError) -> bytes:
    """The body of an error answer, or as much of it as came: the status
    decides what happens, the body only gives the message."""
    try:
        return error.read()
    except http.client.IncompleteRead as cut:
        return cut.partial
    except (OSError, http.client.HTTPException):
        return b""


def _json(raw: bytes) -> Any:
    """``raw`` decoded; ``ValueError`` for anything that is not JSON mockpolicy can read."""
    try:
        return json.loads(raw)
    except RecursionError:  # nested deeper than the interpreter's stack
        raise ValueError("JSON nested too deep") from None


class GitHub:
    """Requests to ``api_url`` with ``token``; ``sleep`` is the wait between tries.
    The budget starts when the client is made."""

    def __init__(
        self,
        api_url: str,
        token: str,
        *,
        attempts: int = 5,
        max_wait: float = 60.0,
        backoff: float = 0.25,
        timeout: float = 30.0,
        budget: float = 120.0,
        max_pages: int = 100,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not _VISIBLE_ASCII.fullmatch(token):
            raise GitHubError(
                "GITHUB_TOKEN is not a token mockpolicy can send: "
                "it must be printable ASCII without spaces or line breaks (its value is not shown)."
            )
        self.api_url = _checked_api_url(api_url)
        self._token = token
        self.attempts = attempts
        self.max_wait = max_wait
        self.backoff = backoff
        self.timeout = timeout
        self.budget = budget
        self.max_pages = max_pages
        self._sleep = sleep
        self._deadline = time.monotonic() + budget
        self.waited = 0.0

    def _left(self) -> float:
        """Seconds left of the budget."""
        return self._deadline - time.monotonic()

    def _hide(self, text: str) -> str:
        return text.replace(self._token, "***") if self._token else text

    def _ours(self, url: str) -> bool:
        return _origin(url) == _origin(self.api_url)

    def _url(self, path_or_url: str) -> str:
        if path_or_url.startswith(("http://", "https://")):
            if not self._ours(path_or_url):
                raise GitHubError(f"GitHub sent a link to another host ({_host(path_or_url)}); it is not followed with the token.")
            return path_or_url
        return self.api_url + path_or_url

    def _redirect(self, what: str, url: str, status: int, headers: Message, redirects: int) -> str:
        """Where a redirect from ``url`` leads, when the token may go there."""
        location = headers.get("Location")
        if not location:
            raise GitHubError(f"GitHub answered {what} with {status} but said nowhere to go.")
        target = urllib.parse.urljoin(url, location.strip())
        if not self._ours(target):
            raise GitHubError(
                f"GitHub redirected {what} to another host ({_shown_origin(target)}); "
                f"the token goes to {_shown_origin(self.api_url)} only, so mockpolicy does not follow."
            )
        if redirects >= _REDIRECTS:
            raise GitHubError(f"GitHub redirected {what} more than {_REDIRECTS} times.")
        return target

    def request(self, method: str, path_or_url: str, body: object | None = None) -> Response:
        """One API call, retried and redirected as the module says; returns the decoded JSON."""
        try:
            url = self._url(path_or_url)
            return self._request(f"{method} {urllib.parse.urlsplit(url).path}", method, url, body)
        except GitHubError as error:  # whatever the message quotes (a path, a host), never the token
            raise type(error)(self._hide(str(error)), error.status) from None

    def _out_of_time(self, what: str) -> GitHubError:
        return GitHubError(f"mockpolicy's time for GitHub's API in one run ({self.budget:g} s) ran out during {what}.")

    def _exchange(self, what: str, method: str, url: str, payload: bytes | None) -> tuple[int, Message, bytes]:
        """One HTTP request within the budget: the status, headers and body of
        any answer. A network failure raises ``OSError`` or ``HTTPException``
        (worth another try); a spent budget or a URL HTTP cannot carry, ``GitHubError``."""
        left = self._left()
        if left <= 0:
            raise self._out_of_time(what)
        request = urllib.request.Request(url, data=payload, method=method, headers={
            "Accept": "application/vnd.github+json",
            "Authorization": f"Bearer {self._token}",
            "X-GitHub-Api-Version": "2022-11-28",
            "User-Agent": f"mockpolicy/{__version__}",
            **({"Content-Type": "application/json"} if payload is not None else {}),
        })
        connections: list[http.client.HTTPConnection] = []
        fired = threading.Event()
        watchdog = threading.Timer(left, _shut, (connections, fired))
        watchdog.daemon = True
        watchdog.start()
        try:
            try:
                with _opener(connections).open(request, timeout=min(self.timeout, left)) as answer:
                    answered = answer.status, answer.headers, answer.read()
            except urllib.error.HTTPError as error:
                answered = error.code, error.headers, _error_body(error)
            except (ValueError, http.client.InvalidURL):  # UnicodeEncodeError too; the caller's paths are ASCII
                if fired.is_set():
                    raise self._out_of_time(what) from None
                raise GitHubError(f"GitHub led {what} to a URL that HTTP cannot carry.") from None
            except (OSError, http.client.HTTPException):
                if fired.is_set() or self._left() <= 0:
                    raise self._out_of_time(what) from None
                raise
        finally:
            watchdog.cancel()
        if fired.is_set():  # cut off by the watchdog: an answer cut short can look whole
            raise self._out_of_time(what)
        return answered

    def _request(self, what: str, method: str, url: str, body: object | None) -> Response:
        payload = json.dumps(body).encode("utf-8") if body is not None else None
        attempt = redirects = 0
        while attempt < self.attempts:
            attempt += 1
            try:
                status, headers, raw = self._exchange(what, method, url, payload)
            except (OSError, http.client.HTTPException) as error:  # URLError, timeouts, dropped connections
                reason = getattr(error, "reason", error)
                problem = self._quote(str(reason)) or type(reason).__name__
                wait = self.backoff * 2 ** (attempt - 1)
            else:
                if 200 <= status < 300:
                    try:
                        return Response(status, headers, _json(raw) if raw.strip() else None)
                    except ValueError:
                        raise GitHubError(f"GitHub answered {what} with something that is not JSON.") from None
                message = self._message(raw)
                if status in (301, 302, 303, 307, 308):
                    url = self._redirect(what, url, status, headers, redirects)
                    redirects += 1
                    attempt -= 1  # a redirect is not a failed try
                    if status == 303:
                        method, payload = "GET", None
                    continue
                wait = self._wait_for(status, headers, message, attempt)
                if wait is None:
                    if status == 403:
                        raise Forbidden(f"GitHub refused {what} (403: {message}).", status)
                    raise GitHubError(f"GitHub answered {what} with {status}: {message}.", status)
                problem = f"{status}: {message}"
            if attempt == self.attempts:
                raise GitHubError(f"GitHub did not answer {what} after {attempt} tries (last: {problem}).")
            if self.waited + wait > self.max_wait:
                raise GitHubError(
                    f"GitHub asked to wait {wait:.0f} s before retrying {what} ({problem}), "
                    f"more than mockpolicy waits in one run ({self.max_wait:.0f} s)."
                )
            if wait > 0 and wait >= self._left():  # with no wait, the next try says the time is up
                raise GitHubError(
                    f"GitHub asked to wait {wait:.0f} s before retrying {what} ({problem}), "
                    f"more than is left of mockpolicy's {self.budget:g} s for GitHub's API in one run."
                )
            self.waited += wait
            self._sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover - the last try returns or raises

    def _message(self, raw: bytes) -> str:
        try:
            data = _json(raw)
            text = str(data.get("message", "")) if isinstance(data, dict) else ""
        except ValueError:
            text = raw.decode("utf-8", "replace")
        return self._quote(text).rstrip(".") or "no message"

    def _quote(self, text: str) -> str:
        """``text`` on one line, the token masked, then cut to ``_QUOTED`` characters."""
        return self._hide(" ".join(text.split()))[:_QUOTED]

    def _wait_for(self, status: int, headers: Message, message: str, attempt: int) -> float | None:
        """Seconds to wait before retrying, or None when the failure is final."""
        retry_after = _seconds(headers.get("Retry-After"))
        if status >= 500:
            return retry_after if retry_after is not None else self.backoff * 2 ** (attempt - 1)
        if status not in (403, 429):
            return None
        if retry_after is not None:
            return retry_after
        reset = _seconds(headers.get("X-RateLimit-Reset"))
        if headers.get("X-RateLimit-Remaining") == "0" and reset is not None:
            return max(0.0, reset - time.time())
        if status == 429 or "secondary rate limit" in message.lower():
            return 60.0  # GitHub's advice when it names no time: wait at least a minute
        return None

    def pages(self, path: str) -> Iterator[Any]:
        """The items of a paginated list, following ``Link: rel="next"`` for at
        most ``max_pages`` pages."""
        url = self._url(path + ("&" if "?" in path else "?") + f"per_page={_PER_PAGE}")
        for _ in range(self.max_pages):
            response = self.request("GET", url)
            if not isinstance(response.data, list):
                raise GitHubError(f"GitHub answered GET {path} with something other than a list.")
            yield from response.data
            found = _NEXT_LINK.search(response.headers.get("Link") or "")
            if not found:
                return
            url = urllib.parse.urljoin(url, found.group(1))
        raise GitHubError(
            f"GitHub's list GET {path} goes on past {self.max_pages} pages, "
            f"more than mockpolicy reads ({self.max_pages} pages of {_PER_PAGE} items)."
        )
