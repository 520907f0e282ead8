"""The persistent cache (``.mockpolicy_cache/``): findings per test file
(``FindingsCache``), and what the engine learnt of each module's bytes
(``SummaryCache``, see ``mockpolicy.index.SummaryStore``).

An entry holds the engine's findings for one file (before selection and
``# pylint:`` suppressions, which the command applies afterwards) with what
they were computed from: the configuration key (mockpolicy's version and code,
Python's version, the project's settings), a digest of the file's bytes, and
every dependency the analysis read with the fact it saw (``mockpolicy.deps``).
An entry is served only when all of these are as they are now; nothing stale
is ever served.

Entries are JSON (never pickle: a pull request could plant a cache file) and
signed with a key kept outside the project, so an entry a pull request commits
is ignored. Files are written whole (a temporary file, then ``os.replace``):
concurrent runs never see a partial entry, the last writer wins; an entry that
cannot be read, parsed or verified is ignored and rewritten.

To validate quickly, the digests of files are remembered by
``(mtime_ns, ctime_ns, size, inode)`` in ``stats.json``; a file changed within
the last two seconds of being hashed is always hashed again (git's "racily
clean" rule).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mockpolicy.deps import CONFLICT, UNREADABLE, digest, index_fact, listing_fact, located_fact, words_fact, words_index_fact
from mockpolicy.findings import Finding
from mockpolicy.helpers import project_helper_words
from mockpolicy.index import ModuleIndex, SummaryStore
from mockpolicy.libraries import library_roots
from mockpolicy.project import ConfigError, Project, resolved
from mockpolicy.source import SourceError, read_source
from mockpolicy.subclasses import header_index
from mockpolicy.version import __version__

FORMAT = 1
DEFAULT_DIR = ".mockpolicy_cache"
RACY_NS = 2_000_000_000
GITIGNORE = "# Automatically created by mockpolicy.\n*\n"
CACHEDIR_TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by mockpolicy.\n"


@functools.cache
def code_fingerprint() -> str:
    """A digest of mockpolicy's own sources: an edited checkout invalidates the cache."""
    package = Path(__file__).parent
    hasher = hashlib.blake2b(digest_size=16)
    for path in sorted(package.rglob("*.py")):
        hasher.update(path.relative_to(package).as_posix().encode() + b"\0")
        hasher.update(path.read_bytes())
    return hasher.hexdigest()


def config_key(project: Project) -> str:
    """What every entry of ``project`` depends on besides its files."""
    described = json.dumps(
        [FORMAT, __version__, code_fingerprint(), sys.version, sys.platform, os.name, str(project.root), sorted(project.first_party),
         [str(root) for root in project.import_roots], list(project.pytest_plugins), project.settings,
         sorted(project.test_folders)],
        sort_keys=True, default=str,
    )
    return digest(described.encode())


@functools.cache
def _signing_key() -> bytes:
    """This user's key for signing entries, kept outside every project (a fresh
    one per process when it cannot be kept: the cache is then only written)."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "mockpolicy"
    path = base / "cache-key"
    try:
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        pass
    key = secrets.token_bytes(32)
    try:
        base.mkdir(parents=True, exist_ok=True)
        _write_atomically(path, key.hex().encode())
        os.chmod(path, 0o600)
    except OSError:
        pass
    return key


def _signed(body: bytes) -> bytes:
    """A cache file holding ``body``: its signature with this user's key, a line break, ``body``."""
    return hmac.new(_signing_key(), body, hashlib.sha256).hexdigest().encode() + b"\n" + body


def _verified(raw: bytes) -> dict[str, Any] | None:
    """The JSON object a cache file (from ``_signed``) holds, when its signature
    is this user's and it parses; None otherwise."""
    signature, _, body = raw.partition(b"\n")
    expected = hmac.new(_signing_key(), body, hashlib.sha256).hexdigest().encode()
    if not hmac.compare_digest(signature, expected):
        return None
    try:
        entry = json.loads(body)
    except (ValueError, RecursionError):
        return None
    return entry if isinstance(entry, dict) else None


