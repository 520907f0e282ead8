"""A patcher nothing starts, enters or decorates with replaces nothing."""
# pylint: disable=missing-docstring,import-error
from unittest import mock

from shopfp import jobs


def _start(patcher):
    return patcher.start()


def test_the_patcher_handed_to_the_code_as_if_it_were_a_mock():
    storage = mock.patch("shopfp.storage.Storage")
    assert jobs.run(storage)


def test_the_patcher_started():
    storage = mock.patch("shopfp.storage.Storage")  # [first-party-mock, unspecced-mock]
    storage.start()
    storage.stop()


def test_the_patcher_entered():
    storage = mock.patch("shopfp.storage.Storage")  # [first-party-mock, unspecced-mock]
    with storage:
        assert jobs.run("a")


def test_the_patcher_handed_to_a_helper_that_starts_it():
    storage = mock.patch("shopfp.storage.Storage")  # [first-party-mock, unspecced-mock]
    _start(storage)
    mock.patch.stopall()


STORAGE = mock.patch("shopfp.storage.Storage")  # [first-party-mock, unspecced-mock]


@STORAGE
def test_the_patcher_as_a_decorator(storage):
    assert storage


def test_the_patcher_made_and_dropped():
    mock.patch("shopfp.jobs.run", autospec=True)  # a statement of its own: never started
    assert jobs.run


def test_the_patcher_started_at_once():
    mock.patch("shopfp.jobs.run", autospec=True).start()  # [first-party-mock]
    mock.patch.stopall()
