"""A spec'd double handed to an object of the code under test, by keyword or
by a name bound to it, is configured through the attribute the object keeps it
in, leading underscores aside: no inert collaborator (google-cloud-pubsub
2.44.0's ``StreamingPullManager(..., scheduler_)`` then
``manager._scheduler.shutdown.return_value = ...``)."""
# pylint: disable=missing-docstring,import-error
from unittest import mock

from shopfp import sessions, storage


def make_keeper():
    storage_ = mock.create_autospec(storage.Storage, instance=True)  # [first-party-mock]
    return sessions.Keeper(storage_)


def test_configured_through_the_keeper():
    keeper = make_keeper()
    keeper._storage.load.return_value = 3
    assert keeper.storage.load(1) == 3


def test_handed_on_and_left_alone():
    storage_ = mock.create_autospec(storage.Storage, instance=True)
    assert sessions.Keeper(storage_).kept is storage_
