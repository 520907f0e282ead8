"""The baseline file: findings a project has grandfathered, which may only shrink.

    {
      "format": 1,
      "entries": [
        {"rule": "first-party-mock", "path": "tests/test_jobs.py", "scope": "TestJobs.test_claim",
         "fingerprint": "0f3c...", "count": 1, "excerpt": "mock.patch(\\"app.jobs.Runner.claim\\")"}
      ]
    }

Entries are sorted by (path, scope, rule, fingerprint) and written with sorted
keys, two-space indents and a final newline, so the file is byte-identical for
the same findings and diffs one entry per hunk. An entry's identity is
``mockpolicy.identity.Identity``; ``count`` is how many identical statements in
that scope are allowed. ``excerpt`` is for reviewers and is never matched.

A file that is not valid is never used in part and never overwritten: every
reader raises ``BaselineError`` naming the file and the problem.
"""

from __future__ import annotations

import fcntl
import glob
import json
import os
import stat
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from mockpolicy.errors import MockpolicyError
from mockpolicy.findings import Finding
from mockpolicy.identity import Identity, count_identities, excerpt, identify
from mockpolicy.rules import ANALYSIS_ERROR, BASELINE_GREW

# Format versions:
#   1 (mockpolicy 0.1): rule, path, scope, fingerprint, count, excerpt.
FORMAT = 1
# A file that cannot be read, and the baseline's own growth, are never grandfathered.
NEVER_BASELINED = frozenset({ANALYSIS_ERROR.symbol, BASELINE_GREW.symbol})
_FIELDS = {"rule": str, "path": str, "scope": str, "fingerprint": str, "count": int, "excerpt": str}


class BaselineError(MockpolicyError):
    """The baseline file is unreadable or invalid; the message names it."""


@dataclass(frozen=True)
class Baseline:
    """Allowed counts per identity, with an excerpt for each."""

    counts: Mapping[Identity, int]
    excerpts: Mapping[Identity, str]

    @classmethod
    def empty(cls) -> Baseline:
        return cls({}, {})


def exists(path: Path) -> bool:
    """Whether there is a baseline file at ``path``; raises ``BaselineError``
    when the path cannot even be looked at (a name too long, a NUL byte)."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return False
    except (OSError, ValueError) as exc:
        raise BaselineError(f"{path!s:.200}: cannot be read ({exc.strerror if isinstance(exc, OSError) else exc}).") from None
    return True


def load_or_empty(path: Path) -> Baseline:
    """The baseline at ``path``, or an empty one when there is no file there."""
    return load(path) if exists(path) else Baseline.empty()


def load(path: Path) -> Baseline:
    """The baseline at ``path``; raises ``BaselineError`` if it is missing or invalid."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BaselineError(f"{path}: no such baseline file (create it with `mockpolicy baseline`).") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise BaselineError(f"{path!s:.200}: cannot be read ({exc}).") from None
    return parse(text, str(path))


