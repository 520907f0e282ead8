"""Tests that only assert calls on first-party mocks."""
# pylint: disable=missing-docstring,unused-argument,import-error
import unittest
from unittest import mock

from shopfp import jobs
from shopfp.storage import Storage


@mock.patch("shopfp.jobs.helper")  # [first-party-mock]
def test_only_call_assertion(helper):
    jobs.assign()
    helper.assert_called_once_with()  # [tautological-mock-assertion]


def test_call_count(mocker):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    jobs.run("a")
    assert save.call_count == 1  # [tautological-mock-assertion]


def test_real_assertion_too(mocker):
    helper = mocker.patch("shopfp.jobs.helper", return_value=3)  # [first-party-mock]
    assert jobs.Runner().claim() == 3
    helper.assert_called_once_with()


def test_call_assertion_on_stdlib_mock():
    with mock.patch("shopfp.jobs.sleep") as sleep:
        jobs.run("a")
    sleep.assert_called_once_with(3)


def test_no_assertions(mocker):
    mocker.patch("shopfp.jobs.helper")  # [first-party-mock]
    jobs.Runner().claim()


class TestUnittestStyle(unittest.TestCase):
    def setUp(self):
        patcher = mock.patch("shopfp.jobs.helper")  # [first-party-mock]
        self.helper = patcher.start()
        self.addCleanup(patcher.stop)

    def test_assert_true_called(self):
        jobs.assign()
        self.assertTrue(self.helper.called)  # [tautological-mock-assertion]

    def test_assert_equal_result(self):
        self.helper.return_value = 5
        self.assertEqual(jobs.Runner().claim(), 5)


def test_mixed_mocks():
    with mock.patch("shopfp.jobs.helper") as helper, mock.patch("shopfp.jobs.sleep") as sleep:  # [first-party-mock]
        jobs.run("a")
    helper.assert_not_called()
    sleep.assert_called_once_with(3)


@mock.patch.object(Storage, "save")  # [first-party-mock]
def test_guard_skips_the_call(save):
    jobs.run(None)
    save.assert_not_called()


def test_count_tied_to_the_input(mocker):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    orders = ["a", "b"]
    for order in orders:
        jobs.run(order)
    assert save.call_count == len(orders)


class TestDecisions(unittest.TestCase):
    def setUp(self):
        patcher = mock.patch.object(Storage, "load")  # [first-party-mock]
        self.load = patcher.start()
        self.addCleanup(patcher.stop)

    def test_not_called(self):
        jobs.run("a")
        self.assertFalse(self.load.called)

    def test_count_from_a_parameter(self, expected=0):
        jobs.run("a")
        self.assertEqual(expected, self.load.call_count)

    def test_count_restated(self):
        jobs.reload("a")
        self.assertEqual(1, self.load.call_count)  # [tautological-mock-assertion]


@mock.patch.object(Storage, "load")  # [first-party-mock]
@mock.patch.object(Storage, "save")  # [first-party-mock]
def test_branch_chosen_by_the_input(save, load, fresh=True):
    jobs.run("a")
    if fresh:
        save.assert_called_once_with("a", 1)
    else:
        load.assert_called_once_with("a")


import pytest  # noqa: E402  (kept here so the cases above keep their lines)


@pytest.mark.parametrize(("order_id", "stored_id"), [("a", "a"), (" b ", "b")])
def test_argument_from_a_parameter(mocker, order_id, stored_id):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    jobs.run(order_id)
    save.assert_called_once_with(stored_id, 1)


def test_argument_the_code_derives(mocker):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    jobs.run("a")
    save.assert_called_once_with("a", 1)


def test_argument_passed_through(mocker):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    order_id = "a"
    jobs.run(order_id)
    save.assert_called_once_with(order_id, mock.ANY)  # [tautological-mock-assertion]


def test_arguments_compared_whole(mocker):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    jobs.run("a")
    assert save.call_args == mock.call("a", mock.ANY)  # [tautological-mock-assertion]


def test_counts_follow_the_sequence(mocker):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    jobs.run("a")
    assert save.call_count == 1
    jobs.run("b")
    assert save.call_count == 2


from shopfp import config  # noqa: E402


def test_constant_the_code_chooses(mocker):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    jobs.run("a")
    save.assert_called_once_with("a", config.RETRIES)


def test_constant_handed_in(mocker):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    jobs.run(config.NAME)
    save.assert_called_once_with(config.NAME, mock.ANY)  # [tautological-mock-assertion]


