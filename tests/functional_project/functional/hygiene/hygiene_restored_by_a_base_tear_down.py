"""A base class's tear-down, in this file or another, that reloads a module
puts back every attribute a test of a class built on it assigns on that
module, whatever name the base imports it by. Reloading another module
puts back nothing of this one."""
# pylint: disable=missing-docstring,import-error,invalid-name
import importlib
import unittest

from _support import reloading_bases
from shopfp import config as c


class LocalReloadingBase(unittest.TestCase):
    def tearDown(self):
        importlib.reload(c)


class TestReloadedByTheLocalBase(LocalReloadingBase):
    def test_name(self):
        c.NAME = "changed"  # the base's tear-down reloads the module
        assert c.NAME


class TestReloadedByABaseElsewhere(reloading_bases.ReloadingTestCase):
    def test_debug(self):
        c.DEBUG = True  # a base in another module reloads it, imported there as `settings`
        assert c.DEBUG


class TestTwoLevelsDown(TestReloadedByABaseElsewhere):
    def test_debug_again(self):
        c.DEBUG = False  # the base of its base reloads it
        assert not c.DEBUG


class TestAnotherModuleReloaded(reloading_bases.ReloadingSomethingElse):
    def test_name(self):
        c.NAME = "left changed"  # [unrestored-attribute-assignment]
        assert c.NAME