def _write_atomically(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all; raises ``OSError``."""
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _prepare_directory(directory: Path, part: str) -> None:
    """Make ``directory`` with its ``part`` folder, git-ignored and tagged as a
    cache (a backup tool skips it); raises ``OSError``."""
    (directory / part).mkdir(parents=True, exist_ok=True)
    for name, text in ((".gitignore", GITIGNORE), ("CACHEDIR.TAG", CACHEDIR_TAG)):
        if not (directory / name).is_file():
            _write_atomically(directory / name, text.encode())


class Digests:
    """Digests of files now, remembered across runs by their stat."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._table: dict[str, list[Any]] = {}
        self._fresh: dict[str, list[Any]] = {}
        try:
            loaded = json.loads(path.read_bytes())
            if isinstance(loaded, dict) and loaded.get("format") == FORMAT and isinstance(loaded.get("files"), dict):
                self._table = loaded["files"]
        except (OSError, ValueError, RecursionError):
            pass  # unreadable or damaged: rebuilt

    def of(self, path: Path) -> str:
        """The digest of ``path``'s bytes as ``read_source`` reads them, or ``UNREADABLE``."""
        try:
            status = os.stat(path)
        except (OSError, ValueError):
            return UNREADABLE
        stamp = [status.st_mtime_ns, status.st_ctime_ns, status.st_size, status.st_ino]
        key = str(path)
        known = self._fresh.get(key) or self._table.get(key)
        if isinstance(known, list) and len(known) == 5 and known[:4] == stamp and isinstance(known[4], str):
            return known[4]
        try:
            found = digest(read_source(path))
        except SourceError:
            return UNREADABLE
        if max(status.st_mtime_ns, status.st_ctime_ns) < time.time_ns() - RACY_NS:
            self._fresh[key] = [*stamp, found]
        return found

    @property
    def learnt(self) -> bool:
        """Whether this run hashed files the file does not know yet."""
        return bool(self._fresh)

    def save(self) -> None:
        """Add what this run learnt to the file (best effort)."""
        if not self._fresh:
            return
        try:
            on_disk = Digests(self.path)._table
            on_disk.update(self._fresh)
            _write_atomically(self.path, json.dumps({"format": FORMAT, "files": on_disk}).encode())
            self._fresh = {}
        except OSError:
            pass


class CurrentFacts:
    """What each dependency (``mockpolicy.deps``) of ``project`` is now, each
    observed once: an entry is valid when every fact it was computed from holds."""

    def __init__(self, project: Project, digests: Digests, store: SummaryStore | None = None) -> None:
        """``store``: where what is learnt of files' bytes is kept (``SummaryCache``)."""
        self.project = project
        self.digests = digests
        self.store = store
        self._now: dict[str, str] = {}
        self._indexes: dict[str, ModuleIndex] = {}

    def hold(self, facts: object) -> bool:
        """Whether ``facts`` (``kind:tag:name`` -> fact, as ``Tracker.facts_of`` gives them) all hold now."""
        return isinstance(facts, dict) and all(
            isinstance(dep, str) and isinstance(fact, str) and self._fact(dep) == fact for dep, fact in facts.items()
        )

    def _fact(self, dep: str) -> str | None:
        """What ``dep`` (``kind:tag:name``) is now, as ``mockpolicy.deps`` describes it."""
        known = self._now.get(dep)
        if known is None:
            known = self._now[dep] = self._observe(dep)
        return known

    def _observe(self, dep: str) -> str:
        kind, _, rest = dep.partition(":")
        tag, _, name = rest.partition(":")
        if kind == "r":
            return self.digests.of(Path(name))
        if kind == "e":
            return "1" if Path(name).is_file() else "0"
        if kind == "s":
            return listing_fact(self.project.code_under_test())
        if kind == "w":
            return self._words_index()
        if kind == "h":
            return words_fact(project_helper_words(self.project, self.store))
        if kind == "c":
            return index_fact(header_index(self.project.import_roots, name))
        if kind in ("l", "m") and tag in ("p", "l"):
            located = self._index(tag).locate(name)
            if kind == "l":
                return located_fact(located)
            path = located[0] if located is not None else None
            return located_fact(located) + "|" + (self.digests.of(path) if path is not None else UNREADABLE)
        return "?"  # not a dependency this version records: never valid

    def _index(self, tag: str) -> ModuleIndex:
        index = self._indexes.get(tag)
        if index is None:
            roots = self.project.import_roots if tag == "p" else library_roots(self.project)
            index = self._indexes[tag] = ModuleIndex(roots)
        return index

    def _words_index(self) -> str:
        digests = [(path, self.digests.of(path)) for path in self.project.code_under_test()]
        return words_index_fact((path, seen) for path, seen in digests if seen != UNREADABLE)


class FindingsCache:
    """The findings cache of one project, in ``directory``."""

    def __init__(self, project: Project, directory: Path) -> None:
        self.project = project
        self.directory = directory
        self.key = config_key(project)
        self.digests = Digests(directory / "stats.json")
        self.facts = CurrentFacts(project, self.digests, SummaryCache(directory, project))
        self._ready = False

    # -- reading ------------------------------------------------------------

    def _entry_path(self, relative: str) -> Path:
        return self.directory / "findings" / f"{digest(relative.encode('utf-8', 'surrogateescape'))}.json"

    def get(self, path: Path, relative: str) -> list[Finding] | None:
        """The findings of the file at ``path`` when its entry is valid now."""
        try:
            raw = self._entry_path(relative).read_bytes()
        except OSError:
            return None
        entry = self._verified(raw)
        if entry is None or entry.get("config") != self.key or entry.get("path") != relative:
            return None
        deps = entry.get("deps")
        if entry.get("digest") != self.digests.of(path) or not isinstance(deps, dict):
            return None
        if not self.facts.hold(deps):
            return None
        return _findings(entry.get("findings"), relative)

    def _verified(self, raw: bytes) -> dict[str, Any] | None:
        entry = _verified(raw)
        return entry if entry is not None and entry.get("format") == FORMAT else None

    # -- writing ------------------------------------------------------------

    def put(self, relative: str, data_digest: str, deps: dict[str, str], findings: list[Finding]) -> None:
        """Remember ``findings`` of the file ``relative`` (best effort: a cache
        that cannot be written is simply not written)."""
        body = json.dumps({
            "format": FORMAT, "config": self.key, "path": relative, "digest": data_digest, "deps": deps,
            "findings": [[f.line, f.column, f.symbol, f.message, f.end_line, f.end_column, f.scope, f.statement]
                         for f in findings],
        }, sort_keys=True).encode("utf-8", "surrogateescape")
        try:
            self._prepare()
            _write_atomically(self._entry_path(relative), _signed(body))
        except (OSError, ValueError):
            pass

    def _prepare(self) -> None:
        if not self._ready:
            _prepare_directory(self.directory, "findings")
            self._ready = True

    def close(self) -> None:
        """Keep the digests this run computed for the next one (best effort)."""
        if self.digests.learnt:
            try:
                self._prepare()
            except OSError:
                return
            self.digests.save()


class SummaryCache:
    """What the engine learnt of modules' bytes (``mockpolicy.index.SummaryStore``),
    in ``directory``: one signed JSON file per record, named by a digest of its
    kind and key; the record is served only when the kind, the key and this
    mockpolicy's code and Python match what it was written for. Every run
    that meets a module reads it through here; damaged, foreign or stale
    files are ignored and written again."""

    def __init__(self, directory: Path, project: Project | None = None) -> None:
        """``project``: the project whose engine uses the store, for the records
        derived from its files (``load_derived``); none without it."""
        self.directory = directory
        self.namespace = digest(json.dumps([FORMAT, __version__, code_fingerprint(), sys.version, sys.platform, os.name]).encode())
        self.project = project
        self._config = config_key(project) if project is not None else ""  # what derived records are keyed by
        self._facts: CurrentFacts | None = None
        self._ready = False

    def _path(self, kind: str, key: str) -> Path:
        return self.directory / "summaries" / f"{digest(f'{kind}:{key}'.encode('utf-8', 'surrogateescape'))}.json"

    def load(self, kind: str, key: str) -> object | None:
        try:
            raw = self._path(kind, key).read_bytes()
        except OSError:
            return None
        entry = _verified(raw)
        if entry is None or (entry.get("namespace"), entry.get("kind"), entry.get("key")) != (self.namespace, kind, key):
            return None
        return entry.get("record")

    def load_derived(self, kind: str, key: str) -> tuple[object, dict[str, str]] | None:
        """A record ``save_derived`` kept, with the facts it was computed from,
        when the project's configuration and every one of those facts are as they are now."""
        if self.project is None:
            return None
        entry = self.load(kind, key)
        if not (isinstance(entry, dict) and entry.get("config") == self._config):
            return None
        facts = entry.get("facts")
        if self._facts is None:
            self._facts = CurrentFacts(self.project, Digests(self.directory / "stats.json"), self)
        if not self._facts.hold(facts):
            return None
        assert isinstance(facts, dict)
        return entry.get("record"), facts

    def save_derived(self, kind: str, key: str, record: object, facts: dict[str, str]) -> None:
        """Keep ``record``, computed from the project's files as ``facts``
        (``Tracker.facts_of``) describe them; nothing when one of them was
        seen two ways during the run."""
        if self.project is not None and CONFLICT not in facts.values():
            self.save(kind, key, {"config": self._config, "facts": facts, "record": record})

    def save(self, kind: str, key: str, record: object) -> None:
        body = json.dumps(
            {"namespace": self.namespace, "kind": kind, "key": key, "record": record}, separators=(",", ":"),
        ).encode("utf-8", "surrogateescape")
        try:
            if not self._ready:
                _prepare_directory(self.directory, "summaries")
                self._ready = True
            _write_atomically(self._path(kind, key), _signed(body))
        except (OSError, ValueError):
            pass  # best effort: a record not written is computed again next time


def summary_store(project: Project) -> SummaryCache | None:
    """The summary cache in ``project``'s cache folder; None when the folder is refused."""
    try:
        return SummaryCache(cache_directory(project), project)
    except (ConfigError, OSError):
        return None


def _findings(rows: object, relative: str) -> list[Finding] | None:
    if not isinstance(rows, list):
        return None
    found: list[Finding] = []
    for row in rows:
        if not (isinstance(row, list) and len(row) == 8):
            return None
        line, column, symbol, message, end_line, end_column, scope, statement = row
        if not (isinstance(line, int) and isinstance(column, int) and isinstance(symbol, str) and isinstance(message, str)
                and isinstance(end_line, (int, type(None))) and isinstance(end_column, (int, type(None)))
                and isinstance(scope, str) and isinstance(statement, str)):
            return None
        found.append(Finding(relative, line, column, symbol, message, end_line, end_column, scope, statement))
    return found


def cache_directory(project: Project) -> Path:
    """Where ``project``'s cache lives (``cache-dir``, default ``.mockpolicy_cache``),
    refused when it leads outside the project (a symlink)."""
    directory = project.root / str(project.settings.get("cache-dir", DEFAULT_DIR))
    real = resolved(directory)
    if real != project.root and project.root not in real.parents:
        raise ConfigError(f"the cache folder {directory} leads outside the project; remove it or use --no-cache.")
    return directory
