"""Fixtures for the hygiene cases: ones that put os.environ back (whole, or
key by key as pypa/distutils' ``save_env`` does), one that requests it, ones
that put module globals back after their yield, of the project or of the
standard library (``sys.argv``, by rebinding or through a whole slice)."""
# pylint: disable=missing-docstring,redefined-outer-name,unused-argument,import-error
import os
import sys

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


@pytest.fixture
def save_env():
    orig = os.environ.copy()
    try:
        yield
    finally:
        for key in set(os.environ) - set(orig):
            del os.environ[key]
        for key, value in orig.items():
            if os.environ.get(key) != value:
                os.environ[key] = value


@pytest.fixture
def save_argv():
    orig = sys.argv[:]
    try:
        yield
    finally:
        sys.argv[:] = orig


@pytest.fixture
def keep_argv():
    orig = sys.argv
    yield
    sys.argv = orig
