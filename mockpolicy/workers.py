"""Running one job per file, in this process or shared among worker processes,
each with its own ``Session``; the result does not depend on how many."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from mockpolicy.engine import Session

T = TypeVar("T")


def per_file(
    files: Sequence[Path], jobs: int, job: Callable[[Session, Path], T], advance: Callable[[], None] = lambda: None,
    session: Session | None = None,
) -> list[T]:
    """``job(session, path)`` for each of ``files``, in order, calling ``advance``
    after each. With ``jobs`` > 1 the files are shared among at most that many
    worker processes (never more than there are files), each with its own
    session, tracking what it reads when ``session`` does; workers end with
    their parent. Otherwise ``session`` (or a new one) serves. ``job`` must be
    a module-level function (it is pickled)."""
    workers = min(jobs, len(files))
    results: list[T] = []
    if workers > 1:
        chunk = max(1, len(files) // (workers * 8))
        track = session.track if session is not None else False
        with ProcessPoolExecutor(max_workers=workers, initializer=_start_worker, initargs=(track,)) as pool:
            for result in pool.map(functools.partial(_in_worker, job), files, chunksize=chunk):
                results.append(result)
                advance()
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
    with ProcessPoolExecutor(max_workers=1, initializer=_die_with_parent) as pool:
        yield pool.submit(function).result


_worker_session: Session | None = None  # the session of a worker process (see _start_worker)


def _start_worker(track: bool = False) -> None:
    """Set up a worker process: its own session, and death with its parent."""
    global _worker_session
    _worker_session = Session(track=track)
    _die_with_parent()


def _in_worker(job: Callable[[Session, Path], T], path: Path) -> T:
    assert _worker_session is not None
    return job(_worker_session, path)


def _die_with_parent() -> None:
    """Ask Linux to end this process when its parent dies (a no-op elsewhere)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
