"""Mocks that give fewer outcomes than their targets, with and without blocks."""
# pylint: disable=missing-docstring,import-error,unused-argument
import os.path
import shutil
from unittest import mock
from unittest.mock import Mock, create_autospec, patch

from shopfp import gates
from shopfp.gates import Gate


@patch("shopfp.gates.read_evidence", return_value="APPROVED", autospec=True)  # [undocumented-partial-mock]
def test_constant_return(read):
    assert gates.run_gates("x")


# mock-partial: the critic always approves here
#   untested: shopfp.gates.run_gates: else status == "APPROVED"
#   untested: shopfp.gates.run_gates: except KeyError; no test raises through the gate yet
#   reason: covered by tests/test_gates.py::test_retry
@patch("shopfp.gates.read_evidence", return_value="APPROVED", autospec=True)
def test_documented(read):
    assert gates.run_gates("x")


@patch("shopfp.gates.read_evidence", autospec=True)  # [undocumented-partial-mock]
def test_assigned_later(read):
    read.return_value = "RETRY"
    assert gates.run_gates("x") is None


def test_side_effect_raises(mocker):
    mocker.patch("shopfp.gates.read_evidence", side_effect=KeyError("x"))  # [undocumented-partial-mock]


def test_side_effect_covers_all(mocker):
    mocker.patch(  # covers every outcome: not partial
        "shopfp.gates.read_evidence", side_effect=["APPROVED", "RETRY", KeyError("x")], autospec=True
    )


def test_side_effect_assigned(mocker):
    spy = mocker.patch("shopfp.gates.read_evidence", autospec=True)  # [undocumented-partial-mock]
    spy.side_effect = ["APPROVED", "RETRY"]


def test_side_effect_function(mocker):
    mocker.patch("shopfp.gates.read_evidence", side_effect=lambda name: name)  # a fake with logic: not judged


def test_two_patches_together_cover_the_target():
    with patch("shopfp.gates.is_open", return_value=True, autospec=True):
        assert gates.is_open("x")
    with patch("shopfp.gates.is_open", return_value=False, autospec=True):
        assert not gates.is_open("x")


def test_stdlib_default_mock():
    with patch("os.path.exists", autospec=True):  # [undocumented-partial-mock]
        assert os.path.exists("x")


def test_stdlib_both_ways():
    with patch("os.path.exists", autospec=True) as exists:  # configured both ways: not partial
        exists.side_effect = [True, False]


def test_stdlib_lambdas(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)  # [undocumented-partial-mock]


def test_stdlib_fake_with_logic(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: name)  # depends on its argument: not judged


def test_not_partial(mocker):
    mocker.patch("shopfp.gates.record", autospec=True)  # one outcome: not partial
    mocker.patch.object(Gate, "check", return_value="ok", autospec=True)  # [undocumented-partial-mock]
    mocker.patch("shopfp.gates.is_open", new_callable=Mock)  # made by a factory: not judged
    double = create_autospec(gates.is_open, return_value=True)  # [undocumented-partial-mock]
    inert = create_autospec(gates.is_open)  # nobody configures it: not judged
    assert double("x") and inert


# mock-partial: cannot be checked
#   untested: shopfp.gates.nope
#   untested: shopfp.gates.run_gates: if status == "X"; why
#   untested: shopfp.gates.run_gates: except ValueError; why
#   untested: shopfp.gates.run_gates: when status; why
#   untested: src/shopfp/missing.py:3->5; why
@mock.patch("shopfp.gates.read_evidence", return_value="APPROVED", autospec=True)  # [malformed-mock-partial, malformed-mock-partial, malformed-mock-partial, malformed-mock-partial, malformed-mock-partial, malformed-mock-partial]
def test_malformed(read):
    assert gates.run_gates("x")


# mock-partial: no entries at all
#   reason: nothing listed
@mock.patch("shopfp.gates.read_evidence", return_value="APPROVED", autospec=True)  # [malformed-mock-partial]
def test_no_entries(read):
    assert gates.run_gates("x")


# mock-partial: placeholder left by --fix
#   untested: shopfp.gates.Gate.check: if name is not None
#   untested: shopfp.gates.Gate.check: else name
#   reason: <say why this stays untested>
@mock.patch.object(Gate, "check", return_value="ok", autospec=True)  # [malformed-mock-partial, malformed-mock-partial]
def test_placeholder(check):
    assert Gate().check("x")


# mock-partial: a wrapped reference and a wrapped reason are fine
#   untested: shopfp.gates.Gate.check: if name is not
#     None; the none arm needs a caller that passes None,
#     and none exists yet
@mock.patch.object(Gate, "check", return_value="ok", autospec=True)
def test_wrapped(check):
    assert Gate().check("x")


# mock-partial: orphan, above no mock  # [malformed-mock-partial]
#   untested: shopfp.gates.run_gates; nothing
VALUE = 1


EXAMPLE_TEXT = """
# mock-partial: text inside a string is not a block
#   untested: nothing
"""
