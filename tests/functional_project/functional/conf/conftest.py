"""Fixtures for the hygiene cases: one that puts os.environ back, one that
requests it, and two that put module globals back after their yield."""
# pylint: disable=missing-docstring,redefined-outer-name,unused-argument,import-error
import os

import pytest

from shopfp import config as settings
from shopfp import settings_defaults


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


@pytest.fixture(autouse=True)
def keep_retries():
    saved = settings.RETRIES
    yield
    settings.RETRIES = saved


@pytest.fixture
def keep_timeout():
    saved = settings_defaults.TIMEOUT
    try:
        yield
    finally:
        setattr(settings_defaults, "TIMEOUT", saved)


@pytest.fixture(scope="module")
def keep_delay():
    saved = settings_defaults.DELAY
    yield
    settings_defaults.DELAY = saved
