"""Fakes that lack what the real module or class offers."""
# pylint: disable=missing-docstring,import-error,too-few-public-methods
import sys
import types
from types import SimpleNamespace
from unittest import mock

from shopfp import jobs, storage
from shopfp.storage import Storage


class FakeStorage:
    def save(self, order_id, total):
        return order_id


class FullStorage(FakeStorage):
    backend = "fake"

    def __init__(self):
        self.orders = {}

    def load(self, order_id):
        return order_id

    @property
    def size(self):
        return 0


class SubclassedStorage(Storage):
    pass


def test_module_fakes(monkeypatch):
    fake = SimpleNamespace(run=lambda order_id: None)
    with mock.patch.dict(sys.modules, {"shopfp.jobs": fake}):  # [incomplete-mock-module]
        pass
    module = types.ModuleType("shopfp.util")
    module.helper = lambda: 0
    monkeypatch.setitem(sys.modules, "shopfp.util", module)
    partial = types.ModuleType("shopfp.storage")
    monkeypatch.setitem(sys.modules, "shopfp.storage", partial)  # [incomplete-mock-module]


def test_object_fakes(monkeypatch):
    monkeypatch.setattr(storage, "Storage", FakeStorage)  # [incomplete-mock-object]
    monkeypatch.setattr(storage, "Storage", FullStorage)
    monkeypatch.setattr(storage, "Storage", SubclassedStorage)
    with mock.patch.object(storage, "DEFAULT", FakeStorage()):  # [incomplete-mock-object]
        pass
    with mock.patch("shopfp.jobs.Runner", new=mock.MagicMock()):
        pass


def test_declared_closed(monkeypatch):
    # mock-isolation: checkout only saves; a load() call must fail the test
    monkeypatch.setattr(storage, "Storage", FakeStorage)
    monkeypatch.setattr(jobs, "Runner", SimpleNamespace())  # mock-isolation:  # [mock-annotation-without-reason]
