"""A getter a conftest sets on ``builtins`` (IPython's ``get_ipython``), and a
class's one instance from a library's singleton base (``Registry.instance()``)."""
# pylint: disable=missing-docstring,import-error,undefined-variable
from unittest import mock

from shopfp.registry import Registry


def test_a_getter_the_conftest_sets_on_builtins():
    store = open_default_storage()  # noqa: F821
    with mock.patch.object(store, "save", autospec=True):  # [first-party-mock]
        pass


def test_the_one_instance_of_a_singleton():
    registry = Registry.instance()
    with mock.patch.object(registry, "lookup", autospec=True):  # [first-party-mock]
        pass
