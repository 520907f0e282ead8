"""Arms a sibling test takes: it shows so (an exception only that arm raises,
expected; a run of the arm's own text, spelled), or, for an if/else arm, it
calls the caller with the function left real."""
# pylint: disable=missing-docstring,import-error,unused-argument
import unittest
from unittest import mock

import pytest

from shopfp import express, turnstile


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
    def test_twice(self, read):  # calls admit, but not with the real read_evidence
        self.assertTrue(turnstile.admit("rx"))


class TestSetUpMocksTheFunction(unittest.TestCase):
    def setUp(self):
        self.read = mock.patch("shopfp.gates.read_evidence").start()  # [undocumented-partial-mock]
        self.addCleanup(mock.patch.stopall)

    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # pooled with the set-up's
    def test_approved(self, read):
        self.assertTrue(turnstile.admit("x"))

    def test_retry(self):  # the set-up's mock is not followed into the tests it covers: no real call counts
        turnstile.admit("rx")


class TestExceptionRaisedElsewhereToo(unittest.TestCase):
    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # [undocumented-partial-mock]
    def test_approved(self, read):
        self.assertTrue(turnstile.admit_strictly("x"))

    def test_not_a_name(self):
        with self.assertRaises(ValueError):
            turnstile.admit_strictly("not a name")


class TestSiblingCallsWithTheRealFunction(unittest.TestCase):
    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # [undocumented-partial-mock]
    def test_approved(self, read):  # only the except arm stays: raising needs arranging
        self.assertTrue(turnstile.admit("x"))

    def test_real(self):  # the real read_evidence may answer "RETRY" here
        turnstile.admit("rx")


@mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # the next test function takes both arms
def test_approved_function(read):
    assert turnstile.admit("x")


def test_unknown_function():
    with pytest.raises(turnstile.TurnstileJammed):
        turnstile.admit("")


class TestSiblingsDoubleRaisesInTheTry(unittest.TestCase):
    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # a sibling's journal raises KeyError
    def test_recorded(self, read):
        self.assertEqual("APPROVED", turnstile.status_of("x", mock.Mock()))

    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")
    def test_journal_full(self, read):
        journal = mock.Mock()
        journal.record.side_effect = KeyError("full")
        self.assertEqual("UNKNOWN", turnstile.status_of("x", journal))


class TestSiblingsDoubleRaisesThroughAFunction(unittest.TestCase):
    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # a sibling's side effect raises KeyError
    def test_recorded(self, read):
        self.assertEqual("APPROVED", turnstile.status_of("x", mock.Mock()))

    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")
    def test_journal_full(self, read):
        def check(size):
            def full(status):
                raise KeyError(f"{status} past {size}")

            journal = mock.Mock()
            journal.record.side_effect = full
            self.assertEqual("UNKNOWN", turnstile.status_of("x", journal))

        check(10)


class TestSiblingsPatchRaisesThroughAFunction(unittest.TestCase):
    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # a sibling's patch of Lane._log raises KeyError
    def test_recorded(self, read):
        self.assertEqual("APPROVED", turnstile.Lane().pass_through("x", mock.Mock()))

    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")
    def test_log_full(self, read):
        def full(journal, status):
            raise KeyError(status)

        with mock.patch("shopfp.turnstile.Lane._log") as log:
            log.side_effect = full
            self.assertEqual("UNKNOWN", turnstile.Lane().pass_through("x", mock.Mock()))


class TestSiblingsSideEffectOnlyReturns(unittest.TestCase):
    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # [undocumented-partial-mock]
    def test_recorded(self, read):
        self.assertEqual("APPROVED", turnstile.status_of("x", mock.Mock()))

    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")
    def test_journal_quiet(self, read):
        def quiet(status):
            return status

        journal = mock.Mock()
        journal.record.side_effect = quiet
        journal.close.side_effect = lambda: None
        self.assertEqual("APPROVED", turnstile.status_of("x", journal))


class FullJournal:
    def record(self, status):
        raise KeyError(status)


class TestOwnTestTakesTheHandler(unittest.TestCase):
    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # the journal's KeyError takes the handler here
    def test_journal_full(self, read):
        self.assertRaises(turnstile.TurnstileJammed, turnstile.record_status, "x", FullJournal())


class TestSiblingsDoubleGivenARaisingMock(unittest.TestCase):
    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # a sibling's journal.record raises KeyError
    def test_recorded(self, read):
        self.assertEqual("APPROVED", turnstile.status_of("x", mock.Mock()))

    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")
    def test_journal_full(self, read):
        journal = mock.Mock()
        journal.record = mock.Mock(side_effect=KeyError("full"))
        self.assertEqual("UNKNOWN", turnstile.status_of("x", journal))


