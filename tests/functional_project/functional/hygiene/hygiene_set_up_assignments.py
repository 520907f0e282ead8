"""A set-up method's own assignment to a module's attribute is seen by every
test class that runs after its tests, unless a set-up of a base class assigns
it again before each test (the same exemption as for a test assigning what
its class's set-up assigns)."""
# pylint: disable=missing-docstring,import-error,invalid-name
import unittest

from shopfp import config


class TestLeavesItChanged(unittest.TestCase):
    def setUp(self):
        config.NAME = "set up"  # [unrestored-attribute-assignment]

    def test_name(self):
        config.NAME = "in the test"  # the set-up assigns it before each test of the class
        assert config.NAME


class ResettingBase(unittest.TestCase):
    def setUp(self):
        config.DEBUG = False


class TestResetByItsBase(ResettingBase):
    def setUp(self):
        super().setUp()
        config.DEBUG = True  # the base's set-up assigns it before each test, as for a test's own assignment

    def test_debug(self):
        assert config.DEBUG
