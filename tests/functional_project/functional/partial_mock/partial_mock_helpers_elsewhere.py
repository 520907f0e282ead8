"""A helper that no test of its own file calls serves tests in other files:
which arms those tests and their siblings take cannot be told here."""
# pylint: disable=missing-docstring,import-error
import unittest
from unittest import mock

from shopfp import turnstile


def closed_gatehouse(name):
    with mock.patch("shopfp.gates.is_open", return_value=False):
        return turnstile.Gatehouse(name)


class GatehouseTest(unittest.TestCase):
    """A base class whose tests are its subclasses in other files."""

    def setUp(self):
        self.house = closed_gatehouse("x")

    def build(self, name):
        with mock.patch("shopfp.gates.is_open", return_value=False):
            return turnstile.Gatehouse(name)
