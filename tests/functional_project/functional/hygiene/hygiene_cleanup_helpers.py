"""Functions that put things back (called from a tear-down, a finally block
or a fixture's code after its yield) are restoring code; a statement a test
expects to raise changes nothing."""
# pylint: disable=missing-docstring,import-error
import sys
import unittest

import pytest

from shopfp import config


def _drop_synthetic(prefix):
    for name in [m for m in sys.modules if m.startswith(prefix)]:
        sys.modules.pop(name)


def reset_modules():
    sys.modules["synthetic_four"] = sys  # [unrestored-sys-modules-mutation]


def _forget_synthetic():
    sys.modules.pop("synthetic_three", None)


@pytest.fixture
def clean_synthetic():
    yield
    _forget_synthetic()


def _make_synthetic(name):
    sys.modules[name] = sys  # [unrestored-sys-modules-mutation]


class TestSynthetic(unittest.TestCase):
    def tearDown(self):
        _drop_synthetic("synthetic_")

    def test_made(self):
        _make_synthetic("synthetic_one")


def test_made_and_dropped():
    try:
        _make_synthetic("synthetic_two")
    finally:
        _drop_synthetic("synthetic_")


def test_reset_by_name():  # a name says nothing: only tests call it
    reset_modules()


def test_starts_clean(clean_synthetic):  # the fixture's clean-up, called to start clean too
    _forget_synthetic()


def test_refused_assignment():
    with pytest.raises(ValueError):
        config.RETRIES = int("three")


def test_assignment_before_the_raise():
    with pytest.raises(ValueError):
        config.RETRIES = 0  # [unrestored-attribute-assignment]
        int("three")


def test_saved_and_put_back():
    saved = sys.modules["json"]
    sys.modules["json"] = None  # [unrestored-sys-modules-mutation]
    sys.modules["json"] = saved  # the saved value put back: only if the test passes