def test_none_the_code_chooses(mocker):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    jobs.run("a")
    save.assert_has_calls([mock.call("a", None)], any_order=True)


def test_none_handed_in(mocker):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    jobs.run(None)
    save.assert_has_calls([mock.call(None, mock.ANY)], any_order=True)  # [tautological-mock-assertion]


from shopfp import power  # noqa: E402


def test_call_the_code_makes_only_when_a_guard_lets_it(mocker):
    children = mocker.patch("shopfp.power._power_children")  # [first-party-mock]
    power.set_power({"children": [{}]}, "on")
    children.assert_called_once()


def test_call_the_code_always_makes(mocker):
    set_power = mocker.patch("shopfp.power.set_power")  # [first-party-mock]
    power.reboot({})
    assert set_power.call_count == 2  # [tautological-mock-assertion]


def test_count_after_answers_that_change(mocker):
    save = mocker.patch.object(Storage, "save", side_effect=["a", None])  # [first-party-mock]
    jobs.run("a")
    jobs.run("b")
    assert save.call_count == 2


def test_count_after_the_same_answer_twice(mocker):
    save = mocker.patch.object(Storage, "save", side_effect=["a", "a"])  # [first-party-mock]
    jobs.run("a")
    jobs.run("a")
    assert save.call_count == 2  # [tautological-mock-assertion]


from shopfp import relay  # noqa: E402


def test_call_made_on_every_path(mocker):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    order_id = "a"
    relay.forward(order_id)
    save.assert_called_once_with(order_id, mock.ANY)  # [tautological-mock-assertion]


def test_call_made_through_a_helper(mocker):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    order_id = "a"
    relay.forward_through_helper(order_id)
    save.assert_called_once_with(order_id, mock.ANY)  # [tautological-mock-assertion]


def test_call_too_far_from_the_test_to_be_sure(mocker):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    order_id = "a"
    relay.forward_further(order_id)
    save.assert_called_once_with(order_id, mock.ANY)


def test_call_under_a_decorator(mocker):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    order_id = "a"
    relay.forward_forgiving(order_id)
    save.assert_called_once_with(order_id, mock.ANY)


def test_call_also_made_in_a_loop(mocker):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    order_ids = ["a", "b"]
    relay.forward_all(order_ids)
    assert save.call_count == 2


def test_call_the_engine_cannot_see(mocker):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    order_id = "a"
    relay.forward_by_name(order_id)
    save.assert_called_once_with(order_id, mock.ANY)


def test_calls_the_mocked_method_itself(mocker):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    order_id = "a"
    Storage().save(order_id, 1)
    save.assert_called_once_with(order_id, mock.ANY)  # [tautological-mock-assertion]


def test_argument_passed_on_by_a_method(mocker):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    order_id = "a"
    relay.Courier(order_id).deliver(order_id)
    save.assert_called_once_with(order_id, mock.ANY)  # [tautological-mock-assertion]


def test_argument_from_the_objects_state(mocker):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    order_id = "a"
    relay.Courier(order_id).deliver_own()
    save.assert_called_once_with(order_id, mock.ANY)


@mock.patch.object(Storage, "load", new_callable=mock.NonCallableMock)  # [first-party-mock]
def test_a_non_callable_mock_asserts_the_call_is_not_made(load, mocker):
    save = mocker.patch.object(Storage, "save")  # [first-party-mock]
    order_id = "a"
    relay.forward(order_id)
    save.assert_called_once_with(order_id, mock.ANY)


class TestSubclassOverrideMayRun(unittest.TestCase):
    """``make_valve`` is declared to return a Valve, but a subclass overrides
    ``shut`` and decides whether to call the parent's: the assertion checks
    that decision."""

    def setUp(self):
        from shopfp import testing  # pylint: disable=import-outside-toplevel

        self.valve = testing.make_valve("safety")

    def test_shut_reaches_the_parent(self):
        with mock.patch("shopfp.plant.Valve.shut") as shut:  # [first-party-mock]
            self.valve.shut()
            assert shut.called

    def test_built_from_the_class_itself(self):
        from shopfp import plant  # pylint: disable=import-outside-toplevel

        with mock.patch("shopfp.plant.Valve.shut") as shut:  # [first-party-mock]
            plant.Valve().shut()
            assert shut.called  # [tautological-mock-assertion]
