"""Assigning an attribute the value its class (or a base class) declares
changes nothing a later test could see: the same class, function or literal."""
# pylint: disable=missing-docstring,import-error
import unittest

from shopfp.drivers import Connection, Driver, SecureConnection


class TestDeclaredValues(unittest.TestCase):
    def setUp(self):
        Driver.connection_class = Connection  # what the class declares
        Driver.name = None  # what its base class declares

    def test_connects(self):
        assert isinstance(Driver().connect(), Connection)


class TestOtherValues(unittest.TestCase):
    def setUp(self):
        Driver.connection_class = SecureConnection  # [unrestored-attribute-assignment]
        Driver.name = "secure"  # [unrestored-attribute-assignment]

    def test_connects(self):
        assert Driver().connect()


class TestAnObjectMadeAnew(unittest.TestCase):
    def setUp(self):
        Driver.connection_class = Connection()  # [unrestored-attribute-assignment]

    def test_connects(self):
        assert Driver.connection_class
