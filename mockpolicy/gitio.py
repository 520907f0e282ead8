"""What mockpolicy asks git: the one place that runs it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from mockpolicy.errors import MockpolicyError
from mockpolicy.printable import displayable_name


class GitError(MockpolicyError):
    """git failed or is missing; the message says what was asked."""


def _git(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """git's output as text: UTF-8, any other byte kept as a lone surrogate (as
    ``os.fsdecode`` keeps it in a file name), since a diff or a file's content
    holds the file's own bytes, whatever its encoding."""
    try:
        return subprocess.run(
            ["git", *args], cwd=cwd, capture_output=True, encoding="utf-8", errors="surrogateescape", check=False
        )
    except OSError as exc:
        raise GitError(f"cannot run git ({exc.strerror}).") from exc


def toplevel(path: Path) -> Path:
    result = _git(["rev-parse", "--show-toplevel"], path)
    if result.returncode != 0:
        raise GitError(f"{path} is not inside a git repository.")
    return Path(result.stdout.strip()).resolve()


def show(path: Path, ref: str) -> str | None:
    """The text of ``path`` as committed at ``ref``; None when ``ref`` has no such file.

    Raises ``GitError`` when ``ref`` does not name a commit.
    """
    top = toplevel(path.parent if path.parent.exists() else Path.cwd())
    check = _git(["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], top)
    if check.returncode != 0:
        raise GitError(f"'{ref}' is not a commit in {top}.")
    relative = path.resolve().relative_to(top).as_posix()
    result = _git(["show", f"{ref}:{relative}"], top)
    return result.stdout if result.returncode == 0 else None


def _commit(top: Path, ref: str) -> str:
    result = _git(["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], top)
    if result.returncode != 0:
        raise GitError(f"'{ref}' is not a commit in {top}.")
    return result.stdout.strip()


def head(path: Path) -> str:
    """The commit HEAD names in the repository holding ``path``."""
    return _commit(toplevel(path), "HEAD")


def merge_base(path: Path, ref: str) -> str:
    """The merge base of ``ref`` and HEAD in the repository holding ``path``."""
    top = toplevel(path)
    base = _commit(top, ref)
    result = _git(["merge-base", base, "HEAD"], top)
    if result.returncode != 0:
        raise GitError(f"'{ref}' and HEAD have no common ancestor in {top}.")
    return result.stdout.strip()


def diff_since(path: Path, commit: str) -> str:
    """The unified diff (3 lines of context) from ``commit`` to the working tree
    of tracked files, paths relative to the repository's top, whatever the
    user's diff settings."""
    top = toplevel(path)
    result = _git(
        ["-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff", "--no-textconv", "-U3",
         "--src-prefix=a/", "--dst-prefix=b/", "-M", commit, "--"],
        top,
    )
    if result.returncode != 0:
        raise GitError(f"git diff against {commit[:12]} failed in {top}: {result.stderr.strip()}")
    return result.stdout


def _in_repository(path: Path) -> tuple[Path, str]:
    """The top of the repository holding ``path`` (which need not exist: its
    nearest existing folder is asked) and ``path`` relative to it."""
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    top = toplevel(folder)
    try:
        return top, path.resolve().relative_to(top).as_posix()
    except ValueError:
        raise GitError(f"{path} is outside the repository at {top}.") from None


def file_commits(path: Path, limit: int) -> list[tuple[str, int, str]]:
    """The last ``limit`` commits reachable from HEAD that changed ``path``, newest
    first, as (commit, committer time in seconds since the epoch, subject); [] when
    the file has never been committed or HEAD has no commit yet. Renames are not
    followed. Raises ``GitError`` outside a repository."""
    top, relative = _in_repository(path)
    if limit < 1 or _git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], top).returncode != 0:
        return []
    result = _git(["log", f"--max-count={limit}", "--format=%H%x1f%ct%x1f%s", "--", f":(literal){relative}"], top)
    if result.returncode != 0:
        raise GitError(f"git log of {relative} failed in {top}: {result.stderr.strip()}")
    commits = []
    for line in result.stdout.splitlines():
        commit, _, rest = line.partition("\x1f")
        seconds, _, subject = rest.partition("\x1f")
        if commit and seconds.isdigit():
            commits.append((commit, int(seconds), subject))
    return commits


def file_texts(path: Path, commits: list[str]) -> list[str | None]:
    """The text of ``path`` at each of ``commits`` (None where a commit has no such
    file), read by one ``git cat-file --batch``; undecodable bytes are replaced."""
    if not commits:
        return []
    top, relative = _in_repository(path)
    if "\n" in relative:  # cat-file reads one name a line
        return [None] * len(commits)
    request = "".join(f"{commit}:{relative}\n" for commit in commits).encode("utf-8")
    try:
        result = subprocess.run(["git", "cat-file", "--batch"], cwd=top, input=request, capture_output=True, check=False)
    except OSError as exc:
        raise GitError(f"cannot run git ({exc.strerror}).") from exc
    if result.returncode != 0:
        raise GitError(f"git cat-file failed in {top}: {result.stderr.decode('utf-8', 'replace').strip()}")
    texts: list[str | None] = []
    data, position = result.stdout, 0
    for _ in commits:
        end = data.index(b"\n", position)
        header = data[position:end].split()
        position = end + 1
        if len(header) != 3 or header[1] != b"blob":
            texts.append(None)
            continue
        size = int(header[2])
        texts.append(data[position : position + size].decode("utf-8", "replace"))
        position += size + 1
    return texts


def last_commit(path: Path) -> str | None:
    """The last commit that changed the file at ``path``; None when no commit
    has it (it is new or untracked), or when it is not in a git repository."""
    try:
        top = toplevel(path.parent if path.parent.exists() else Path.cwd())
    except GitError:
        return None
    try:
        relative = path.resolve().relative_to(top).as_posix()
    except ValueError:
        return None
    result = _git(["log", "-1", "--format=%H", "--", relative], top)
    commit = result.stdout.strip()
    return commit if result.returncode == 0 and commit else None


def renames(root: Path, commit: str) -> dict[str, str]:
    """Files that ``git diff -M`` sees renamed (or moved) from ``commit`` to the
    working tree (tracked files: ``git mv``, or a move then ``git add``), as old
    path -> new path, POSIX and relative to ``root``; renames from or to outside
    ``root`` are left out. Names that are not UTF-8 are escaped as the analysis
    shows them (``\\xNN``)."""
    top = toplevel(root)
    prefix = root.resolve().relative_to(top).as_posix()
    prefix = "" if prefix == "." else prefix + "/"
    commit = _commit(top, commit)  # a name, never an option
    try:
        result = subprocess.run(
            ["git", "-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff", "--name-status", "-z", "-M",
             "--diff-filter=R", commit, "--"],
            cwd=top, capture_output=True, check=False,
        )
    except OSError as exc:
        raise GitError(f"cannot run git ({exc.strerror}).") from exc
    if result.returncode != 0:
        raise GitError(f"git diff against {commit[:12]} failed in {top}: {result.stderr.decode(errors='replace').strip()}")
    fields = [displayable_name(os.fsdecode(field)) for field in result.stdout.split(b"\0")]
    found: dict[str, str] = {}
    for index in range(0, len(fields) - 2, 3):
        status, old, new = fields[index : index + 3]
        if status.startswith("R") and old.startswith(prefix) and new.startswith(prefix):
            found[old[len(prefix):]] = new[len(prefix):]
    return found



def renames_since_last_change(path: Path, root: Path) -> dict[str, str]:
    """``renames`` from the last commit that changed the file at ``path`` (a
    baseline) to the working tree; empty when that cannot be known (no git, or
    the file was never committed), since matching works without it."""
    commit = last_commit(path)
    if commit is None:
        return {}
    try:
        return renames(root, commit)
    except GitError:
        return {}
