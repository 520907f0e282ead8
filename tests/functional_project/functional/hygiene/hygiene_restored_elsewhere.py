"""Shared state put back by a module function a test registers as a cleanup,
by a fixture that takes an added name away after its yield, or by pytester."""
# pylint: disable=missing-docstring,import-error,redefined-outer-name
import sys
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
