"""A def a decorator of the project turns into an object is that object: a
lazy value (a proxy loading the function's result) is what the function
returns, a constant or an outside function left alone; an object wrapping the
function is a first-party instance."""
# pylint: disable=missing-docstring,import-error
from unittest import mock

from shopfp import lazy


def test_separators_swapped():
    with mock.patch.object(lazy, "SEPARATORS", (";", ",")):
        assert lazy.split("a;b") == ["a;b"]


def test_outside_function_behind_a_lazy_value(monkeypatch):
    monkeypatch.setattr(lazy, "list_attributes", lambda path: [])
    assert not lazy.list_attributes("/")


def test_lazy_value_of_a_first_party_object(monkeypatch):
    monkeypatch.setattr(lazy, "default_registry", mock.Mock())  # [first-party-mock]
    assert lazy.default_registry


def test_wrapped_function_replaced():
    with mock.patch.object(lazy, "normalise") as normalise:  # [first-party-mock]
        normalise.return_value = "x"
        assert lazy.normalise(" x ") == "x"


def test_function_under_a_wrapper_named_like_a_command():
    with mock.patch.object(lazy, "restart", return_value="ok"):  # [first-party-mock]
        assert lazy.restart("db") == "ok"


def test_value_of_a_descriptor_of_the_project(monkeypatch):
    monkeypatch.setattr(lazy.Schema, "fields", {"id": int, "name": str})  # a dict, what the descriptor gives
    assert lazy.Schema().describe() == ["id", "name"]


def test_method_of_the_class_holding_the_descriptor():
    with mock.patch.object(lazy.Schema, "describe"):  # [first-party-mock]
        pass
