"""Fixtures for the hygiene cases: one that puts os.environ back, one that requests it."""
# pylint: disable=missing-docstring,redefined-outer-name,unused-argument
import os

import pytest


@pytest.fixture
def clean_environ():
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)


@pytest.fixture
def integration(clean_environ):
    yield


@pytest.fixture
def unrelated():
    yield
