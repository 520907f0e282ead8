"""pytest-mock and monkeypatch forms."""
# pylint: disable=missing-docstring,import-error,unnecessary-lambda-assignment
import sys

import pytest

from shopfp import jobs, storage


def test_mocker(mocker):
    mocker.patch("shopfp.jobs.run")  # [first-party-mock]
    mocker.patch.object(storage.Storage, "save")  # [first-party-mock]
    mocker.patch.multiple(jobs.Runner, claim=mocker.DEFAULT)  # [first-party-mock]
    mocker.patch.dict(sys.modules, {"shopfp.jobs": mocker.MagicMock()})  # [first-party-mock]
    built = mocker.create_autospec(storage.Storage)  # [first-party-mock]
    built.load.side_effect = KeyError
    double = mocker.Mock(spec=storage.Storage)  # [first-party-mock]
    double.save.return_value = 1


def test_other_mocker_scopes(class_mocker, session_mocker):
    class_mocker.patch("shopfp.jobs.helper")  # [first-party-mock]
    session_mocker.patch.object(jobs, "run")  # [first-party-mock]


def test_spy_is_not_a_replacement(mocker):
    mocker.spy(storage.Storage, "save")


def test_monkeypatch(monkeypatch):
    monkeypatch.setattr("shopfp.jobs.run", lambda order_id: None)  # [first-party-mock]
    monkeypatch.setattr(jobs, "helper", lambda: 0)  # [first-party-mock]
    monkeypatch.delattr(storage.Storage, "load")  # [first-party-mock]
    monkeypatch.setitem(sys.modules, "shopfp.util", object())  # [first-party-mock]


def test_monkeypatch_context():
    with pytest.MonkeyPatch.context() as patcher:
        patcher.setattr(jobs.Runner, "claim", lambda self: 1)  # [first-party-mock]


def test_monkeypatch_context(monkeypatch):
    with monkeypatch.context() as patching:
        patching.setattr("shopfp.jobs.run", lambda order_id: None)  # [first-party-mock]


from shopfp import registered  # noqa: E402


def test_class_a_registry_sets_on_its_package(mocker):
    mocker.patch.object(registered.Widget, "save")  # [first-party-mock]
    mocker.patch("shopfp.registered.Widget.save")  # [first-party-mock]


@pytest.mark.parametrize("name", ["run", "assign", pytest.param("run")])
def test_target_spelt_from_a_parameter(mocker, name):
    mocker.patch(f"shopfp.jobs.{name}")  # [first-party-mock]


@pytest.mark.parametrize("name", ["os", "sys"])
def test_target_spelt_from_a_parameter_outside(mocker, name):
    mocker.patch(f"{name}.getcwd")


@pytest.mark.parametrize("name, other", [("run", "x"), ("assign", "y")])
def test_target_spelt_from_a_parameter_of_several(mocker, name, other):
    mocker.patch(f"shopfp.jobs.{name}")  # [first-party-mock]
    mocker.patch(f"shopfp.jobs.{name}.{other}")


@pytest.mark.parametrize("storage_class", [storage.Storage, storage.SqlStorage])
def test_a_class_a_parametrize_mark_gives(mocker, storage_class):
    mocker.patch.object(storage_class, "save", autospec=True)  # [first-party-mock]


@pytest.mark.parametrize("module", [sys])
def test_a_library_module_a_parametrize_mark_gives(mocker, module):
    mocker.patch.object(module, "exit", autospec=True)


@pytest.mark.parametrize("method_name", ["save", "load"])
def test_an_attribute_name_a_parametrize_mark_gives(mocker, method_name):
    mocker.patch.object(storage.Storage, method_name, autospec=True)  # [first-party-mock]


STORAGE_CLASSES = [(storage.Storage, "memory"), (storage.SqlStorage, "sql")]
STORAGE_CLASSES.append((storage.Storage, "spare"))  # a row added at run time: the literal still names some


@pytest.mark.parametrize("storage_class, kind", STORAGE_CLASSES)
def test_a_class_a_module_level_list_gives(mocker, storage_class, kind):
    mocker.patch.object(storage_class, "load", autospec=True)  # [first-party-mock]
    assert kind


def test_a_base_named_through_dunder_bases(mocker):
    mocker.patch.object(storage.SqlStorage.__bases__[0], "load", autospec=True)  # [first-party-mock]
    mocker.patch.object(storage.SqlStorage.__bases__[5], "load", autospec=True)  # no such base: not read
