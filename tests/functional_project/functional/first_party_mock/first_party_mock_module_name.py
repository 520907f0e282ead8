"""A target spelt with the test module's own ``__name__`` names that module:
``patch(f"{__name__}.QuietStorage.save")`` patches the method the test's
subclass inherits from the project (APScheduler 3.11.3's
``patch(f"{__name__}.DummyScheduler.configure")``)."""
# pylint: disable=missing-docstring,import-error
from unittest import mock

from shopfp import storage


class QuietStorage(storage.Storage):
    def describe(self):
        return "quiet"


def test_an_inherited_method():
    with mock.patch(f"{__name__}.QuietStorage.save", autospec=True):  # [first-party-mock]
        pass


def test_a_method_of_the_tests():
    with mock.patch(f"{__name__}.QuietStorage.describe", autospec=True):
        pass
