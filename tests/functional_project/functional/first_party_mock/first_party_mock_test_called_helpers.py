"""What a test's own call of a helper method sets on ``self``
(``self.set_store()`` at the top of the test; keystonemiddleware 13.0.1's
``self.set_middleware()``) is known there, as what a set-up's call of it sets
is: a helper of the test's class, or of a base class the module defines."""
# pylint: disable=missing-docstring,import-error
import unittest
from unittest import mock

from shopfp import storage


class TestCallsItsHelper(unittest.TestCase):
    def set_store(self):
        self.store = storage.Storage()

    def test_after_the_helper(self):
        self.set_store()
        with mock.patch.object(self.store, "save", autospec=True):  # [first-party-mock]
            pass


class TestCallsAnInheritedHelper(TestCallsItsHelper):
    def test_in_a_subclass(self):
        self.set_store()
        with mock.patch.object(self.store, "load", autospec=True):  # [first-party-mock]
            pass
