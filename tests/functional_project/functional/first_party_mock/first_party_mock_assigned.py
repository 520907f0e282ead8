"""A mock assigned over the project's function, method or class replaces it as
a patch does (python-troveclient 8.11.0's ``base.getid = mock.Mock(...)``,
``X.__init__ = mock.Mock(return_value=None)``; python-heatclient's
``utils.read_url_content = MagicMock()``). A mock assigned over an attribute
holding an object swaps a collaborator, not code; a spy runs the real code."""
# pylint: disable=missing-docstring,import-error,attribute-defined-outside-init
import unittest
from unittest import mock

from shopfp import storage
from shopfp.storage import Storage


class TestAssignedOverCode(unittest.TestCase):
    def setUp(self):
        self.saved = storage.Storage.save
        storage.Storage.save = mock.Mock(return_value=None)  # [first-party-mock]

    def tearDown(self):
        storage.Storage.save = self.saved

    def test_a_method_of_an_object(self):
        store = Storage()
        store.load = mock.Mock(return_value={})  # [first-party-mock]
        assert store.load(1) == {}

    def test_a_class(self):
        saved = storage.SqlStorage
        storage.SqlStorage = mock.MagicMock()  # [first-party-mock]
        storage.SqlStorage = saved

    def test_an_object_held(self):
        store = Storage()
        store.orders = mock.MagicMock()
        assert store.size is not None

    def test_a_spy(self):
        store = Storage()
        store.load = mock.Mock(wraps=store.load)
        store.load(1)

    def test_a_declared_boundary(self):
        store = Storage()
        store.load = mock.Mock(return_value={})  # mock-boundary: the disk is not here
        assert store.load(1) == {}

    def test_a_fake_written_in_place_is_no_spy(self):
        store = Storage()
        store.load = mock.Mock(wraps=lambda key: {})  # [first-party-mock]
        with mock.patch.object(Storage, "load", wraps=lambda self, key: {}):  # [first-party-mock]
            store.load(1)


class TestAssignedInPairs(unittest.TestCase):
    def setUp(self):
        self.store, self.other = Storage(), mock.Mock()
        self.store.load = mock.Mock(return_value={})  # [first-party-mock]

    def test_load(self):
        assert self.store.load(1) == {}


import pytest  # noqa: E402

from shopfp import wrapping  # noqa: E402


@pytest.fixture
def pipeline():
    made = wrapping.Pipeline(wrapping.Transport())
    made.transport = mock.Mock()  # a collaborator swapped for a double
    return made


def test_a_method_of_the_double_a_fixture_put_in_place(pipeline):  # scrapy 2.19.0's engine._slot
    pipeline.transport.send = mock.Mock()  # an attribute of that double, not Transport.send
    pipeline.transport.send("r")


def test_a_method_of_a_double_put_in_place_here():
    made = wrapping.Pipeline(wrapping.Transport())
    made.transport = mock.Mock()
    made.transport.send = mock.Mock()


def test_a_method_of_the_real_object_kept():
    made = wrapping.Pipeline(wrapping.Transport())
    made.transport.send = mock.Mock()  # [first-party-mock]


def test_a_spy_made_after_the_patch():  # nova's mock_create_in_db.side_effect = orig_create_in_db
    original = Storage.load
    with mock.patch.object(Storage, "load") as load:
        load.side_effect = original
        Storage().load(1)


def test_a_spy_answered_through_the_chain(mocker):  # cookiecutter-shaped: no real code runs
    mocker.patch.object(storage.Storage, "load", wraps=storage.Storage.load).return_value = {}  # [first-party-mock]
    assert Storage().load(1) == {}


def test_a_double_a_patched_in_lambda_answers(monkeypatch):  # scrapy 2.19.0's statsmailer tests
    double = mock.MagicMock(spec=Storage)  # [first-party-mock]
    monkeypatch.setattr(Storage, "load", lambda self, key: double)  # [first-party-mock]
    assert Storage().load(1) is double
