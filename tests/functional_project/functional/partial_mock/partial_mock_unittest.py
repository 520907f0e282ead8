"""unittest-style partial mocks: data-driven tests, siblings, helpers and class mocks."""
# pylint: disable=missing-docstring,import-error,unused-argument
import unittest
from unittest import mock

import ddt
from webob import exc

from shopfp import gates


@ddt.ddt
class TestDataDriven(unittest.TestCase):
    @ddt.data(True, False)
    @mock.patch("shopfp.gates.is_open")
    def test_mock_after_the_data(self, opened, is_open):
        is_open.return_value = opened  # the data's values: not listed here, not judged
        self.assertIn(gates.door("x"), ("in", "out"))


@ddt.ddt
class TestDataAsKeywords(unittest.TestCase):
    @ddt.data({"expected": "in"})
    @ddt.unpack
    @mock.patch("shopfp.gates.is_open")  # [undocumented-partial-mock]
    def test_dicts_unpacked_into_keywords(self, is_open, expected="in"):
        is_open.return_value = True
        self.assertEqual(expected, gates.door("x"))


@ddt.ddt
class TestSiblingWithUnlistedOutcomes(unittest.TestCase):
    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")
    def test_approved(self, read):
        self.assertEqual("APPROVED", gates.guarded("x"))

    @ddt.data(KeyError, LookupError)
    def test_missing(self, error):
        with mock.patch("shopfp.gates.read_evidence", side_effect=error):
            gates.guarded("x")


class TestSiblingWithoutTheOtherOutcome(unittest.TestCase):
    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # [undocumented-partial-mock]
    def test_approved(self, read):
        self.assertEqual("APPROVED", gates.guarded("x"))


class TestHelperReach(unittest.TestCase):
    def _open_everything(self):  # called by test_verdict only, which does not reach door()
        self.addCleanup(mock.patch.stopall)
        mock.patch("shopfp.gates.is_open", return_value=True).start()

    def test_verdict(self):
        self._open_everything()
        self.assertIsNotNone(gates.verdict("x"))

    def test_door(self):
        self.assertEqual("out", gates.door("x"))


class TestCallerMockedToo(unittest.TestCase):
    def test_caller_replaced(self):
        with mock.patch("shopfp.gates.is_open", return_value=True), mock.patch("shopfp.gates.door"):
            gates.door("x")

    def test_caller_real(self):
        with mock.patch("shopfp.gates.is_open", return_value=True):  # [undocumented-partial-mock]
            self.assertEqual("in", gates.door("x"))


class TestClassMock(unittest.TestCase):
    def test_gate_mocked_whole(self):
        with mock.patch("shopfp.gates.Gate") as gate_cls:
            gate_cls.return_value.check.return_value = "none"
            self.assertEqual("closed", gates.check_gate("x"))

    def test_check_answers_ok(self):
        with mock.patch.object(gates.Gate, "check", return_value="ok"):
            self.assertEqual("open", gates.check_gate("x"))


class TestMethodMockOnly(unittest.TestCase):
    def test_check_answers_ok(self):
        with mock.patch.object(gates.Gate, "check", return_value="ok"):  # [undocumented-partial-mock]
            self.assertEqual("open", gates.check_gate("x"))


class TestHelperOnThePath(unittest.TestCase):
    def _open_everything(self):
        self.addCleanup(mock.patch.stopall)
        mock.patch("shopfp.gates.is_open", return_value=True).start()  # [undocumented-partial-mock]

    def test_door(self):
        self._open_everything()
        self.assertEqual("in", gates.door("x"))


class TestSessionNamedOnlyAsATarget(unittest.TestCase):
    def test_ping_replaced(self):
        with mock.patch("shopfp.gates.is_open", return_value=True), mock.patch.object(gates.Session, "ping"):
            self.assertIsNotNone(gates.verdict("x"))  # never enters a Session


class TestSessionEntered(unittest.TestCase):
    def test_entered(self):
        session = gates.open_session()
        with mock.patch("shopfp.gates.is_open", return_value=True):  # [undocumented-partial-mock]
            with mock.patch.object(gates.Session, "ping"):
                with session:
                    pass


class Answer:
    def __init__(self, status):
        self.status = status


class TestSideEffectsOfObjects(unittest.TestCase):
    def test_objects_returned_in_turn(self):
        with mock.patch("shopfp.gates.is_open", side_effect=[Answer(500), Answer(200)]):
            gates.door("x")


class TestSideEffectsOfLibraryErrors(unittest.TestCase):
    def test_a_library_exception_not_named_like_one(self):
        with mock.patch("shopfp.gates.is_open", side_effect=[True, exc.HTTPNotFound()]):  # [undocumented-partial-mock]
            gates.door("x")


class TestSideEffectsOfErrors(unittest.TestCase):
    def test_errors_raised_in_turn(self):
        with mock.patch("shopfp.gates.is_open", side_effect=[True, ValueError("x")]):  # [undocumented-partial-mock]
            gates.door("x")


class TestNeverCalledEitherOrder(unittest.TestCase):
    """A mock the test asserts is never called answers nothing: no partial mock."""

    def test_count_first(self):
        with mock.patch("shopfp.gates.is_open", return_value=True) as is_open:
            gates.door("x")
        self.assertEqual(is_open.call_count, 0)

    def test_zero_first(self):
        with mock.patch("shopfp.gates.is_open", return_value=True) as is_open:
            gates.door("x")
        self.assertEqual(0, is_open.call_count)

    def test_counted_but_not_zero(self):
        with mock.patch("shopfp.gates.is_open", return_value=True) as is_open:  # [undocumented-partial-mock]
            gates.door("x")
        self.assertEqual(1, is_open.call_count)


class TestRealAnswerFirst(unittest.TestCase):
    def test_real_then_patched(self):
        self.assertEqual("out", gates.door("closed"))  # the real is_open takes the else arm here
        with mock.patch("shopfp.gates.is_open", return_value=True):
            self.assertEqual("in", gates.door("x"))


class TestPatchedInTwoBlocks(unittest.TestCase):
    def test_each_call_under_a_patch(self):
        with mock.patch("shopfp.gates.is_open", return_value=True):  # [undocumented-partial-mock]
            gates.door("x")
        with mock.patch("shopfp.gates.is_open", return_value=True):
            gates.door("y")


from shopfp import gate_copy  # noqa: E402


class TestACopyImportedByValue(unittest.TestCase):
    def test_patch_reaches_the_defining_module_only(self):
        with mock.patch("shopfp.gates.is_open", return_value=True):  # [undocumented-partial-mock]
            self.assertEqual("in", gates.door("x"))
            self.assertEqual("out", gate_copy.enter("x"))  # the real is_open: gate_copy keeps its own binding
