"""Mocks that give fewer outcomes than their targets, with and without blocks."""
# pylint: disable=missing-docstring,import-error,unused-argument
import os.path
import shutil
import sys
from unittest import mock
from unittest.mock import Mock, create_autospec, patch

import pytest

from shopfp import gates
from shopfp.gates import Gate


class TestConstantReturn:
    @patch("shopfp.gates.read_evidence", return_value="APPROVED", autospec=True)  # [undocumented-partial-mock]
    def test_constant_return(self, read):
        assert gates.run_gates("x")


class TestDocumented:
    # mock-partial: the critic always approves here
    #   untested: shopfp.gates.run_gates: else status == "APPROVED"
    #   untested: shopfp.gates.run_gates: except KeyError; no test raises through the gate yet
    #   reason: covered by tests/test_gates.py::test_retry
    @patch("shopfp.gates.read_evidence", return_value="APPROVED", autospec=True)
    def test_documented(self, read):
        assert gates.run_gates("x")


class TestAssignedLater:
    @patch("shopfp.gates.read_evidence", autospec=True)  # [undocumented-partial-mock]
    def test_assigned_later(self, read):
        read.return_value = "RETRY"
        assert gates.run_gates("x") is None


class TestSideEffectRaises:
    def test_side_effect_raises(self, mocker):
        mocker.patch("shopfp.gates.read_evidence", side_effect=KeyError("x"))  # [undocumented-partial-mock]
        with pytest.raises(KeyError):
            gates.run_gates("x")


class TestSideEffectCoversAll:
    def test_side_effect_covers_all(self, mocker):
        mocker.patch(  # covers every outcome: not partial
            "shopfp.gates.read_evidence", side_effect=["APPROVED", "RETRY", KeyError("x")], autospec=True
        )


class TestSideEffectAssigned:
    def test_side_effect_assigned(self, mocker):
        spy = mocker.patch("shopfp.gates.read_evidence", autospec=True)  # KeyError is left out, and guarded catches it  # [undocumented-partial-mock]
        spy.side_effect = ["APPROVED", "RETRY"]
        assert gates.guarded("x") == "APPROVED"


class TestSideEffectFunction:
    def test_side_effect_function(self, mocker):
        mocker.patch("shopfp.gates.read_evidence", side_effect=lambda name: name)  # a fake with logic: not judged


class TestTwoPatchesTogetherCoverTheTarget:
    def test_two_patches_together_cover_the_target(self):
        with patch("shopfp.gates.is_open", return_value=True, autospec=True):
            assert gates.is_open("x")
        with patch("shopfp.gates.is_open", return_value=False, autospec=True):
            assert not gates.is_open("x")


class TestStdlibDefaultMock:
    def test_stdlib_default_mock(self):
        with patch("os.path.exists", autospec=True):  # no first-party caller reads the result
            assert os.path.exists("x")


class TestStdlibBothWays:
    def test_stdlib_both_ways(self):
        with patch("os.path.exists", autospec=True) as exists:  # configured both ways: not partial
            exists.side_effect = [True, False]


class TestStdlibLambdas:
    def test_stdlib_lambdas(self, monkeypatch):
        monkeypatch.setattr(shutil, "which", lambda name: None)  # no first-party caller reads the result


class TestStdlibFakeWithLogic:
    def test_stdlib_fake_with_logic(self, monkeypatch):
        monkeypatch.setattr(shutil, "which", lambda name: name)  # depends on its argument: not judged


class TestNotPartial:
    def test_not_partial(self, mocker):
        mocker.patch("shopfp.gates.record", autospec=True)  # one outcome: not partial
        mocker.patch.object(Gate, "check", return_value="ok", autospec=True)  # [undocumented-partial-mock]
        mocker.patch("shopfp.gates.is_open", new_callable=Mock)  # made by a factory: not judged
        double = create_autospec(gates.is_open, return_value=True)  # a double the test calls itself: no caller meets it
        inert = create_autospec(gates.is_open)  # nobody configures it: not judged
        assert double("x") and inert
        assert gates.check_gate("x") == "open"


class TestMalformed:
    # mock-partial: cannot be checked
    #   untested: shopfp.gates.nope
    #   untested: shopfp.gates.run_gates: if status == "X"; why
    #   untested: shopfp.gates.run_gates: except ValueError; why
    #   untested: shopfp.gates.run_gates: when status; why
    #   untested: src/shopfp/missing.py:3->5; why
    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED", autospec=True)  # [malformed-mock-partial, malformed-mock-partial, malformed-mock-partial, malformed-mock-partial, malformed-mock-partial, malformed-mock-partial]
    def test_malformed(self, read):
        assert gates.run_gates("x")


class TestNoEntries:
    # mock-partial: no entries at all
    #   reason: nothing listed
    @mock.patch("shopfp.gates.read_evidence", return_value="APPROVED", autospec=True)  # [malformed-mock-partial]
    def test_no_entries(self, read):
        assert gates.run_gates("x")


class TestPlaceholder:
    # mock-partial: placeholder left by --fix
    #   untested: shopfp.gates.Gate.check: if name is not None
    #   untested: shopfp.gates.Gate.check: else name
    #   reason: <say why this stays untested>
    @mock.patch.object(Gate, "check", return_value="ok", autospec=True)  # [malformed-mock-partial, malformed-mock-partial]
    def test_placeholder(self, check):
        assert Gate().check("x")


