"""Another mock of the same test takes the arm, or keeps the code from
reaching it: neither is an arm this mock leaves untested."""
# pylint: disable=missing-docstring,import-error
import pytest

from shopfp import vault


class TestHandlerTakenByAnotherMock:
    def test_handler_taken_by_another_mock(self, mocker):
        mocker.patch("shopfp.vault.unlock", return_value="k", autospec=True)
        mocker.patch("shopfp.vault.is_sealed", side_effect=vault.VaultError, autospec=True)
        assert vault.open_box("x") == "refused"


class TestHandlerLeftUntaken:
    def test_handler_left_untaken(self, mocker):
        mocker.patch("shopfp.vault.unlock", return_value="k", autospec=True)  # [undocumented-partial-mock]
        assert vault.open_box("x") == "opened"


class TestConditionAfterACallThatRaises:
    def test_condition_after_a_call_that_raises(self, mocker):
        mocker.patch("shopfp.vault.validate", side_effect=vault.VaultError, autospec=True)
        mocker.patch("shopfp.vault.is_sealed", return_value=True, autospec=True)
        with pytest.raises(vault.VaultError):
            vault.store("x")


class TestConditionReached:
    def test_condition_reached(self, mocker):
        mocker.patch("shopfp.vault.is_sealed", return_value=True, autospec=True)  # [undocumented-partial-mock]
        assert vault.store("x") == "kept"


class TestSiblingRaisesInTheSameTry:
    def test_opened(self, mocker):
        mocker.patch("shopfp.vault.unlock", return_value="k", autospec=True)  # the sibling's is_sealed takes the handler
        assert vault.open_box("x") == "opened"

    def test_refused(self, mocker):
        mocker.patch("shopfp.vault.is_sealed", side_effect=vault.VaultError, autospec=True)
        assert vault.open_box("x") == "refused"


class TestSiblingRaisesOutsideTheTry:
    def test_opened(self, mocker):
        mocker.patch("shopfp.vault.unlock", return_value="k", autospec=True)  # [undocumented-partial-mock]
        assert vault.open_and_audit("x") == "k"

    def test_audit_fails(self, mocker):
        mocker.patch("shopfp.vault.audit", side_effect=vault.VaultError, autospec=True)
        with pytest.raises(vault.VaultError):
            vault.open_and_audit("x")


import unittest  # noqa: E402
from unittest import mock  # noqa: E402


class TestHelperTakingPatches(unittest.TestCase):
    @mock.patch("shopfp.vault.unlock", autospec=True)  # its mock comes after the helper's own arguments
    @mock.patch("shopfp.vault.is_sealed", autospec=True)
    def _check(self, name, expected, sealed, unlock):
        unlock.return_value = name
        sealed.side_effect = vault.VaultError
        self.assertEqual(vault.open_box(name), expected)

    def test_refused(self):
        self._check("x", "refused")


class TestConditionAfterAGuardAnotherMockCloses:
    def test_condition_after_a_guard_another_mock_closes(self, mocker):
        mocker.patch("shopfp.vault.can_store", return_value=False, autospec=True)  # [undocumented-partial-mock]
        mocker.patch("shopfp.vault.is_sealed", return_value=True, autospec=True)  # its arms are past the guard
        assert vault.guarded_store("x") is None


class TestConditionAfterAGuardAnotherMockOpens:
    def test_condition_after_a_guard_another_mock_opens(self, mocker):
        mocker.patch("shopfp.vault.can_store", return_value=True, autospec=True)  # [undocumented-partial-mock]
        mocker.patch("shopfp.vault.is_sealed", return_value=True, autospec=True)  # [undocumented-partial-mock]
        assert vault.guarded_store("x") == "kept"
