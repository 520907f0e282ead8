"""Functions whose results only their annotations type for sure."""

import contextlib
import copy
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
    yield copy.copy(DEFAULT)


@contextlib.contextmanager
def loose_session():
    yield copy.copy(DEFAULT)


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
