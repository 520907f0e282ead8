"""A fixture handing the test a patching helper (a closure over
``monkeypatch``, or an object keeping it whose ``__call__`` patches, as
celery's and kombu's ``patching`` fixtures do) makes a mock site at each call
of it, like the helper functions of the tests."""
# pylint: disable=missing-docstring,import-error,redefined-outer-name
from unittest import mock

import pytest

from shopfp import jobs


@pytest.fixture
def patching(monkeypatch):
    def patch_path(path, value=None):
        if value is None:
            value = mock.MagicMock(spec=jobs.run)  # [first-party-mock]
        monkeypatch.setattr(path, value)
        return value
    return patch_path


class _Patching:
    def __init__(self, monkeypatch):
        self.monkeypatch = monkeypatch

    def __call__(self, path, value=None):
        if value is None:
            value = mock.MagicMock(spec=jobs.run)  # [first-party-mock]
        self.monkeypatch.setattr(path, value)
        return value


@pytest.fixture
def patcher(monkeypatch):
    return _Patching(monkeypatch)


def test_closure_of_a_fixture(patching):
    run = patching("shopfp.jobs.run")  # [first-party-mock]
    run.return_value = 1


def test_object_of_a_fixture(patcher):
    run = patcher("shopfp.jobs.run")  # [first-party-mock]
    run.return_value = 1


def test_a_value_of_a_library(patching):
    patching("os.getcwd", lambda: "/")
