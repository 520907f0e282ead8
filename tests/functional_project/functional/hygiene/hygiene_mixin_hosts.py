"""A mixin (a class with nothing but project classes above it, up to
``object``) runs only in the classes combining it: its patchers are stopped
when every such class stops all patchers, itself or through a base. A mixin
combined with a plain test case, or combined by no class, keeps its finding."""
# pylint: disable=missing-docstring,import-error,too-few-public-methods
import unittest
from unittest import mock

from shopfp import jobs


class StoppingCase(unittest.TestCase):
    def setUp(self):
        super().setUp()
        self.addCleanup(mock.patch.stopall)


class JobsMixin:
    def setUp(self):
        super().setUp()  # pylint: disable=no-member
        mock.patch.object(jobs, "reload", autospec=True).start()


class MoreJobsMixin(JobsMixin):
    def test_assign(self):
        mock.patch.object(jobs, "assign", autospec=True).start()
        self.assertTrue(jobs.assign)  # pylint: disable=no-member


class JobsTests(MoreJobsMixin, StoppingCase):
    pass


class ListingMixin:
    def test_listed(self):
        mock.patch.object(jobs, "reload", autospec=True).start()  # [leaked-patcher]
        self.assertTrue(jobs.reload)  # pylint: disable=no-member


class ListingTests(ListingMixin, unittest.TestCase):
    pass


class UnusedMixin:
    def test_unused(self):
        mock.patch.object(jobs, "reload", autospec=True).start()  # [leaked-patcher]
        self.assertTrue(jobs.reload)  # pylint: disable=no-member
