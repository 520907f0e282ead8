"""A copy of an object of the project (``copy.copy``, ``copy.deepcopy``) is an
object of the same class: patching its method replaces the project's code
(virtualenv 20.39.1's ``patch.object(copy.deepcopy(CURRENT), ...)``)."""
# pylint: disable=missing-docstring,import-error
import copy
from unittest import mock

from shopfp import storage


def test_a_deep_copy():
    kept = copy.deepcopy(storage.DEFAULT)
    with mock.patch.object(kept, "save", autospec=True, return_value=None):  # [first-party-mock]
        pass


def test_a_shallow_copy():
    with mock.patch.object(copy.copy(storage.DEFAULT), "load", autospec=True):  # [first-party-mock]
        pass


def test_a_copy_of_a_library_object():
    kept = copy.deepcopy({"a": 1})
    with mock.patch.object(kept, "get", autospec=True):
        pass
