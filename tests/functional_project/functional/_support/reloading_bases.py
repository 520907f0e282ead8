"""Base classes of the tests whose tear-down puts a module back by reloading it."""
# pylint: disable=import-error,missing-class-docstring,missing-function-docstring
import importlib
import unittest

from shopfp import config as settings


class ReloadingTestCase(unittest.TestCase):
    def tearDown(self):
        super().tearDown()
        importlib.reload(settings)


class ReloadingSomethingElse(unittest.TestCase):
    def tearDown(self):
        importlib.reload(unittest)
