"""A name bound to one of several objects of the project's classes (in the
branches of an ``if``), or a function returning one of them, stands for an
object of their nearest common project class, as an annotation ``A | B`` does:
its methods are the project's (APScheduler 3.11.3's ``executor`` fixture,
a ``ThreadPoolExecutor`` or a ``ProcessPoolExecutor``). One of a project object
and a library object is not known."""
# pylint: disable=missing-docstring,import-error
from unittest import mock

import pytest

from shopfp import storage


@pytest.fixture(params=["memory", "sql"])
def store(request):
    if request.param == "memory":
        made = storage.Storage()
    else:
        made = storage.SqlStorage()
    return made


def test_either_store(store, monkeypatch):
    monkeypatch.setattr(store, "save", lambda *args: None)  # [first-party-mock]


def _any_store(sql):
    if sql:
        return storage.SqlStorage()
    return storage.Storage()


def test_either_returned():
    with mock.patch.object(_any_store(True), "load", autospec=True):  # [first-party-mock]
        pass


def test_a_project_object_or_another(flag):
    if flag:
        holder = storage.Storage()
    else:
        holder = object()
    with mock.patch.object(holder, "save", autospec=True):
        pass
