"""``self.useFixture(fixture)`` is the fixture, set up: what its ``_setUp``
(the ``fixtures`` package's set-up method) sets on it is known."""
# pylint: disable=missing-docstring,import-error,attribute-defined-outside-init
import time
import unittest
from unittest import mock

import fixtures

from shopfp import storage


class StorageFixture(fixtures.Fixture):
    def _setUp(self):
        self.storage = storage.Storage()
        self.clock = time


class TestWithFixture(fixtures.TestWithFixtures, unittest.TestCase):
    def setUp(self):
        super().setUp()
        made = self.useFixture(StorageFixture())
        self.storage = made.storage
        self.clock = made.clock

    def test_save(self):
        with mock.patch.object(self.storage, "save", autospec=True) as save:  # [first-party-mock]
            save.return_value = 1
            self.assertEqual(1, self.storage.save("a", 1))

    def test_clock(self):
        with mock.patch.object(self.clock, "monotonic", autospec=True) as monotonic:
            monotonic.return_value = 2.0
            self.assertEqual(2.0, time.monotonic())
