"""Partial mocks whose withheld outcomes nothing on the test's path tells apart."""
# pylint: disable=missing-docstring,import-error
from unittest.mock import patch

import pytest

from shopfp import gates, power


class TestOffThePath:
    @patch("shopfp.gates.read_evidence", return_value="APPROVED", autospec=True)  # its readers are never called here
    def test_off_the_path(self, read):
        assert read("x") == "APPROVED"


class TestSiblings:
    def test_open(self, mocker):
        mocker.patch("shopfp.gates.is_open", return_value=True, autospec=True)  # a sibling takes the else arm
        assert gates.door("x") == "in"

    def test_closed(self, mocker):
        mocker.patch("shopfp.gates.is_open", return_value=False, autospec=True)  # a sibling takes the if arm
        assert gates.door("x") == "out"


class TestOpenAlone:
    def test_open_alone(self, mocker):
        mocker.patch("shopfp.gates.is_open", return_value=True, autospec=True)  # [undocumented-partial-mock]
        assert gates.door("x") == "in"


class TestSameArmMerged:
    def test_same_arm_merged(self, mocker):
        mocker.patch("shopfp.gates.read_evidence", side_effect=KeyError("x"), autospec=True)  # [undocumented-partial-mock]
        with pytest.raises(KeyError):
            gates.verdict("x")  # "APPROVED" and "RETRY" both take `if status is not None`: one arm



class TestHandedOn:
    def test_handed_on(self):
        patchers = [patch("shopfp.gates.is_open", return_value=True, autospec=True)]  # kept in a list: may be configured out of sight
        for patcher in patchers:
            patcher.start()
        assert gates.door("x") == "in"


class TestNestedHelper:
    def test_nested_helper(self, mocker):
        def check(value):
            mocker.patch("shopfp.gates.is_open", return_value=value, autospec=True)  # a helper's parameter: not judged
            return gates.door("x")

        assert check(True) == "in"


class TestRecursiveFunctionMocked:
    @patch("shopfp.power.set_power", autospec=True)  # [undocumented-partial-mock]
    def test_recursive_function_mocked(self, set_power):
        # set_power's own handler never runs while it is mocked: only reboot's arm is withheld
        assert power.reboot({"children": [{}]})


class TestCallerReachedOnlyThroughAMockedFunction:
    @patch("shopfp.power.reboot_all", autospec=True, return_value=[True])
    @patch("shopfp.power.set_power", autospec=True)
    def test_caller_reached_only_through_a_mocked_function(self, set_power, reboot_all):
        # reboot's handler runs only under reboot_all, which this test replaces
        assert power.cycle([{}])


class TestRaisesIntoAHandlerThatSetsTheResult:
    @patch("shopfp.power.probe", side_effect=power.PowerError("x"), autospec=True)  # [undocumented-partial-mock]
    def test_raises_into_a_handler_that_sets_the_result(self, probe):
        # the handler sets state = None, which takes `if state is None`: only the else arm is withheld
        assert power.read_state({}) == "unknown"


from unittest import mock  # noqa: E402

from shopfp import vault  # noqa: E402


class TestMockingWordsNameNoCaller:
    @mock.patch.object(vault, "is_sealed", return_value=True, autospec=True)  # `patch` here names no method Records.patch
    def test_mocking_words_name_no_caller(self, sealed):
        assert vault.listing("x") == ["x"]


class TestCallerNamedLikeAMockingWord:
    @mock.patch.object(vault, "is_sealed", return_value=True, autospec=True)  # [undocumented-partial-mock]
    def test_caller_named_like_a_mocking_word(self, sealed):
        assert vault.Records().patch("x") == "sealed"


class TestInheritedMethodPatchedOnOneSubclass:
    @mock.patch.object(vault.Shelf, "fetch", return_value="k", autospec=True)  # Drawer's fetch stays real
    def test_inherited_method_patched_on_one_subclass(self, fetch):
        assert vault.from_drawer("x") == "x"


class TestInheritedMethodCalledOnThePatchedSubclass:
    @mock.patch.object(vault.Shelf, "fetch", return_value="k", autospec=True)  # [undocumented-partial-mock]
    def test_inherited_method_called_on_the_patched_subclass(self, fetch):
        assert vault.from_shelf("x") == "k"


class TestNamedOnlyInWhatAMockExpects:
    def test_named_only_in_what_a_mock_expects(self, mocker):
        mocker.patch("shopfp.gates.is_open", return_value=True, autospec=True)  # door is never run here
        pool = mocker.Mock()
        pool.submit("x")
        pool.submit.assert_called_once_with(gates.door)


class TestInheritedMethodCalledOnSelfInTheBase:
    @mock.patch.object(vault.Shelf, "fetch", return_value="k", autospec=True)  # [undocumented-partial-mock]
    def test_base_method_runs_on_the_patched_subclass(self, fetch):
        shelf = vault.Shelf()
        assert isinstance(shelf, vault.Locker) and shelf.fetch_or_none("x") == "k"