def parse(text: str, name: str) -> Baseline:
    """A baseline from the text of a baseline file called ``name`` (for messages)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BaselineError(f"{name}: not valid JSON (line {exc.lineno}: {exc.msg}).") from None
    except ValueError:  # an integer too long to convert
        raise BaselineError(f"{name}: not usable JSON (an integer too long to read).") from None
    except RecursionError:
        raise BaselineError(f"{name}: not usable JSON (nested too deeply).") from None
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        raise BaselineError(f"{name}: not a mockpolicy baseline (expected an object with an 'entries' list).")
    if type(data.get("format")) is not int or data.get("format") != FORMAT:
        raise BaselineError(f"{name}: unsupported baseline format {data.get('format')!r} (this mockpolicy reads {FORMAT}).")
    counts: dict[Identity, int] = {}
    excerpts: dict[Identity, str] = {}
    for number, entry in enumerate(data["entries"], start=1):
        if not isinstance(entry, dict):
            raise BaselineError(f"{name}: entry {number} is not an object.")
        for field, kind in _FIELDS.items():
            value = entry.get(field)
            if not isinstance(value, kind) or isinstance(value, bool):
                raise BaselineError(f"{name}: entry {number} has no valid '{field}' ({kind.__name__} expected).")
            if isinstance(value, str) and not _encodable(value):
                raise BaselineError(f"{name}: entry {number} has a '{field}' that is not valid Unicode.")
        if entry["count"] < 1:
            raise BaselineError(f"{name}: entry {number} has a count below 1.")
        identity = Identity(entry["rule"], entry["path"], entry["scope"], entry["fingerprint"])
        if identity in counts:
            raise BaselineError(f"{name}: entry {number} repeats an earlier entry.")
        counts[identity] = entry["count"]
        excerpts[identity] = entry["excerpt"]
    return Baseline(counts, excerpts)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate, written as "\\ud800" in JSON
        return False
    return True


def render(baseline: Baseline) -> str:
    """The file text of ``baseline``: sorted, deterministic, newline-terminated."""
    entries = [
        {
            "rule": identity.rule,
            "path": identity.path,
            "scope": identity.scope,
            "fingerprint": identity.fingerprint,
            "count": count,
            "excerpt": baseline.excerpts.get(identity, ""),
        }
        for identity, count in sorted(
            baseline.counts.items(), key=lambda item: (item[0].path, item[0].scope, item[0].rule, item[0].fingerprint)
        )
    ]
    return json.dumps({"format": FORMAT, "entries": entries}, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write(path: Path, baseline: Baseline) -> None:
    """Write atomically: a temporary file created exclusively in the same folder,
    then a rename, so an interrupted write leaves the previous file whole. The
    file keeps the mode of the one it replaces (new files: 0644 less the umask),
    so other users and CI containers can read it. Raises ``BaselineError`` when
    the folder cannot be written."""
    text = render(baseline)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = _mode_for(path)
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise BaselineError(f"{path}: cannot be written ({exc.strerror or exc}).") from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fchmod(stream.fileno(), mode)
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise BaselineError(f"{path}: cannot be written ({exc.strerror or exc}).") from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _mode_for(path: Path) -> int:
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o644 & ~umask


LOCK_TIMEOUT = 60.0


@contextmanager
def locked(path: Path, timeout: float = LOCK_TIMEOUT) -> Iterator[None]:
    """Hold the baseline at ``path`` for one read-change-write: a second writer
    waits (up to ``timeout`` seconds, then ``BaselineError``) and then reads what
    the first wrote, so no result is silently lost. Temporary files that killed
    writers left behind are removed while the lock is held. The lock is on the
    baseline's folder, so no lock file is left in the repository."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise BaselineError(f"{path}: its folder cannot be used ({exc.strerror}).") from None
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise BaselineError(
                        f"{path}: another mockpolicy run has been writing it for {timeout:.0f} s; try again when it ends."
                    ) from None
                time.sleep(0.05)
        for leftover in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
            leftover.unlink(missing_ok=True)
        yield
    finally:
        os.close(descriptor)  # releases the lock


def from_findings(findings: Iterable[Finding]) -> Baseline:
    """A baseline allowing exactly ``findings`` (paths relative to the project root)."""
    kept = [f for f in findings if f.symbol not in NEVER_BASELINED]
    excerpts: dict[Identity, str] = {}
    for finding in kept:
        excerpts.setdefault(identify(finding), excerpt(finding.statement))
    return Baseline(dict(count_identities(kept)), excerpts)


def grown(old: Baseline, new: Baseline) -> list[tuple[Identity, int, int]]:
    """Entries of ``new`` that allow more than ``old`` does: (identity, old count, new count)."""
    return sorted(
        (identity, old.counts.get(identity, 0), count)
        for identity, count in new.counts.items()
        if count > old.counts.get(identity, 0)
    )


