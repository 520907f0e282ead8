"""``self.x`` in a mixin's test (a class with nothing but ``object`` above
it) is what the classes combining it bind: a mock of it is a first-party
mock when they all agree; hosts binding different things, or none, say
nothing."""
# pylint: disable=missing-docstring,import-error,no-member,too-few-public-methods
import unittest
from unittest import mock

from shopfp import jobs, storage


class RunnerBase(unittest.TestCase):
    def setUp(self):
        super().setUp()
        self.runner = jobs.Runner()


class _ClaimMixin:
    def test_claim(self):
        with mock.patch.object(self.runner, "claim", autospec=True):  # [first-party-mock]
            self.assertTrue(self.runner)


class ClaimTests(_ClaimMixin, RunnerBase):
    pass


class _SaveMixin:
    def test_save(self):
        with mock.patch.object(self.store, "save", autospec=True):  # two hosts, two classes: unknown
            self.assertTrue(self.store)


class JobStoreTests(_SaveMixin, unittest.TestCase):
    def setUp(self):
        self.store = jobs.Runner()  # hosts disagree on self.store


class StorageTests(_SaveMixin, unittest.TestCase):
    def setUp(self):
        self.store = storage.Storage()


class _OrphanMixin:
    def test_orphan(self):
        with mock.patch.object(self.runner, "claim", autospec=True):  # combined by no class: unknown
            self.assertTrue(self.runner)
