"""Objects a test builds through its own helpers, targets spelled with
%-formatting, methods cached per instance (functools.cache/lru_cache keep the
wrapped function's name and module), and objects made from a class a
parameter defaults to resolve like what they denote."""
# pylint: disable=missing-docstring,import-error
import unittest
from unittest import mock

from shopfp import pages, plant, storage

STORAGE = "shopfp.storage.Storage"


class TestBuilt(unittest.TestCase):
    def make_storage(self, quiet=False):
        if quiet:
            with mock.patch.object(storage, "LOG"):
                return storage.Storage()
        else:
            return storage.Storage()

    def maybe_storage(self, wanted):
        if wanted:
            return storage.Storage()

    def guarded_storage(self):
        try:
            return storage.Storage()
        except ValueError:
            pass

    def setUp(self):
        self.store = self.make_storage(quiet=True)
        self.maybe = self.maybe_storage(True)
        self.guarded = self.guarded_storage()

    def test_every_branch_returns_the_same_class(self):
        with mock.patch.object(self.store, "save"):  # [first-party-mock]
            self.assertIsNotNone(self.store)

    def test_a_branch_may_return_none(self):
        with mock.patch.object(self.maybe, "save"):
            self.assertIsNotNone(self.maybe)

    def test_a_handler_falls_through(self):
        with mock.patch.object(self.guarded, "save"):
            self.assertIsNotNone(self.guarded)

    @mock.patch("%s.save" % STORAGE)  # [first-party-mock]
    def test_percent_format(self, save):
        self.assertIsNotNone(save)

    @mock.patch("%s.%s" % ("shopfp.storage", "Storage.load"))  # [first-party-mock]
    def test_percent_format_tuple(self, load):
        self.assertIsNotNone(load)

    def test_percent_format_of_an_unknown(self, name="save"):
        with mock.patch("%s.%s" % (STORAGE, name)):
            pass

    def test_percent_format_that_fails(self):
        with mock.patch("%d.save" % STORAGE):
            pass


class TestCachedMethods(unittest.TestCase):
    def setUp(self):
        self.pages = pages.Pages()

    def test_cache(self):
        with mock.patch.object(self.pages, "get", lambda name: name):  # [first-party-mock]
            pass

    def test_lru_cache_with_arguments(self):
        with mock.patch.object(self.pages, "find", return_value=[]):  # [first-party-mock]
            pass

    def test_a_cache_decorator_that_wraps_nothing_yet(self):
        with mock.patch.object(self.pages, "limit", return_value=[]):
            pass


class TestInjectedClassDefaults(unittest.TestCase):
    def test_the_default_motor(self):
        pump = plant.Pump()
        with mock.patch.object(pump.motor, "spin", return_value="stopped"):  # [first-party-mock]
            self.assertEqual(pump.run(), "stopped")

    def test_an_item_of_a_returned_list(self):
        pump = plant.make_pumps()[0][-1]
        with mock.patch.object(pump.motor, "spin", return_value="stopped"):  # [first-party-mock]
            self.assertEqual(pump.run(), "stopped")