def shrink(baseline: Baseline, current: Counter[Identity], covered: Iterable[str]) -> tuple[Baseline, list[tuple[Identity, int, int]]]:
    """``baseline`` lowered to what ``current`` still needs, for entries whose path
    is in ``covered``; never adds. Returns the new baseline and what changed
    as (identity, old count, new count)."""
    paths = set(covered)
    counts: dict[Identity, int] = {}
    changed: list[tuple[Identity, int, int]] = []
    for identity, allowed in baseline.counts.items():
        keep = min(allowed, current.get(identity, 0)) if identity.path in paths else allowed
        if keep != allowed:
            changed.append((identity, allowed, keep))
        if keep:
            counts[identity] = keep
    excerpts = {identity: baseline.excerpts[identity] for identity in counts}
    return Baseline(counts, excerpts), sorted(changed)


def select(baseline: Baseline, rules: frozenset[str], keep: bool = True) -> Baseline:
    """The entries of ``baseline`` whose rule is in ``rules`` (or, with ``keep=False``, is not)."""
    return where(baseline, lambda identity: (identity.rule in rules) == keep)


def where(baseline: Baseline, keep: Callable[[Identity], bool]) -> Baseline:
    """The entries of ``baseline`` whose identity ``keep`` accepts."""
    counts = {i: c for i, c in baseline.counts.items() if keep(i)}
    return Baseline(counts, {i: baseline.excerpts[i] for i in counts if i in baseline.excerpts})


def merge(first: Baseline, second: Baseline) -> Baseline:
    """Entries of both (``second``'s count wins for an identity in both)."""
    return Baseline({**first.counts, **second.counts}, {**first.excerpts, **second.excerpts})


def compare(
    baseline: Baseline, findings: Iterable[Finding], covers: Callable[[str], bool]
) -> tuple[list[Finding], list[tuple[Identity, int, int]]]:
    """Split ``findings`` (in source order, paths relative) against ``baseline``.

    Returns the findings it does not allow - for an identity allowed N times,
    the occurrences after the first N - and its stale entries: those whose path
    ``covers`` accepts and that match fewer findings than they allow, as
    (identity, allowed, found). ``mock-analysis-error`` is never allowed.
    """
    seen: Counter[Identity] = Counter()
    new: list[Finding] = []
    for finding in findings:
        if finding.symbol in NEVER_BASELINED:
            new.append(finding)
            continue
        identity = identify(finding)
        seen[identity] += 1
        if seen[identity] > baseline.counts.get(identity, 0):
            new.append(finding)
    stale = sorted(
        (identity, allowed, seen[identity])
        for identity, allowed in baseline.counts.items()
        if seen[identity] < allowed and covers(identity.path)
    )
    return new, stale


def not_allowed(baseline: Baseline, findings: list[Finding], relative: Callable[[str], str]) -> list[Finding]:
    """``findings`` of one file minus what ``baseline`` allows, matched on
    their paths made relative by ``relative``; the findings keep their paths."""
    if not baseline.counts or not findings:
        return findings
    shown = [replace(finding, path=relative(finding.path)) for finding in findings]
    kept, _ = compare(baseline, shown, lambda path: False)
    keep = {id(finding) for finding in kept}
    return [original for original, seen in zip(findings, shown) if id(seen) in keep]


def entry_lines(text: str) -> dict[Identity, int]:
    """The 1-based line of each entry's ``count`` in a file laid out as ``render``
    writes it; entries in another layout are left out."""
    found: dict[Identity, int] = {}
    block: list[str] = []
    start = 0
    # Lines numbered as findings are (LF, CRLF, lone CR): str.splitlines would
    # also break at U+2028, U+0085 and the like, which JSON strings may hold raw.
    for number, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        if line == "    {":
            block, start = [line], number
            continue
        if not block:
            continue
        block.append(line)
        if line.rstrip(",") == "    }":
            try:
                entry = json.loads("\n".join(block).rstrip(","))
                identity = Identity(entry["rule"], entry["path"], entry["scope"], entry["fingerprint"])
            except (ValueError, KeyError, TypeError):
                block = []
                continue
            offset = next((i for i, text_line in enumerate(block) if text_line.lstrip().startswith('"count"')), 0)
            found[identity] = start + offset
            block = []
    return found
