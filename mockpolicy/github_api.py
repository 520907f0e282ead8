"""A small client for GitHub's REST API (stdlib ``urllib``), the one place that
speaks HTTP.

Requests send the token as a header and never echo it: every message built
from a response has it replaced by ``***``. Server errors (5xx), dropped
connections and rate limits are retried; a ``Retry-After`` (or, for the
primary limit, ``X-RateLimit-Reset``) is honoured, other retries back off
exponentially, and no run waits more than ``max_wait`` seconds in total. A
403 that is not a rate limit raises ``Forbidden`` (a fork's read-only token).
"""

from __future__ import annotations

import http.client
import json
import re
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


def _seconds(value: str | None) -> float | None:
    """A header's whole number of seconds (or epoch seconds), or None."""
    if value is None or not value.strip().isdigit():
        return None
    return float(value.strip())


class GitHubError(MockpolicyError):
    """A request to GitHub failed for good; the message is one sentence."""


class Forbidden(GitHubError):
    """GitHub refused the request (403) and it is not a rate limit."""


@dataclass(frozen=True)
class Response:
    status: int
    headers: Message
    data: Any


class GitHub:
    """Requests to ``api_url`` with ``token``; ``sleep`` is the wait between tries."""

    def __init__(
        self,
        api_url: str,
        token: str,
        *,
        attempts: int = 5,
        max_wait: float = 60.0,
        backoff: float = 0.25,
        timeout: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.api_url = api_url.rstrip("/")
        self._token = token
        self.attempts = attempts
        self.max_wait = max_wait
        self.backoff = backoff
        self.timeout = timeout
        self._sleep = sleep
        self.waited = 0.0

    def _hide(self, text: str) -> str:
        return text.replace(self._token, "***") if self._token else text

    def _url(self, path_or_url: str) -> str:
        if path_or_url.startswith(("http://", "https://")):
            ours = urllib.parse.urlsplit(self.api_url)
            theirs = urllib.parse.urlsplit(path_or_url)
            if (theirs.scheme, theirs.netloc) != (ours.scheme, ours.netloc):
                raise GitHubError(f"GitHub sent a link to another host ({theirs.netloc}); it is not followed with the token.")
            return path_or_url
        return self.api_url + path_or_url

    def request(self, method: str, path_or_url: str, body: object | None = None) -> Response:
        """One API call, retried as the module says; returns the decoded JSON."""
        url = self._url(path_or_url)
        payload = json.dumps(body).encode("utf-8") if body is not None else None
        what = f"{method} {urllib.parse.urlsplit(url).path}"
        for attempt in range(1, self.attempts + 1):
            request = urllib.request.Request(url, data=payload, method=method, headers={
                "Accept": "application/vnd.github+json",
                "Authorization": f"Bearer {self._token}",
                "X-GitHub-Api-Version": "2022-11-28",
                "User-Agent": f"mockpolicy/{__version__}",
                **({"Content-Type": "application/json"} if payload is not None else {}),
            })
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as answer:  # noqa: S310 - the URL is the API's
                    raw = answer.read()
                    status, headers = answer.status, answer.headers
            except urllib.error.HTTPError as error:
                status, headers = error.code, error.headers
                message = self._message(error.read())
                wait = self._wait_for(status, headers, message, attempt)
                if wait is None:
                    if status == 403:
                        raise Forbidden(f"GitHub refused {what} (403: {message}).") from None
                    raise GitHubError(f"GitHub answered {what} with {status}: {message}.") from None
                problem = f"{status}: {message}"
            except (OSError, http.client.HTTPException) as error:  # URLError, timeouts, dropped connections
                reason = getattr(error, "reason", error)
                problem = self._hide(str(reason) or type(reason).__name__)
                wait = self.backoff * 2 ** (attempt - 1)
            else:
                try:
                    return Response(status, headers, json.loads(raw) if raw.strip() else None)
                except ValueError:
                    raise GitHubError(f"GitHub answered {what} with something that is not JSON.") from None
            if attempt == self.attempts:
                raise GitHubError(f"GitHub did not answer {what} after {attempt} tries (last: {problem}).")
            if self.waited + wait > self.max_wait:
                raise GitHubError(
                    f"GitHub asked to wait {wait:.0f} s before retrying {what} ({problem}), "
                    f"more than mockpolicy waits in one run ({self.max_wait:.0f} s)."
                )
            self.waited += wait
            self._sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover

    def _message(self, raw: bytes) -> str:
        try:
            data = json.loads(raw)
            text = str(data.get("message", "")) if isinstance(data, dict) else ""
        except ValueError:
            text = raw.decode("utf-8", "replace")
        text = " ".join(text.split())[:300].rstrip(".")
        return self._hide(text) or "no message"

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
        """The items of a paginated list, following ``Link: rel="next"``."""
        url: str | None = path + ("&" if "?" in path else "?") + "per_page=100"
        while url:
            response = self.request("GET", url)
            if not isinstance(response.data, list):
                raise GitHubError(f"GitHub answered GET {path} with something other than a list.")
            yield from response.data
            found = _NEXT_LINK.search(response.headers.get("Link") or "")
            url = found.group(1) if found else None
