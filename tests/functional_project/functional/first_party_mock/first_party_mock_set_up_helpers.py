"""A method of a base class of the tests (another module) that takes nothing
but the test and applies a patch of a fixed target sets the test up: each call
is a mock site (the method's body is one in its own file; in the test's own
file only the body is). One taking
anything more is a helper only when the patch is made from its parameters."""
# pylint: disable=missing-docstring,import-error
import unittest
from unittest import mock

from _support import runner_bases

from shopfp import jobs


class TestRun(runner_bases.RunnerTestBase):
    def test_run_replaced(self):
        self._replace_run()  # [first-party-mock, unspecced-mock]
        self.assertIs(self.run_mock.return_value, jobs.run("a"))

    def test_run_replaced_with(self):
        self._replace_run_with("{}")
        self.assertEqual("{}", jobs.run("a"))


class LocalBase(unittest.TestCase):
    def _replace_claim(self):
        patcher = mock.patch("shopfp.jobs.Runner.claim", autospec=True)  # [first-party-mock]
        patcher.start()
        self.addCleanup(patcher.stop)


class TestLocal(LocalBase):
    def test_claim(self):
        self._replace_claim()
        self.assertIsNotNone(jobs.Runner().claim())


from _support.hooked_bases import HookedBase  # noqa: E402

from shopfp.storage import Storage  # noqa: E402


class StorageTest(HookedBase):
    """A base of tests: the method named as a set-up hook binds the object its tests use."""

    def set_up_env(self):
        super().set_up_env()
        self.storage = Storage()


class TestStorageThroughAHook(StorageTest):
    def test_save_replaced(self):
        self.storage.save = mock.Mock()  # [first-party-mock, unspecced-mock]
