"""Functions whose results only their annotations type for sure."""

import contextlib
import pickle
from collections.abc import Iterator
from typing import Generic, TypeVar

from shopfp.storage import DEFAULT, SqlStorage, Storage


def current() -> Storage:
    """The storage in use: the default one once it holds orders, else a fresh one."""
    return DEFAULT if DEFAULT.orders else SqlStorage()


def untyped():
    return DEFAULT if DEFAULT.orders else SqlStorage()


@contextlib.contextmanager
def session() -> Iterator[Storage]:
    yield pickle.loads(pickle.dumps(DEFAULT))  # an outside function's object, typed by the annotation only


@contextlib.contextmanager
def loose_session():
    yield pickle.loads(pickle.dumps(DEFAULT))


def build(kind=SqlStorage, *, opened=None):
    """A storage of the kind asked for; the parameter's default when none is."""
    made = kind()
    made.orders = opened or {}
    return made


def given(storage=None):
    return storage


Kept = TypeVar("Kept")


class Pool(Generic[Kept]):
    def acquire(self):
        return None


class StoragePool(Pool[Storage]):
    """Inherits acquire through a subscripted base."""


current_pool: StoragePool | None = None  # filled in by the application


class MemoryStorage(Storage):
    """A second kind of storage, beside SqlStorage."""


class Keeper:
    """Holds a storage behind a property that has a setter."""

    def __init__(self, storage: Storage):
        self._storage = storage
        self.kept = storage

    @property
    def storage(self) -> Storage:
        return self._storage

    @storage.setter
    def storage(self, value: Storage) -> None:
        self._storage = value


active: SqlStorage | MemoryStorage = None  # either kind, filled in by the application
mixed: "Optional[Union[SqlStorage, Pool]]" = None  # two kinds that share no project base

_POOL = None  # made on first use, by shared_pool
_SPARE = None  # filled twice below: which fill it holds is not known
_LOOSE = None  # filled with a name, not a call


def shared_pool():
    global _POOL, _SPARE, _LOOSE
    if _POOL is None:
        _POOL = StoragePool()
    _SPARE = SqlStorage()
    _LOOSE = _POOL
    return _POOL


_RUNNER = None  # filled with a function it imports on first use


def run_shared(order_id):
    global _RUNNER
    if _RUNNER is None:
        from shopfp.jobs import run as runner  # pylint: disable=import-outside-toplevel

        _RUNNER = runner
    return _RUNNER(order_id)


def other_spare():
    global _SPARE
    _SPARE = MemoryStorage()


def reset_pool():
    """Forget the shared pool: the next shared_pool() makes a new one."""
    global _POOL
    _POOL = None
