"""Another mock of the same test takes the arm, or keeps the code from
reaching it: neither is an arm this mock leaves untested."""
# pylint: disable=missing-docstring,import-error
import pytest

from shopfp import vault


def test_handler_taken_by_another_mock(mocker):
    mocker.patch("shopfp.vault.unlock", return_value="k", autospec=True)
    mocker.patch("shopfp.vault.is_sealed", side_effect=vault.VaultError, autospec=True)
    assert vault.open_box("x") == "refused"


def test_handler_left_untaken(mocker):
    mocker.patch("shopfp.vault.unlock", return_value="k", autospec=True)  # [undocumented-partial-mock]
    assert vault.open_box("x") == "opened"


def test_condition_after_a_call_that_raises(mocker):
    mocker.patch("shopfp.vault.validate", side_effect=vault.VaultError, autospec=True)
    mocker.patch("shopfp.vault.is_sealed", return_value=True, autospec=True)
    with pytest.raises(vault.VaultError):
        vault.store("x")


def test_condition_reached(mocker):
    mocker.patch("shopfp.vault.is_sealed", return_value=True, autospec=True)  # [undocumented-partial-mock]
    assert vault.store("x") == "kept"
