"""Functions that put things back (called from a tear-down, a finally block
or a fixture's code after its yield) are restoring code; a statement a test
expects to raise changes nothing."""
# pylint: disable=missing-docstring,import-error
import os
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


class EnvironmentBase(unittest.TestCase):
    def _clear_proxy_vars(self):
        self._saved_environ = {}
        for key in list(os.environ):
            if key.endswith("_PROXY"):
                self._saved_environ[key] = os.environ.pop(key)  # each set-up calling it has a tear-down putting it back

    def _set_debug_var(self):
        os.environ["SHOP_DEBUG"] = "1"  # [unrestored-environ-mutation]

    def _clear_locale(self):
        self._saved_environ["LANG"] = os.environ.pop("LANG", "C")  # [unrestored-environ-mutation]

    def _put_proxy_vars_back(self):
        os.environ.update(self._saved_environ)  # a subclass's tear-down calls it: restoring code


class TestWithoutProxies(EnvironmentBase):
    def setUp(self):
        self._clear_proxy_vars()

    def tearDown(self):
        self._put_proxy_vars_back()

    def test_no_proxy(self):
        assert "HTTP_PROXY" not in os.environ


class TestDebugLeftOn(EnvironmentBase):
    def setUp(self):
        self._set_debug_var()  # and no tear-down takes it back

    def test_debug(self):
        assert os.environ["SHOP_DEBUG"] == "1"


class TestLocaleFromASetUp(EnvironmentBase):
    def setUp(self):
        self._saved_environ = {}
        self._clear_locale()

    def tearDown(self):
        self._put_proxy_vars_back()

    def test_locale(self):
        assert "LANG" not in os.environ


class TestLocaleFromATest(EnvironmentBase):
    def test_cleared(self):
        self._saved_environ = {}
        self._clear_locale()  # a test calls it too, and nothing puts it back after this one
        assert "LANG" not in os.environ
