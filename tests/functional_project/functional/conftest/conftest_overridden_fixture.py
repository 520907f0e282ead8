"""A fixture that asks for its own name gets the one it overrides, further
out, as pytest gives it."""
# pylint: disable=missing-docstring,redefined-outer-name
from unittest import mock

import pytest


@pytest.fixture
def storage(storage):
    storage.orders["seed"] = 1
    return storage


def test_patches_the_overridden_fixture(storage, monkeypatch):
    monkeypatch.setattr(storage, "save", mock.Mock())  # [first-party-mock]
