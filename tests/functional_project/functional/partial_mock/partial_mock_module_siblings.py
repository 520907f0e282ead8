"""pytest test functions outside classes: a module's tests pool their mocks of
one target as a class's tests do; a condition read before the call is no arm."""
# pylint: disable=missing-docstring,import-error,unused-argument
from shopfp import gates, turnstile


def test_all_approved(mocker):
    mocker.patch("shopfp.gates.read_evidence", return_value="APPROVED")  # the sibling below gives "RETRY"
    assert turnstile.admit_all(["a"]) == ["a"]


def test_stops_at_retry(mocker):
    mocker.patch("shopfp.gates.read_evidence", return_value="RETRY")
    assert turnstile.admit_all(["a"]) == []


def test_lone_mock_in_the_module(mocker):
    mocker.patch("shopfp.gates.is_open", return_value=True)  # [undocumented-partial-mock]
    assert gates.door("x") == "in"


class TestInAClass:
    def test_not_pooled_with_the_module(self, mocker):
        mocker.patch("shopfp.gates.is_open", return_value=False)  # [undocumented-partial-mock]
        assert gates.door("x") == "out"


def test_condition_before_the_call(mocker):
    mocker.patch("shopfp.gates.is_open", return_value=True)  # door() is not reached here
    mocker.patch("shopfp.gates.read_evidence", side_effect=KeyError("x"))  # the `if` tests the earlier None
    assert turnstile.admit_checked("x", check=False) is None
