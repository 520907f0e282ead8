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
