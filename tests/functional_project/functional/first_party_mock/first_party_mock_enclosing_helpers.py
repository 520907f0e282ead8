"""A helper of the tests that enters its patch in a ``with`` of its own and
runs code under it there is a mock site at each call, its target taken from
the caller's arguments (or the default a wrapping helper hands on). A helper
patching a fixed target in a ``with``, or an object it makes itself when the
caller gives none, is its own site, reported in its body."""
# pylint: disable=missing-docstring,import-error
import unittest
from unittest import mock

from shopfp import storage, turnstile


class VerifyingTestCase(unittest.TestCase):
    def _verify(self, mock_method, test_method, *, expected_result=None, method_args=()):
        with mock.patch(mock_method) as mocked:  # [unspecced-mock]
            mocked.return_value = expected_result
            self.assertEqual(expected_result is not None, test_method(*method_args))
            mocked.assert_called_once()

    def verify_admit(self, test_method, *, mock_method="shopfp.gates.read_evidence", expected_result="APPROVED"):
        self._verify(mock_method, test_method, expected_result=expected_result, method_args=("x",))  # [unspecced-mock]

    def verify_saving(self, store=None):
        store = store or storage.Storage()
        with mock.patch.object(store, "save", autospec=True) as save:  # [first-party-mock]
            store.save("order", 1)
            save.assert_called_once_with("order", 1)

    def verify_quietly(self, test_method):
        with mock.patch("shopfp.gates.read_evidence", autospec=True):  # [first-party-mock]
            test_method("x")


class TestThroughHelpers(VerifyingTestCase):
    def test_admit(self):
        self.verify_admit(turnstile.admit)  # [first-party-mock, unspecced-mock]

    def test_admit_strictly(self):
        self._verify("shopfp.gates.read_evidence", turnstile.admit_strictly,  # [first-party-mock, unspecced-mock]
                     expected_result="APPROVED", method_args=("x",))

    def test_quietly(self):
        self.verify_quietly(turnstile.admit)

    def test_saving(self):
        self.verify_saving(storage.Storage())  # [first-party-mock]

    def test_saving_what_the_helper_makes(self):
        self.verify_saving()  # the helper's own object: its body is the site

    def test_outside_target(self):
        self._verify("os.getcwd", turnstile.admit, expected_result=None)  # [unspecced-mock]
