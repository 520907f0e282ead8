"""The baseline file: findings a project has grandfathered, which may only shrink.

Format 2 (written since mockpolicy 0.2) groups entries by file and scope, one
line per offending statement::

    {
      "format": 2,
      "files": {
        "tests/test_jobs.py": {
          "TestJobs.test_claim": [
            ["5d4c0b9e2f1a", {"first-party-mock": 1, "unspecced-mock": 1}, "mock.patch(\"app.jobs.Runner.claim\")"]
          ]
        }
      }
    }

A line is ``[fingerprint, {rule: count}, excerpt]``: each rule with its count
is one entry, whose identity (``mockpolicy.identity.Identity``) is rule, path,
scope and fingerprint. Paths, scopes and lines are sorted and the text is the
same byte for byte for the same entries, so git merges changes to different
statements line by line, and a grown baseline shows in review as an added or
changed line. Path and scope are written once per group, and one line serves
every rule a statement breaks, which keeps a 30,000-entry file near 3 MB. The
excerpt (at most ``EXCERPT_WIDTH`` characters) is for reviewers and is never
matched.

Format 1 (mockpolicy 0.1) is still read: a flat list of objects with rule,
path, scope, fingerprint (of the statement's tokens), count and excerpt. Its
fingerprints keep the ``tokens:`` prefix (``identity.LEGACY``) and are matched
the old way; every file is written in format 2, and an entry is given its new
fingerprint when ``prune`` or ``baseline --force`` judges its file.

A file that is not valid is never used in part and never overwritten: every
reader raises ``BaselineError`` naming the file and the problem. Matching
findings against a baseline is ``mockpolicy.matching``'s business.
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
from typing import Any

from mockpolicy.errors import MockpolicyError
from mockpolicy.findings import Finding
from mockpolicy.identity import LEGACY, Identity, excerpt, identify
from mockpolicy.rules import ANALYSIS_ERROR, BASELINE_GREW

# Format versions:
#   1 (mockpolicy 0.1): a list of {rule, path, scope, fingerprint, count, excerpt}; token fingerprints.
#   2 (mockpolicy 0.2): files -> scopes -> [fingerprint, {rule: count}, excerpt]; syntax-tree fingerprints.
FORMAT = 2
READABLE = (1, 2)
EXCERPT_WIDTH = 72
# A file that cannot be read, and the baseline's own growth, are never grandfathered.
NEVER_BASELINED = frozenset({ANALYSIS_ERROR.symbol, BASELINE_GREW.symbol})
_FIELDS_V1 = {"rule": str, "path": str, "scope": str, "fingerprint": str, "count": int, "excerpt": str}


class BaselineError(MockpolicyError):
    """The baseline file is unreadable or invalid; the message names it."""


@dataclass(frozen=True)
class Baseline:
    """Allowed counts per identity, with an excerpt for each, and the format of
    the file it was read from."""

    counts: Mapping[Identity, int]
    excerpts: Mapping[Identity, str]
    format: int = FORMAT

    @classmethod
    def empty(cls) -> Baseline:
        return cls({}, {})

    @property
    def legacy(self) -> bool:
        """Whether any entry still has a format 1 fingerprint."""
        return any(identity.legacy for identity in self.counts)


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


class _RepeatedKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _RepeatedKey(key)
        found[key] = value
    return found


def parse(text: str, name: str) -> Baseline:
    """A baseline from the text of a baseline file called ``name`` (for messages)."""
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise BaselineError(f"{name}: not valid JSON (line {exc.lineno}: {exc.msg}).") from None
    except _RepeatedKey as exc:
        raise BaselineError(f"{name}: the key {exc.key[:100]!r} appears twice in one object.") from None
    except ValueError:  # an integer too long to convert
        raise BaselineError(f"{name}: not usable JSON (an integer too long to read).") from None
    except RecursionError:
        raise BaselineError(f"{name}: not usable JSON (nested too deeply).") from None
    if not isinstance(data, dict) or not ("entries" in data or "files" in data):
        raise BaselineError(f"{name}: not a mockpolicy baseline (expected an object with 'format' and 'files').")
    version = data.get("format")
    if type(version) is not int or version not in READABLE:
        readable = " and ".join(str(v) for v in READABLE)
        raise BaselineError(f"{name}: unsupported baseline format {version!r} (this mockpolicy reads {readable}).")
    return _parse_v1(data, name) if version == 1 else _parse_v2(data, name)


def _parse_v1(data: dict[str, Any], name: str) -> Baseline:
    if not isinstance(data.get("entries"), list):
        raise BaselineError(f"{name}: not a mockpolicy baseline (format 1 expects an 'entries' list).")
    counts: dict[Identity, int] = {}
    excerpts: dict[Identity, str] = {}
    for number, entry in enumerate(data["entries"], start=1):
        if not isinstance(entry, dict):
            raise BaselineError(f"{name}: entry {number} is not an object.")
        for field, kind in _FIELDS_V1.items():
            value = entry.get(field)
            if not isinstance(value, kind) or isinstance(value, bool):
                raise BaselineError(f"{name}: entry {number} has no valid '{field}' ({kind.__name__} expected).")
            if isinstance(value, str) and not _encodable(value):
                raise BaselineError(f"{name}: entry {number} has a '{field}' that is not valid Unicode.")
        if entry["count"] < 1:
            raise BaselineError(f"{name}: entry {number} has a count below 1.")
        identity = Identity(entry["rule"], entry["path"], entry["scope"], LEGACY + entry["fingerprint"])
        if identity in counts:
            raise BaselineError(f"{name}: entry {number} repeats an earlier entry.")
        counts[identity] = entry["count"]
        excerpts[identity] = entry["excerpt"]
    return Baseline(counts, excerpts, 1)


def _parse_v2(data: dict[str, Any], name: str) -> Baseline:
    files = data.get("files")
    if not isinstance(files, dict):
        raise BaselineError(f"{name}: not a mockpolicy baseline (format 2 expects a 'files' object).")
    counts: dict[Identity, int] = {}
    excerpts: dict[Identity, str] = {}
    number = 0
    for path, scopes in files.items():
        if not _encodable(path) or not isinstance(scopes, dict):
            raise BaselineError(f"{name}: the file {path[:200]!r} is not an object of scopes with valid names.")
        for scope, lines in scopes.items():
            if not _encodable(scope) or not isinstance(lines, list):
                raise BaselineError(f"{name}: the scope {scope[:200]!r} of {path[:200]!r} is not a list of entries.")
            for line in lines:
                number += 1
                fingerprint, rules, text = _line(line, f"{name}: entry {number} ({path[:200]!r}, {scope[:200]!r})")
                for rule, count in rules.items():
                    identity = Identity(rule, path, scope, fingerprint)
                    if identity in counts:
                        raise BaselineError(f"{name}: entry {number} repeats an earlier entry.")
                    counts[identity] = count
                    excerpts[identity] = text
    return Baseline(counts, excerpts, 2)


def _line(line: object, where: str) -> tuple[str, dict[str, int], str]:
    """A format 2 line's fingerprint, counts per rule and excerpt; ``where``
    starts the message of the ``BaselineError`` raised for a bad line."""
    if not isinstance(line, list) or len(line) != 3:
        raise BaselineError(f"{where} is not [fingerprint, {{rule: count}}, excerpt].")
    fingerprint, rules, text = line
    if not isinstance(fingerprint, str) or not fingerprint or not _encodable(fingerprint):
        raise BaselineError(f"{where} has no valid fingerprint.")
    if not isinstance(text, str) or not _encodable(text):
        raise BaselineError(f"{where} has no valid excerpt.")
    if not isinstance(rules, dict) or not rules:
        raise BaselineError(f"{where} has no rules with counts.")
    for rule, count in rules.items():
        if not rule or not _encodable(rule) or type(count) is not int:
            raise BaselineError(f"{where} has no valid count for {rule[:100]!r}.")
        if count < 1:
            raise BaselineError(f"{where} has a count below 1.")
    return fingerprint, rules, text


def _encodable(text: object) -> bool:
    if not isinstance(text, str):
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate, written as "\\ud800" in JSON
        return False
    return True


def render(baseline: Baseline) -> str:
    """The file text of ``baseline`` in format 2: sorted, deterministic, newline-terminated."""
    groups: dict[str, dict[str, dict[str, dict[str, int]]]] = {}
    for identity, count in baseline.counts.items():
        statements = groups.setdefault(identity.path, {}).setdefault(identity.scope, {})
        statements.setdefault(identity.fingerprint, {})[identity.rule] = count
    if not groups:
        return '{\n  "format": %d,\n  "files": {}\n}\n' % FORMAT
    out = ["{", f'  "format": {FORMAT},', '  "files": {']
    paths = sorted(groups)
    for path_number, path in enumerate(paths, start=1):
        out.append(f"    {_json(path)}: {{")
        scopes = sorted(groups[path])
        for scope_number, scope in enumerate(scopes, start=1):
            out.append(f"      {_json(scope)}: [")
            statements = groups[path][scope]
            fingerprints = sorted(statements)
            for number, fingerprint in enumerate(fingerprints, start=1):
                rules = dict(sorted(statements[fingerprint].items()))
                text = next(
                    (shown for rule in rules if (shown := baseline.excerpts.get(Identity(rule, path, scope, fingerprint)))),
                    "",
                )
                line = _json([fingerprint, rules, excerpt(text, EXCERPT_WIDTH)])
                out.append(f"        {line}{',' if number < len(fingerprints) else ''}")
            out.append(f"      ]{',' if scope_number < len(scopes) else ''}")
        out.append(f"    }}{',' if path_number < len(paths) else ''}")
    out.extend(["  }", "}"])
    return "\n".join(out) + "\n"


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


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
    counts: Counter[Identity] = Counter()
    excerpts: dict[Identity, str] = {}
    for finding in findings:
        if finding.symbol in NEVER_BASELINED:
            continue
        identity = identify(finding)
        counts[identity] += 1
        excerpts.setdefault(identity, excerpt(finding.statement, EXCERPT_WIDTH))
    return Baseline(dict(counts), excerpts)


def select(baseline: Baseline, rules: frozenset[str], keep: bool = True) -> Baseline:
    """The entries of ``baseline`` whose rule is in ``rules`` (or, with ``keep=False``, is not)."""
    return where(baseline, lambda identity: (identity.rule in rules) == keep)


def where(baseline: Baseline, keep: Callable[[Identity], bool]) -> Baseline:
    """The entries of ``baseline`` whose identity ``keep`` accepts."""
    counts = {i: c for i, c in baseline.counts.items() if keep(i)}
    return Baseline(counts, {i: baseline.excerpts[i] for i in counts if i in baseline.excerpts}, baseline.format)


def merge(first: Baseline, second: Baseline) -> Baseline:
    """Entries of both (``second``'s count wins for an identity in both)."""
    return Baseline({**first.counts, **second.counts}, {**first.excerpts, **second.excerpts}, min(first.format, second.format))


def mapped(baseline: Baseline, change: Callable[[Identity], Identity]) -> Baseline:
    """``baseline`` with each identity replaced by ``change(identity)``; entries
    that end up with one identity add their counts (so nothing is lost, and
    nothing is gained that was not allowed before)."""
    counts: Counter[Identity] = Counter()
    excerpts: dict[Identity, str] = {}
    for identity, count in sorted(baseline.counts.items()):
        new = change(identity)
        counts[new] += count
        excerpts.setdefault(new, baseline.excerpts.get(identity, ""))
    return Baseline(dict(counts), excerpts, baseline.format)


def renamed(baseline: Baseline, renames: Mapping[str, str]) -> Baseline:
    """``baseline`` with the entries of renamed files (old path -> new path) at their new paths."""
    if not any(identity.path in renames for identity in baseline.counts):
        return baseline
    return mapped(baseline, lambda i: replace(i, path=renames[i.path]) if i.path in renames else i)


def translated(baseline: Baseline, translation: Mapping[Identity, Identity]) -> Baseline:
    """``baseline`` with format 1 identities replaced by format 2 ones where ``translation`` knows them."""
    if not translation or not baseline.legacy:
        return baseline
    return mapped(baseline, lambda i: translation.get(i, i))


def merged(base: Baseline, ours: Baseline, theirs: Baseline) -> Baseline:
    """The three-way merge of two versions of a baseline that share ``base``
    (git's merge driver): per identity, the count a side changed wins; when
    both changed it, two lowered counts give the lower (a fix on each side
    is never undone, and too high a count shows as stale, never as new), and
    otherwise both changes are applied."""
    counts: dict[Identity, int] = {}
    for identity in sorted({*base.counts, *ours.counts, *theirs.counts}):
        old, mine, other = (b.counts.get(identity, 0) for b in (base, ours, theirs))
        if mine == other or other == old:
            count = mine
        elif mine == old:
            count = other
        elif mine < old and other < old:
            count = min(mine, other)
        else:
            count = max(0, mine + other - old)
        if count:
            counts[identity] = count
    excerpts = {i: ours.excerpts.get(i) or theirs.excerpts.get(i) or base.excerpts.get(i, "") for i in counts}
    return Baseline(counts, excerpts)


def entry_lines(text: str) -> dict[Identity, int]:
    """The 1-based line of each entry in a file laid out as ``render`` writes it
    (format 1: the line of its ``count``); entries in another layout are left out."""
    found: dict[Identity, int] = {}
    path = scope = None
    block: list[str] = []
    start = 0
    # Lines numbered as findings are (LF, CRLF, lone CR): str.splitlines would
    # also break at U+2028, U+0085 and the like, which JSON strings may hold raw.
    for number, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        try:
            if block:  # format 1: an entry's object, one field a line
                block.append(line)
                if line.rstrip(",") == "    }":
                    entry = json.loads("\n".join(block).rstrip(","))
                    identity = Identity(entry["rule"], entry["path"], entry["scope"], LEGACY + entry["fingerprint"])
                    found[identity] = start + next((i for i, part in enumerate(block) if part.lstrip().startswith('"count"')), 0)
                    block = []
            elif line == "    {":
                block, start = [line], number
            elif line.startswith("    \"") and line.endswith(": {"):
                path, scope = json.loads(line[:-3]), None
            elif line.startswith("      \"") and line.endswith(": [") and path is not None:
                scope = json.loads(line[:-3])
            elif line.startswith("        [") and path is not None and scope is not None:
                fingerprint, rules, _ = json.loads(line.rstrip(","))
                for rule in rules:
                    found[Identity(rule, path, scope, fingerprint)] = number
        except (ValueError, KeyError, TypeError):
            block = []
    return found
