"""Names a test class binds in its body resolve like module-level names in the
class body and in its methods' decorators."""
# pylint: disable=missing-docstring,import-error
import unittest
from unittest import mock

from shopfp import jobs, storage


class TestDriver(unittest.TestCase):
    STORE = storage.Storage
    RUNNER = jobs.Runner
    TIME = jobs.time

    @mock.patch.object(STORE, "save", autospec=True)  # [first-party-mock]
    def test_save(self, save):
        self.assertIsNotNone(save)

    @mock.patch.object(RUNNER, "claim", autospec=True)  # [first-party-mock]
    @mock.patch.object(TIME, "sleep", autospec=True)
    def test_claim(self, sleep, claim):
        self.assertIsNot(sleep, claim)

    def test_not_in_scope_in_the_body(self):
        with mock.patch.object(self.STORE, "load", autospec=True):  # [first-party-mock]
            pass


class PatchersByNameBase(unittest.TestCase):
    """Patchers kept as class attributes, started by name in ``setUpClass``."""

    PATCHER_SUFFIX = "_patcher"
    run_patcher = mock.patch("shopfp.jobs.run", autospec=True)  # [first-party-mock]

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        for name in [a for a in dir(cls) if a.endswith(cls.PATCHER_SUFFIX)]:
            getattr(cls, name).start()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        for name in [a for a in dir(cls) if a.endswith(cls.PATCHER_SUFFIX)]:
            getattr(cls, name).stop()


class TestPatchersOfASubclass(PatchersByNameBase):
    helper_patcher = mock.patch("shopfp.jobs.helper", autospec=True)  # [first-party-mock]


class TestPatcherNothingStarts(unittest.TestCase):
    unused_patcher = mock.patch("shopfp.jobs.helper", autospec=True)  # never started: replaces nothing

    def test_runs(self):
        self.assertTrue(self.id())


HAVE_STORAGE = True
if not HAVE_STORAGE:
    storage = None  # the tests below are skipped then: the placeholder hides nothing they patch


class TestPlaceholderOfASkippedBranch(unittest.TestCase):
    @mock.patch.object(storage.Storage, "load", autospec=True)  # [first-party-mock]
    def test_load(self, load):
        self.assertIs(storage.Storage.load, load)