class TestWrapped:
    # mock-partial: a wrapped reference and a wrapped reason are fine
    #   untested: shopfp.gates.Gate.check: if name is not
    #     None; the none arm needs a caller that passes None,
    #     and none exists yet
    @mock.patch.object(Gate, "check", return_value="ok", autospec=True)
    def test_wrapped(self, check):
        assert Gate().check("x")


class TestNeverCalled:
    def test_never_called(self, mocker):
        read = mocker.patch("shopfp.gates.read_evidence", return_value="APPROVED", autospec=True)  # asserted never called
        read.assert_not_called()


class TestNeverCalledAttribute:
    def test_never_called_attribute(self):
        with patch("shopfp.gates.read_evidence", return_value="APPROVED", autospec=True) as read:  # never called
            assert not read.called


class TestAlwaysSkipped:
    @pytest.mark.skip(reason="not yet")
    def test_always_skipped(self, mocker):
        mocker.patch("shopfp.gates.read_evidence", return_value="APPROVED", autospec=True)  # always skipped


class TestSometimesSkipped:
    @pytest.mark.skipif(sys.platform == "win32", reason="posix only")
    def test_sometimes_skipped(self, mocker):
        mocker.patch("shopfp.gates.read_evidence", return_value="APPROVED", autospec=True)  # [undocumented-partial-mock]
        assert gates.run_gates("x")


@pytest.fixture
def unrequested(mocker):
    return mocker.patch("shopfp.gates.read_evidence", return_value="APPROVED", autospec=True)  # no test requests it


class TestWrapsSpy:
    def test_wraps_spy(self, mocker):
        mocker.patch("shopfp.gates.read_evidence", wraps=gates.read_evidence)  # a spy: the real function answers


class TestParametrizedAll:
    @pytest.mark.parametrize("is_open", [True, False])
    def test_parametrized_all(self, mocker, is_open):
        mocker.patch("shopfp.gates.is_open", return_value=is_open, autospec=True)  # both values: door takes both arms


class TestParametrizedTuples:
    @pytest.mark.parametrize(("name", "is_open"), [("a", True), pytest.param("b", False, id="closed")])
    def test_parametrized_tuples(self, mocker, name, is_open):
        mocker.patch("shopfp.gates.is_open", return_value=is_open, autospec=True)  # both values, from tuples


class TestParametrizedOne:
    @pytest.mark.parametrize("is_open", [True])
    def test_parametrized_one(self, mocker, is_open):
        mocker.patch("shopfp.gates.is_open", return_value=is_open, autospec=True)  # [undocumented-partial-mock]
        assert gates.door("x") == "in"


def _helper(mocker, is_open):
    return mocker.patch("shopfp.gates.is_open", return_value=is_open, autospec=True)  # a helper's parameter: its callers give the values


class TestUsesHelper:
    def test_uses_helper(self, mocker):
        _helper(mocker, True)
        _helper(mocker, False)


class TestOpenFalse:
    def test_open_false(self, mocker):
        mocker.patch("shopfp.gates.is_open", return_value=False, autospec=True)  # [undocumented-partial-mock]
        assert gates.door("x") == "out"


class TestExpectsKeyerror:
    def test_expects_keyerror(self, mocker):
        mocker.patch("shopfp.gates.read_evidence", side_effect=["APPROVED", "RETRY"], autospec=True)  # KeyError: run_gates has no handler for it
        with pytest.raises(KeyError):
            gates.run_gates("")


class TestHandlerlessException:
    def test_handlerless_exception(self, mocker):
        mocker.patch("shopfp.gates.parse", return_value="X", autospec=True)  # ValueError propagates: nothing tells it apart
        assert gates.parse_all(["x"]) == ["X"]


class TestExpectsValueerror:
    def test_expects_valueerror(self, mocker):
        mocker.patch("shopfp.gates.parse", return_value="X", autospec=True)  # a ValueError the test expects comes from elsewhere: no arm left untaken
        with pytest.raises(ValueError):
            gates.parse_all(["x", ""])


class TestResolvedCaller:
    def test_resolved_caller(self, mocker):
        mocker.patch.object(Gate, "check", return_value="ok", autospec=True)  # [undocumented-partial-mock]
        assert gates.check_gate("x") == "open"  # Gate().check: this caller's arm is named
        assert gates.lookup({}, "x") is not None  # table.check on a dict-like: not a caller of Gate.check


class TestSiblingRaises:
    def test_values(self, mocker):
        mocker.patch("shopfp.gates.read_evidence", side_effect=["APPROVED", "RETRY"], autospec=True)  # the sibling raises
        assert gates.guarded("x") == "APPROVED"

    def test_raises(self, mocker):
        error = KeyError("x")
        read = mocker.patch("shopfp.gates.read_evidence", autospec=True)  # raises the KeyError bound above
        read.side_effect = error
        assert gates.guarded("x") == "MISSING"


class TestOneClass:
    def setup_method(self):
        self.door = gates.door

    def test_first(self, mocker):
        mocker.patch("shopfp.gates.is_open", return_value=True, autospec=True)  # [undocumented-partial-mock]
        assert gates.door("x") == "in"

    def test_second(self, mocker):
        mocker.patch("shopfp.gates.is_open", return_value=True, autospec=True)  # same arm as the first: counted there
        assert self.door("x") == "in"

    def test_third(self, mocker):
        mocker.patch("shopfp.gates.is_open", return_value=True, autospec=True)  # counted at the first
        assert gates.door("y") == "in"


# mock-partial: orphan, above no mock  # [malformed-mock-partial]
#   untested: shopfp.gates.run_gates; nothing
VALUE = 1


EXAMPLE_TEXT = """
# mock-partial: text inside a string is not a block
#   untested: nothing
"""
