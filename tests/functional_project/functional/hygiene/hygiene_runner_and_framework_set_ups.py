"""Django's per-test hook ``_pre_setup`` resets what it assigns before every
test, as ``setUp`` does; a runner script's functions run around the whole suite."""
# pylint: disable=missing-docstring,import-error,invalid-name,too-few-public-methods
import unittest

from shopfp import config


class FrameworkTestCase(unittest.TestCase):
    def _pre_setup(self):
        config.NAME = "test"


class TestResetByThePerTestHook(FrameworkTestCase):
    def test_mode_changed(self):
        config.NAME = "live"  # the hook puts it back before the next test
        self.assertEqual(config.NAME, "live")

    def test_other_attribute_changed(self):
        config.RETRIES = 0  # [unrestored-attribute-assignment]
        self.assertEqual(config.RETRIES, 0)


class ModeMixin:
    def change_mode(self):
        config.NAME = "checked"  # every class combining the mixin resets it before each test


class TestCombined(ModeMixin, FrameworkTestCase):
    def test_change(self):
        self.change_mode()


class RetriesMixin:
    def change_retries(self):
        config.RETRIES = 5  # [unrestored-attribute-assignment]


class TestCombinedWithAPlainCase(RetriesMixin, unittest.TestCase):
    def test_change(self):
        self.change_retries()
