"""What an analysis read from the file system, for the persistent cache.

A ``Tracker`` is shared by an engine's symbol indexes, resolvers, fixtures and
memo. While a file is analysed it collects the *dependencies* the analysis
used, each with the *fact* the run observed when it first read it:

- ``("m", tag, name)``: the module ``name`` as index ``tag`` finds it (``p`` the
  project's, ``l`` installed libraries'): where it was located and a digest of
  the bytes read;
- ``("l", tag, name)``: where index ``tag`` located ``name`` (nothing read);
- ``("r", "", path)``: a digest of the bytes of a file read outside an index;
- ``("e", "", path)``: whether ``path`` is a regular file;
- ``("s", "", "")``: the list of the project's code under test
  (``Project.code_under_test``), which a search for callers walks;
- ``("h", "", "")``: the names of the project's possible mock helpers
  (``helpers.project_helper_words``), by which a file without mocking words
  is analysed or not.
- ``("c", "", top)``: which modules of the package ``top`` name which words
  in their class headers (``subclasses.header_index``), by which the known
  subclasses of a class are found.
- ``("w", "", "")``: the bytes of every readable file of the code under test
  (``words_index_fact``), from which the search for callers indexes the words
  each file calls: one dependency standing for those files' own.

Results an engine remembers across files (resolved targets, fixture values,
function results) keep the dependencies of their computation
(``start``/``stop``) and hand them on when they are used again (``replay``),
so a file's dependencies are the same whichever files were analysed before it.
A disabled tracker does nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")

Dep = tuple[str, str, str]
Deps = frozenset[Dep]
NO_DEPS: Deps = frozenset()
UNREADABLE = "unreadable"
CONFLICT = "changed during the run"  # a fact seen two ways in one run: never valid


def digest(data: bytes) -> str:
    """The content hash the cache keys files by."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def located_fact(located: tuple[Path | None, bool] | None) -> str:
    """The fact of a ``ModuleIndex.locate`` result."""
    if located is None:
        return "-"
    path, is_package = located
    return f"{'P' if is_package else 'M'}{path if path is not None else ''}"


HELPER_WORDS_DEP: Dep = ("h", "", "")


def words_fact(words: frozenset[str]) -> str:
    """The fact of a set of names: a digest of them sorted."""
    return digest("\n".join(sorted(words)).encode("utf-8", "surrogateescape"))


def index_fact(index: dict[str, list[str]]) -> str:
    """The fact of a word index: a digest of its words and their modules, sorted."""
    return digest("\n".join(f"{word} {' '.join(names)}" for word, names in sorted(index.items())).encode(
        "utf-8", "surrogateescape"))


WORDS_DEP: Dep = ("w", "", "")


def words_index_fact(files: Iterable[tuple[Path, str]]) -> str:
    """The fact of ``WORDS_DEP``: a digest of each readable file of the code
    under test, in order, with the digest of its bytes."""
    return digest("\0".join(f"{path}\0{seen}" for path, seen in files).encode("utf-8", "surrogateescape"))


def listing_fact(paths: list[Path]) -> str:
    """The fact of a list of files: a digest of their names in order."""
    return digest("\n".join(str(p) for p in paths).encode("utf-8", "surrogateescape"))


class Tracker:
    """Collects dependencies and their facts; see the module's documentation."""

    def __init__(self, enabled: bool = False) -> None:
        self.enabled = enabled
        self.facts: dict[Dep, str] = {}
        self._frames: list[set[Dep]] = []
        self._distinct: dict[Deps, Deps] = {}

    def observe(self, dep: Dep, fact: str) -> None:
        """Record what the run saw of ``dep`` (the first sighting counts; a
        different later one makes the dependency never valid) and note it."""
        if not self.enabled:
            return
        known = self.facts.setdefault(dep, fact)
        if known != fact:
            self.facts[dep] = CONFLICT
        if self._frames:
            self._frames[-1].add(dep)

    def note(self, dep: Dep) -> None:
        """Note a use of ``dep``, already observed."""
        if self._frames:
            self._frames[-1].add(dep)

    def replay(self, deps: Deps) -> None:
        """Note the dependencies of a remembered result being used again."""
        if deps and self._frames:
            self._frames[-1].update(deps)

    def start(self) -> None:
        """Begin collecting the dependencies of one computation."""
        if self.enabled:
            self._frames.append(set())

    def stop(self) -> Deps:
        """End the innermost computation: its dependencies, also handed to the
        computation that encloses it."""
        if not self.enabled:
            return NO_DEPS
        deps = self._frames.pop()
        if self._frames:
            self._frames[-1].update(deps)
        if not deps:
            return NO_DEPS
        found = frozenset(deps)
        return self._distinct.setdefault(found, found)  # results often share theirs: one copy each

    def collect(self, compute: Callable[[], V]) -> tuple[V, Deps]:
        """``compute()`` and the dependencies it noted."""
        self.start()
        try:
            value = compute()
        finally:
            deps = self.stop()
        return value, deps

    def hidden(self, compute: Callable[[], V]) -> V:
        """``compute()`` with the dependencies it notes dropped (their facts are
        still seen): for a computation whose caller notes one dependency
        standing for them all."""
        if not self.enabled:
            return compute()
        self._frames.append(set())
        try:
            return compute()
        finally:
            self._frames.pop()

    def remembered(self, memory: dict[K, tuple[V, Deps]], key: K, compute: Callable[[], V]) -> V:
        """``memory[key]``'s value (its dependencies replayed), else ``compute()``
        remembered there with its dependencies."""
        known = memory.get(key)
        if known is not None:
            self.replay(known[1])
            return known[0]
        value, deps = self.collect(compute)
        memory[key] = (value, deps)
        return value

    def facts_of(self, deps: Deps) -> dict[str, str]:
        """``deps`` with their facts, keyed ``kind:tag:name`` (for the cache)."""
        return {f"{kind}:{tag}:{name}": self.facts.get((kind, tag, name), CONFLICT) for kind, tag, name in deps}


def dep_of(key: str) -> Dep | None:
    """The dependency a ``Tracker.facts_of`` key names; None for a malformed key."""
    kind, found, rest = key.partition(":")
    tag, found_too, name = rest.partition(":")
    return (kind, tag, name) if found and found_too else None