class TestSiblingsDoubleRaisesOneCallDown(unittest.TestCase):
    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # a sibling's journal raises in Lane._log
    def test_recorded(self, read):
        self.assertEqual("APPROVED", turnstile.Lane().pass_through("x", mock.Mock()))

    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")
    def test_journal_full(self, read):
        journal = mock.Mock()
        journal.record.side_effect = KeyError("full")
        self.assertEqual("UNKNOWN", turnstile.Lane().pass_through("x", journal))


class TestAnotherClassesMethodOfTheSameName(unittest.TestCase):
    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # runs FastLane's pass_through, not Lane's
    def test_fast(self, read):
        self.assertEqual("APPROVED", turnstile.FastLane().pass_through("x"))

    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # ExpressLane's, of another module
    def test_express(self, read):
        self.assertEqual("APPROVED", express.ExpressLane().pass_through("x"))

    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # [undocumented-partial-mock]
    def test_both(self, read):  # names Lane too: its handler stays untaken in this class
        turnstile.FastLane().pass_through("x")
        self.assertEqual("APPROVED", turnstile.Lane().pass_through("x", mock.Mock()))


def make_lane():
    return getattr(turnstile, "Lane")()


class TestUntypedReceiver(unittest.TestCase):
    def setUp(self):
        self.lane = make_lane()

    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # [undocumented-partial-mock]
    def test_pass(self, read):  # the receiver may be a Lane: ExpressLane, named too, does not rule it out
        self.assertIsNotNone(express.ExpressLane)
        self.assertEqual("APPROVED", self.lane.pass_through("x", mock.Mock()))


class TestConstructedBySibling(unittest.TestCase):
    @mock.patch("shopfp.gates.is_open", return_value=False)  # a sibling builds a Gatehouse with the real is_open
    def test_closed(self, is_open):
        self.assertRaises(turnstile.TurnstileJammed, turnstile.Gatehouse, "x")

    def test_open(self):
        self.assertEqual("open", turnstile.Gatehouse("open").name)


class TestConstructedInSetUp(unittest.TestCase):
    def setUp(self):
        self.house = turnstile.Gatehouse("open")  # before the test's patch starts: is_open is real here

    @mock.patch("shopfp.gates.is_open", return_value=False)
    def test_closed(self, is_open):
        self.assertRaises(turnstile.TurnstileJammed, turnstile.Gatehouse, "x")


class TestSetUpOnlyReferences(unittest.TestCase):
    def setUp(self):
        self.build = turnstile.Gatehouse  # named, not called: runs nothing

    @mock.patch("shopfp.gates.is_open", return_value=False)  # [undocumented-partial-mock]
    def test_closed(self, is_open):
        self.assertIs(self.build, turnstile.Gatehouse)
        self.assertRaises(turnstile.TurnstileJammed, turnstile.Gatehouse, "x")


class TestSiblingReachesTheCallerThroughAnother(unittest.TestCase):
    @mock.patch("shopfp.gates.read_badge", return_value="STAFF")
    def test_badge(self, read):
        self.assertEqual(turnstile.badge_of("x"), "STAFF")

    def test_enter_without_a_badge(self):  # through enter; spells the arm's own words
        with self.assertRaisesRegex(turnstile.TurnstileJammed, "^no badge on file for this name"):
            turnstile.enter("")


class TestSiblingReachesTheCallerSpellingTooLittle(unittest.TestCase):
    @mock.patch("shopfp.gates.read_badge", return_value="STAFF")  # [undocumented-partial-mock]
    def test_badge(self, read):
        self.assertEqual(turnstile.badge_of("x"), "STAFF")

    def test_enter_without_a_badge(self):  # "no badge on" is too short to tell the arm by from afar
        with self.assertRaisesRegex(turnstile.TurnstileJammed, "no badge on"):
            turnstile.enter("")


class TestTheRunSpelledIsAnotherArmsWhole(unittest.TestCase):
    @mock.patch("shopfp.gates.is_open", return_value=True)  # [undocumented-partial-mock]
    def test_claimed(self, is_open):
        with self.assertRaisesRegex(turnstile.TurnstileJammed, "already claimed by"):
            turnstile.claim_lane("east")


class TestTheRunSpelledIsTheArmsOwn(unittest.TestCase):
    @mock.patch("shopfp.gates.is_open", return_value=True)
    def test_claimed(self, is_open):
        with self.assertRaisesRegex(turnstile.TurnstileJammed, "already claimed by"):
            turnstile.claim_lane("east")

    def test_claimed_by_nobody(self):
        with self.assertRaisesRegex(turnstile.TurnstileJammed, "lane west already claimed$"):
            turnstile.claim_lane("west")
