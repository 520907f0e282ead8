"""An autouse fixture that puts os.environ back after every test, through a
context manager of its own; hooks that snapshot the globals of the
project's modules before each test and put them back after it."""
# pylint: disable=missing-docstring,import-error,protected-access,unused-argument
import builtins
import contextlib
import os
import sys

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


def open_default_storage():
    return Storage()


builtins.open_default_storage = open_default_storage  # test modules call it without importing it


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    item._saved_globals = [
        (module.__dict__, dict(module.__dict__))
        for name, module in sys.modules.copy().items()
        if name.startswith("shopfp") and module is not None
    ]
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    yield
    for current, saved in item.__dict__.pop("_saved_globals", []):
        current.clear()
        current.update(saved)
