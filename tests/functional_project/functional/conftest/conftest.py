"""An autouse fixture that puts os.environ back after every test, through a
context manager of its own."""
# pylint: disable=missing-docstring,import-error
import contextlib
import os

import pytest

from shopfp.storage import Storage


@contextlib.contextmanager
def isolated_environment():
    original = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(original)


@pytest.fixture(autouse=True)
def isolate_environ():
    with isolated_environment():
        yield


@pytest.fixture
def storage():
    return Storage()
