"""Where a block may go: directly above the one mock it is about."""
# pylint: disable=missing-docstring,import-error,unused-argument
from unittest.mock import Mock, patch

from shopfp import gates


def test_two_mocks_on_one_line():
    # mock-partial: which of the two?
    #   untested: shopfp.gates.run_gates: else status == "APPROVED"; one test approves only
    with patch("shopfp.gates.read_evidence", return_value="APPROVED"), patch("shopfp.gates.is_open", return_value=True):  # [malformed-mock-partial]
        assert gates.run_gates("x")


def test_backslash_continued_with():
    # mock-partial: which of the two?
    #   untested: shopfp.gates.run_gates: else status == "APPROVED"; one test approves only
    with patch("shopfp.gates.read_evidence", return_value="APPROVED"), \
            patch("shopfp.gates.is_open", return_value=True):  # -1: [malformed-mock-partial]
        assert gates.run_gates("x")


def test_mock_not_on_the_line_below():
    # mock-partial: the block is above 'result =', its mock below it  # [malformed-mock-partial]
    #   untested: shopfp.gates.run_gates: else status == "APPROVED"; one test approves only
    result = [
        patch("shopfp.gates.read_evidence", return_value="APPROVED"),
    ]
    assert result


def test_bracketed_with_above_two():
    # mock-partial: above the bracket, two mocks inside  # [malformed-mock-partial]
    #   untested: shopfp.gates.run_gates: else status == "APPROVED"; one test approves only
    with (
        patch("shopfp.gates.read_evidence", return_value="APPROVED"),  # [undocumented-partial-mock]
        patch("shopfp.gates.is_open", return_value=True),
    ):
        assert gates.run_gates("x")


def test_one_mock_per_line_each_with_its_block():
    with (
        # mock-partial: the critic always approves here
        #   untested: shopfp.gates.run_gates: else status == "APPROVED"; one test approves only
        patch("shopfp.gates.read_evidence", return_value="APPROVED"),
        patch("shopfp.gates.is_open", return_value=True),
    ):
        assert gates.run_gates("x")


# mock-partial: a mock made inside the patch's own call is part of it
#   untested: shopfp.gates.run_gates: else status == "APPROVED"; one test approves only
@patch("shopfp.gates.read_evidence", new=Mock(return_value="APPROVED"))
def test_inner_double():
    assert gates.run_gates("x")


# mock-partial: stacked decorators: the block is about the one below it
#   untested: shopfp.gates.run_gates: else status == "APPROVED"; one test approves only
@patch("shopfp.gates.read_evidence", return_value="APPROVED")
@patch("shopfp.gates.is_open", return_value=True)
def test_stacked(is_open, read):
    assert gates.run_gates("x")


def test_backslash_with_one_mock_below_the_block():
    # mock-partial: its one mock is on the continued line  # [malformed-mock-partial]
    #   untested: shopfp.gates.run_gates: else status == "APPROVED"; one test approves only
    with open(__file__, encoding="utf-8") as handle, \
            patch("shopfp.gates.read_evidence", return_value="APPROVED"):  # the same arms as line 36: counted there
        assert handle and gates.run_gates("x")
