"""Running one job per file, in this process or shared among worker processes,
each with its own ``Session``; the result does not depend on how many."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from mockpolicy.engine import Session
from mockpolicy.index import SummaryStore
from mockpolicy.project import Project
from mockpolicy.source import file_size

T = TypeVar("T")


def per_file(
    files: Sequence[Path], jobs: int, job: Callable[[Session, Path], T], advance: Callable[[], None] = lambda: None,
    session: Session | None = None,
) -> list[T]:
    """``job(session, path)`` for each of ``files``, in order, calling ``advance``
    after each. With ``jobs`` > 1 the files are shared among at most that many
    worker processes (never more than there are files), each with its own
    session, tracking what it reads and keeping summaries as ``session`` does; workers end with
    their parent. Otherwise ``session`` (or a new one) serves. ``job`` must be
    a module-level function (it is pickled)."""
    workers = min(jobs, len(files))
    results: list[T] = []
    if workers > 1:
        track = session.track if session is not None else False
        store_for = session.store_for if session is not None else None
        groups = _groups(files, workers * _GROUPS_PER_WORKER)
        by_group: dict[int, list[T]] = {}
        with ProcessPoolExecutor(
            max_workers=workers, initializer=_start_worker,
            initargs=(track, os.getpid(), store_for, session.few_files if session is not None else True),
        ) as pool:
            # the largest groups first, so that no worker is left with a large one at the end
            pending = {
                pool.submit(_group_in_worker, job, group): start
                for start, group, _ in sorted(groups, key=lambda item: -item[2])
            }
            for future in as_completed(pending):
                by_group[pending[future]] = future.result()
                for _ in by_group[pending[future]]:
                    advance()
        for start in sorted(by_group):
            results.extend(by_group[start])
        return results
    session = session or Session()
    for path in files:
        results.append(job(session, path))
        advance()
    return results


@contextmanager
def beside(function: Callable[[], T]) -> Iterator[Callable[[], T]]:
    """Run ``function`` (picklable) in one worker process while the caller goes
    on; yields a callable that waits for its result (and raises what it raised)."""
    with ProcessPoolExecutor(max_workers=1, initializer=_die_with_parent, initargs=(os.getpid(),)) as pool:
        yield pool.submit(function).result


_worker_session: Session | None = None  # the session of a worker process (see _start_worker)


def _start_worker(
    track: bool, parent: int, store_for: Callable[[Project], SummaryStore | None] | None, few_files: bool,
) -> None:
    """Set up a worker process: its own session (with the parent's ``track``,
    ``store_for``, a module-level function, and ``few_files``), and death with its parent."""
    global _worker_session
    _die_with_parent(parent)
    _worker_session = Session(track=track, store_for=store_for)
    _worker_session.few_files = few_files


def _group_in_worker(job: Callable[[Session, Path], T], group: list[Path]) -> list[T]:
    assert _worker_session is not None
    return [job(_worker_session, path) for path in group]


_GROUPS_PER_WORKER = 8


def _groups(files: Sequence[Path], count: int) -> list[tuple[int, list[Path], int]]:
    """``files`` cut, in their order, into about ``count`` runs of neighbouring
    files of about equal size (neighbours share the code they mock, which a
    worker then reads once): (position of the run's first file, the run, its bytes)."""
    sizes = [file_size(path) for path in files]
    target = max(1, sum(sizes) // count)
    groups: list[tuple[int, list[Path], int]] = []
    start, filled = 0, 0
    for position, size in enumerate(sizes):
        filled += size
        if filled >= target or position == len(files) - 1:
            groups.append((start, list(files[start:position + 1]), filled))
            start, filled = position + 1, 0
    return groups


def _die_with_parent(parent: int) -> None:
    """Ask Linux to end this process when its parent (process ``parent``) dies,
    and end now if it died before the request was made (a no-op elsewhere)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent was gone before prctl: no signal will come
        os._exit(1)
