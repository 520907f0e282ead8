"""Shared state put back by a module function a test registers as a cleanup,
by a fixture that takes an added name away after its yield, or by pytester;
keys a test adds and deletes again; a callback handed to other code."""
# pylint: disable=missing-docstring,import-error,redefined-outer-name
import os
import sys
import types
import unittest

import pytest

from shopfp import config


def _reset_retries():
    config.RETRIES = 3


class TestModuleCleanup(unittest.TestCase):
    def test_registered(self):
        config.RETRIES = 0
        self.addCleanup(_reset_retries)

    def test_not_registered(self):
        config.RETRIES = 1  # [unrestored-attribute-assignment]


@pytest.fixture
def custom_flag():
    config.CUSTOM = True
    yield
    del config.CUSTOM


@pytest.fixture
def custom_flag_kept():
    config.KEPT = True  # [unrestored-attribute-assignment]
    yield


def test_flags(custom_flag, custom_flag_kept):
    assert config.CUSTOM and config.KEPT


def test_with_pytester(pytester):
    sys.modules["shopfp_fake_plugin"] = None
    assert pytester


def test_without_pytester(tmp_path):
    sys.modules["shopfp_fake_plugin"] = None  # [unrestored-sys-modules-mutation]
    assert tmp_path


def test_keys_added_then_taken_back(missing):
    for name in missing:
        sys.modules[name] = types.ModuleType(name)  # [unrestored-sys-modules-mutation]
    for dependency in missing:
        del sys.modules[dependency]
    os.environ["SHOP_MODE"] = "x"  # [unrestored-environ-mutation]
    os.environ.pop("SHOP_MODE")
    os.environ.pop("SHOP_DEBUG")  # [unrestored-environ-mutation]


def test_keys_taken_back_in_finally():
    sys.modules["shopfp_shadow"] = types.ModuleType("shopfp_shadow")
    try:
        pass
    finally:
        del sys.modules["shopfp_shadow"]


def _worker_setup():
    _configure_worker()


def _configure_worker():
    config.RETRIES = 1


def _streaming_worker_setup():
    _configure_worker()


def _called_helper():
    config.RETRIES = 2  # [unrestored-attribute-assignment]


def test_hands_on_a_callback(start_workers):
    start_workers(setup_hook=_worker_setup)
    start_workers(setup_hook=_streaming_worker_setup)
    _called_helper()


def _faster(func):
    def wrapper(*args):
        config.RETRIES = 0  # [unrestored-attribute-assignment]
        return func(*args)
    return wrapper


@_faster
def test_decorated_by_a_helper():
    pass
