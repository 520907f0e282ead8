"""Sharding ``mockpolicy check`` across CI machines, and merging the shards.

``check --shard K/N`` analyses a deterministic share of the files (balanced by
size) and writes a *shard result*: the findings (selection and ``# pylint:``
comments already applied), the files analysed, the folders walked, and the
options that decide what a finding is. ``merge`` reads all N results and
judges them against the baseline as one run would: same report, same exit
status, same stale entries. Results hold paths relative to the project root,
so shards may run in checkouts at different places.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mockpolicy.errors import MockpolicyError
from mockpolicy.findings import Finding
from mockpolicy.source import file_size
from mockpolicy.version import __version__

FORMAT = 1
KIND = "mockpolicy-shard"
_FIELDS = ("path", "line", "column", "symbol", "message", "end_line", "end_column", "scope", "statement")


class ShardError(MockpolicyError):
    """A shard result cannot be read or does not fit the others; exit status 2."""


def parse_shard(text: str) -> tuple[int, int]:
    """``K/N`` as ``(K, N)``; raises ``ValueError`` with a sentence."""
    index, slash, count = text.partition("/")
    if not slash or not index.isdigit() or not count.isdigit() or not 1 <= int(index) <= int(count):
        raise ValueError(f"expected K/N with 1 <= K <= N, got '{text}'")
    return int(index), int(count)


def share(files: Sequence[Path], index: int, count: int) -> list[Path]:
    """Shard ``index`` (1-based) of ``count``: the files in path order, cut into
    ``count`` runs of neighbours of about equal bytes (a file goes to the shard
    its middle byte falls in). Neighbours mock the same code, so a shard reads
    a share of the code under test, not all of it; every machine that sees the
    same files deals them the same way."""
    ordered = sorted(files, key=str)
    sizes = [file_size(path) for path in ordered]
    total = sum(sizes)
    if total == 0:
        return ordered[index - 1::count]
    mine: list[Path] = []
    before = 0
    for path, size in zip(ordered, sizes):
        middle = before * 2 + size  # twice the middle byte's offset, in integers
        if min(middle * count // (2 * total), count - 1) == index - 1:
            mine.append(path)
        before += size
    return mine


@dataclass(frozen=True)
class ShardResult:
    """What one shard found (paths relative to the project root)."""

    index: int
    count: int
    everything: str  # a digest of every file of the run, to tell shards of different runs apart
    roots: list[str]
    files: list[str]
    findings: list[Finding]
    options: dict[str, Any]
    skipped: list[str] = field(default_factory=list)  # files whose ``# pylint: skip-file`` dropped their findings

    def dumps(self) -> str:
        return json.dumps({
            "kind": KIND, "format": FORMAT, "version": __version__, "shard": [self.index, self.count],
            "everything": self.everything, "options": self.options, "roots": self.roots, "files": self.files,
            "findings": [[getattr(f, name) for name in _FIELDS] for f in self.findings], "skipped": self.skipped,
        }, sort_keys=True, separators=(",", ":")) + "\n"


def digest_of(relative_files: Sequence[str]) -> str:
    return hashlib.blake2b("\0".join(sorted(relative_files)).encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()


def load(path: Path) -> ShardResult:
    """The shard result in ``path``; raises ``ShardError``."""
    try:
        data = json.loads(path.read_bytes())
    except OSError as exc:
        raise ShardError(f"{path}: cannot be read ({exc.strerror or exc}).") from None
    except (ValueError, RecursionError):
        raise ShardError(f"{path}: not a shard result of `mockpolicy check --shard` (not JSON).") from None
    try:
        if data["kind"] != KIND or data["format"] != FORMAT:
            raise ShardError(f"{path}: not a shard result of `mockpolicy check --shard`.")
        if data["version"] != __version__:
            raise ShardError(f"{path}: written by mockpolicy {data['version']}, not {__version__}; run every shard with one version.")
        index, count = data["shard"]
        findings = [Finding(**dict(zip(_FIELDS, row, strict=True))) for row in data["findings"]]
        result = ShardResult(int(index), int(count), str(data["everything"]), [str(r) for r in data["roots"]],
                             [str(f) for f in data["files"]], findings, dict(data["options"]),
                             [str(f) for f in data["skipped"]])
    except ShardError:
        raise
    except (KeyError, TypeError, ValueError):
        raise ShardError(f"{path}: not a shard result of `mockpolicy check --shard` (damaged).") from None
    if not all(isinstance(getattr(f, name), kind) for f in findings
               for name, kind in (("path", str), ("line", int), ("column", int), ("symbol", str), ("message", str))):
        raise ShardError(f"{path}: not a shard result of `mockpolicy check --shard` (damaged findings).")
    return result


def combined(paths: Sequence[Path]) -> ShardResult:
    """The shard results in ``paths`` as one run's; raises ``ShardError`` unless
    they are exactly the N shards of one run."""
    results = [load(path) for path in paths]
    first = results[0]
    for path, result in zip(paths, results):
        if (result.count, result.everything, result.roots, result.options) != (
            first.count, first.everything, first.roots, first.options
        ):
            raise ShardError(f"{path}: not a shard of the same run as {paths[0]} (other files, folders or options).")
    seen = sorted(result.index for result in results)
    if seen != list(range(1, first.count + 1)):
        missing = sorted(set(range(1, first.count + 1)) - set(seen))
        what = f"shard {missing[0]}/{first.count} is missing" if missing else "a shard is given twice"
        raise ShardError(f"cannot merge: {what}.")
    files = sorted(name for result in results for name in result.files)
    if digest_of(files) != first.everything:
        raise ShardError("cannot merge: the shards' files are not the files of the run.")
    findings = sorted(finding for result in results for finding in result.findings)
    skipped = sorted(name for result in results for name in result.skipped)
    return ShardResult(1, 1, first.everything, first.roots, files, findings, first.options, skipped)
