"""Every unittest.mock form, each patching first-party code."""
# pylint: disable=missing-docstring,unused-argument,invalid-name,import-error
import contextlib
import unittest
import unittest.mock as um
from unittest import mock
from unittest.mock import patch as mock_patch

import shopfp.jobs
from shopfp import storage
from shopfp.storage import Storage


@mock.patch("shopfp.jobs.run")  # [first-party-mock]
def test_decorator(run):
    pass


@mock.patch.object(Storage, "save")  # [first-party-mock]
class TestClassDecorator(unittest.TestCase):
    def test_one(self, save):
        pass


def test_context_managers():
    with mock_patch("shopfp.jobs.Runner.claim"), um.patch(  # [first-party-mock,first-party-mock]
        "shopfp.jobs.helper"
    ):
        pass


def test_exit_stack():
    with contextlib.ExitStack() as stack:
        stack.enter_context(mock.patch.object(storage.Storage, "load"))  # [first-party-mock]


def test_start_stop():
    patcher = mock.patch("shopfp.storage.DEFAULT")  # [first-party-mock]
    patcher.start()
    patcher.stop()


def test_multiple_and_dict():
    with mock.patch.multiple("shopfp.jobs", run=mock.DEFAULT, sleep=mock.DEFAULT):  # [first-party-mock]
        pass
    with mock.patch.dict("sys.modules", {"shopfp.util": mock.MagicMock()}):  # [first-party-mock]
        pass


def test_autospec_and_class():
    with mock.patch("shopfp.jobs.Runner", autospec=True):  # [first-party-mock]
        pass
    with mock.patch.object(shopfp.jobs.Runner, "static"), mock.patch.object(  # [first-party-mock,first-party-mock]
        shopfp.jobs.Runner, "build"
    ):
        pass


def test_property_and_inherited():
    with mock.patch.object(storage.SqlStorage, "save"):  # [first-party-mock]
        pass
    with mock.patch.object(Storage, "size", new_callable=mock.PropertyMock):  # [first-party-mock]
        pass


def test_module_itself():
    with mock.patch("shopfp.jobs.config"):  # [first-party-mock]
        pass


class TestObjectMadeByASetUpHelper(unittest.TestCase):
    def setUp(self):
        self._make_storage()

    def _make_storage(self):
        self.storage = Storage()

    def test_patches_its_method(self):
        with mock.patch.object(self.storage, "save", autospec=True):  # [first-party-mock]
            pass


class Holder:
    """A test's wrapper around the object under test: nothing of the project."""

    def __init__(self, held):
        self.held = held


class TestRebindsWhatItsSetUpMade(unittest.TestCase):
    def setUp(self):
        self.store = Holder(Storage())

    def test_rebound_in_the_test(self):
        self.store = Storage()
        with mock.patch.object(self.store, "save"):  # [first-party-mock]
            pass

    def test_as_set_up(self):
        with mock.patch.object(self.store, "held"):  # [first-party-mock]  (the Storage the set-up handed Holder)
            pass

    def test_rebound_twice_narrows_nothing(self):
        self.store = Storage()
        self.store = Holder(Storage())
        with mock.patch.object(self.store, "held"):  # [first-party-mock]
            pass

    def test_rebound_in_a_loop(self):
        for total in (1, 2):
            self.store = Storage()
            with mock.patch.object(self.store, "save"):  # [first-party-mock]
                self.store.save(1, total)

    def test_rebound_in_a_with_block_narrows_nothing(self):
        with mock.patch.object(Storage, "__init__", return_value=None):  # [first-party-mock]
            self.store = Storage()  # made while a patch is in force
        with mock.patch.object(self.store, "save"):
            pass

    def test_rebound_in_a_branch_narrows_nothing(self):
        if self.store:
            self.store = Storage()
        with mock.patch.object(self.store, "held"):  # [first-party-mock]
            pass


class FakeStorage(mock.MagicMock):
    """A MagicMock subclass of the tests: made to a spec, it is a MagicMock made to it."""


def test_spec_of_a_mock_subclass():
    fake = FakeStorage(spec=Storage)  # [first-party-mock]
    fake.save.return_value = None


from shopfp import wrapping  # noqa: E402


class TestWhatTheConstructorWasGiven(unittest.TestCase):
    def setUp(self):
        self.pipeline = wrapping.Pipeline(wrapping.Transport())
        self.keyword = wrapping.Pipeline(transport=wrapping.Transport())
        self.doubled = wrapping.Pipeline(mock.Mock())

    def test_held_by_position(self):
        with mock.patch.object(self.pipeline.transport, "send"):  # [first-party-mock]
            pass

    def test_held_by_keyword(self):
        with mock.patch.object(self.keyword.transport, "send"):  # [first-party-mock]
            pass

    def test_a_double_given(self):
        with mock.patch.object(self.doubled.transport, "send"):
            pass

    def test_held_through_a_method_the_constructor_calls(self):
        relay = wrapping.Relay(wrapping.Transport())
        with mock.patch.object(relay.transport, "send"):  # [first-party-mock]
            pass

    def test_made_by_a_method_from_what_the_constructor_was_given(self):
        line = wrapping.Dialer(wrapping.Transport).dial()
        with mock.patch.object(line, "send"):  # [first-party-mock]
            pass

    def test_made_from_a_double_class(self):
        line = wrapping.Dialer(mock.Mock).dial()
        with mock.patch.object(line, "send"):
            pass

    def test_made_on_first_use(self):
        with mock.patch.object(wrapping.Line().transport, "send"):  # [first-party-mock]
            pass

    def test_assigned_twice_on_first_use(self):
        with mock.patch.object(wrapping.Line().spare, "send"):
            pass

    def test_made_by_a_class_method(self):  # scrapy 2.19.0's AutoThrottle.from_crawler
        throttle = wrapping.Throttle.from_settings({})
        with mock.patch.object(throttle, "adjust"):  # [first-party-mock]
            pass


class TransportCases:  # scrapy 2.19.0's TestSpiderBase: the subclasses pick the class
    @property
    def transport_class(self) -> "type[wrapping.Transport]":
        raise NotImplementedError

    @property
    def any_class(self) -> "type[object]":
        raise NotImplementedError

    def test_send_patched(self):
        with mock.patch.object(self.transport_class, "send"):  # [first-party-mock]
            pass

    def test_anything_patched(self):
        with mock.patch.object(self.any_class, "send"):
            pass
