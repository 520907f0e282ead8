"""A spec'd double a base class of tests keeps on ``self`` is no inert
collaborator when the class has no test of its own: its subclasses, in other
modules, configure and assert on it out of sight (python-openstackclient's
``object/v1/fakes.py`` keeps ``Mock(spec=APIv1)`` for the tests of each command).
A class with tests of its own that leave the double alone keeps it inert."""
# pylint: disable=missing-docstring,import-error
import unittest
from unittest import mock

from shopfp import storage


class StorageTestBase(unittest.TestCase):
    def setUp(self):
        super().setUp()
        self.store = mock.Mock(spec=storage.Storage)  # [first-party-mock]


class TestLeavesItsDoubleAlone(unittest.TestCase):
    def setUp(self):
        super().setUp()
        self.spare_store = mock.Mock(spec=storage.Storage)

    def test_something_else(self):
        self.assertIsNotNone(storage.DEFAULT)
