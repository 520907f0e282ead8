"""Mocks that answer anything, and the ways to give them a spec."""
# pylint: disable=missing-docstring,import-error,unused-argument
import sys
from unittest import mock
from unittest.mock import MagicMock, Mock, PropertyMock, create_autospec

from shopfp import jobs
from shopfp.storage import Storage


@mock.patch("shopfp.jobs.time.sleep")  # [unspecced-mock]
def test_patch_without_spec(sleep):
    jobs.run("a")


@mock.patch("shopfp.jobs.time.sleep", autospec=True)
def test_patch_with_autospec(sleep):
    jobs.run("a")


def test_patch_forms(mocker):
    with mock.patch.object(jobs, "jsonlib"):  # [unspecced-mock]
        pass
    with mock.patch("shopfp.jobs.time.sleep", spec=None):  # [unspecced-mock]
        pass
    with mock.patch("shopfp.jobs.time.sleep", autospec=False):  # [unspecced-mock]
        pass
    with mock.patch("shopfp.jobs.time.sleep", new=lambda seconds: None):
        pass
    with mock.patch("shopfp.jobs.time.sleep", lambda seconds: None):
        pass
    with mock.patch.object(jobs, "time", new_callable=lambda: MagicMock(spec=["sleep"])):
        pass
    mocker.patch("shopfp.jobs.time.sleep")  # [unspecced-mock]
    mocker.patch.multiple("shopfp.jobs", sleep=mock.DEFAULT)  # [unspecced-mock]
    mocker.patch.multiple("shopfp.jobs", time=jobs.time, sleep=mock.DEFAULT)  # [unspecced-mock]
    mocker.patch.multiple("shopfp.jobs", autospec=True, sleep=mock.DEFAULT)
    mocker.patch.dict(sys.modules, {"yaml": None})


def test_mock_classes():
    open_double = Mock()  # [unspecced-mock]
    magic = MagicMock(spec=None)  # [unspecced-mock]
    mistaken = Mock(autospec=True)  # [unspecced-mock]
    specced = Mock(Storage)
    frozen = MagicMock(spec_set=["save"])
    wrapped = Mock(wraps=Storage())
    prop = PropertyMock(return_value=3)
    auto = create_autospec(Storage)
    assert None not in (open_double, magic, mistaken, specced, frozen, wrapped, prop, auto)


def test_isolation_annotations():
    # mock-isolation: stands in for any plugin object the registry may hold
    plugin = Mock()
    registry = {"plugin": plugin}
    loose = MagicMock()  # mock-isolation:  # [mock-annotation-without-reason]
    assert registry and loose


def test_patch_wrapping_the_real_function(mocker):
    mocker.patch("shopfp.jobs.sleep", wraps=jobs.sleep)
    with mock.patch("shopfp.jobs.sleep", wraps=jobs.sleep, return_value=None):
        pass
    mocker.patch("shopfp.jobs.sleep", wraps=True)  # [unspecced-mock]


def patch_returning(target, value):
    patcher = mock.patch(target, return_value=value)  # [unspecced-mock]
    return patcher.start()


def test_through_a_helper():
    patch_returning("shopfp.jobs.sleep", None)  # [unspecced-mock]


def test_a_double_handed_to_the_patch(monkeypatch):
    monkeypatch.setattr("shopfp.jobs.sleep", mock.MagicMock(return_value=None))  # [unspecced-mock]
    with mock.patch.object(jobs, "sleep", mock.Mock()):  # [unspecced-mock]
        pass
    with mock.patch("shopfp.jobs.sleep", new=mock.Mock(spec=jobs.sleep)):
        pass


@mock.patch("shopfp.jobs.time")
def test_spec_added_to_the_handed_mock(time_module):
    time_module.mock_add_spec(["sleep", "monotonic"])
    jobs.run("a")


@mock.patch("shopfp.jobs.time")  # [unspecced-mock]
def test_spec_added_to_a_child_only(time_module):
    time_module.sleep.mock_add_spec(["__call__"])
    jobs.run("a")


def test_patch_of_an_attribute_of_an_open_mock():  # the advice: a spec for the mock, not autospec
    client = Mock()  # [unspecced-mock]
    with mock.patch.object(client.images, "list", return_value=[]):  # [unspecced-mock]
        jobs.run("a")


class RecordingMock(mock.MagicMock):
    """A MagicMock subclass of the tests: the message names it as the test spells it."""


def test_a_mock_subclass_without_a_spec():
    storage = RecordingMock(return_value=None)  # [unspecced-mock]
    storage()


@mock.patch("shopfp.jobs.open", side_effect=OSError)  # [unspecced-mock]  (mock creates the builtin: new= carries the spec)
def test_patch_of_a_builtin_the_module_lacks(opened):
    jobs.run("a")


@mock.patch("shopfp.jobs.open", MagicMock(spec=open, side_effect=OSError))
def test_patch_of_a_builtin_with_a_specced_replacement():
    jobs.run("a")
