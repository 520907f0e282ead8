"""A global object swapped for a real one of the project: isolation, nothing
faked. A stand-in put in its place is still a first-party mock."""
# pylint: disable=missing-docstring,import-error,too-few-public-methods
from unittest import mock

from shopfp import storage
from shopfp.storage import SqlStorage, Storage


class FakeStorage(Storage):
    def save(self, order_id, total):
        return order_id


def test_fresh_instance_of_the_same_class(monkeypatch):
    with mock.patch("shopfp.storage.DEFAULT", Storage()):
        pass
    monkeypatch.setattr(storage, "DEFAULT", Storage())
    fresh = SqlStorage()
    with mock.patch.object(storage, "DEFAULT", fresh):
        pass


def test_stand_ins_stay_first_party_mocks(monkeypatch):
    with mock.patch("shopfp.storage.DEFAULT", FakeStorage()):  # [first-party-mock]
        pass
    with mock.patch("shopfp.storage.DEFAULT", mock.MagicMock()):  # [first-party-mock]
        pass
    monkeypatch.setattr(storage, "DEFAULT", lambda: None)  # [first-party-mock]
    monkeypatch.setattr(storage, "DEFAULT", 0)  # [first-party-mock]
    with mock.patch("shopfp.storage.Storage.save", Storage().load):  # [first-party-mock]
        pass
