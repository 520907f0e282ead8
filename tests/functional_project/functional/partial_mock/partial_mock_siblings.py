"""Arms a sibling test shows it takes with the real function: an exception
only that arm raises, expected; a run of the arm's own text, spelled."""
# pylint: disable=missing-docstring,import-error,unused-argument
import unittest
from unittest import mock

import pytest

from shopfp import turnstile


class TestSiblingsTakeTheArms(unittest.TestCase):
    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")
    def test_approved(self, read):
        self.assertTrue(turnstile.admit("x"))

    def test_unknown(self):
        self.assertRaises(turnstile.TurnstileJammed, turnstile.admit, "")

    def test_pending(self):
        with mock.patch("sys.stdout") as out:
            self.assertFalse(turnstile.admit("rachel"))
        self.assertIn("the evidence is pending", str(out.write.call_args))


class TestSiblingNamesAnotherCaller(unittest.TestCase):
    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # [undocumented-partial-mock]
    def test_approved(self, read):
        self.assertTrue(turnstile.admit("x"))

    def test_message_only(self):
        self.assertNotIn("the evidence is pending", turnstile.TurnstileJammed.__doc__)


class TestSiblingMocksTheFunctionToo(unittest.TestCase):
    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # [undocumented-partial-mock]
    def test_approved(self, read):
        self.assertTrue(turnstile.admit("x"))

    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # pooled with the mock above
    def test_unknown(self, read):
        self.assertRaises(turnstile.TurnstileJammed, turnstile.admit, "")


class TestSetUpMocksTheFunction(unittest.TestCase):
    def setUp(self):
        self.read = mock.patch("shopfp.gates.read_evidence").start()  # [undocumented-partial-mock]
        self.addCleanup(mock.patch.stopall)

    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # pooled with the set-up's
    def test_approved(self, read):
        self.assertTrue(turnstile.admit("x"))

    def test_unknown(self):  # the set-up's mock is not followed into the tests it covers: no sibling counts
        self.assertRaises(turnstile.TurnstileJammed, turnstile.admit, "")


class TestExceptionRaisedElsewhereToo(unittest.TestCase):
    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # [undocumented-partial-mock]
    def test_approved(self, read):
        self.assertTrue(turnstile.admit_strictly("x"))

    def test_not_a_name(self):
        with self.assertRaises(ValueError):
            turnstile.admit_strictly("not a name")


@mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # [undocumented-partial-mock]
def test_approved_function(read):  # the RETRY arm stays: no test function spells its text
    assert turnstile.admit("x")


def test_unknown_function():
    with pytest.raises(turnstile.TurnstileJammed):
        turnstile.admit("")
