"""A module's function is reached by a test that names it, not by one calling
a method of the same name on an object of a known class: tests entering at
``Console().main`` never run the module's ``main`` and its ``except
Exception`` (python-glanceclient 4.13.0's ``shell.main``: 3 false findings).
A method a test hands on is judged by its object's class, as a call is."""
# pylint: disable=missing-docstring,import-error
import unittest
from unittest import mock

from shopfp import console


class TestEnteringAtTheMethod(unittest.TestCase):
    @mock.patch.object(console.Console, "count", autospec=True, return_value=False)
    def test_arguments(self, count):
        self.assertEqual(0, console.Console().main(["a"]))

    @mock.patch.object(console.Console, "count", autospec=True, return_value=True)
    def test_no_arguments(self, count):
        self.assertEqual(2, console.Console().main([]))


class TestEnteringAtTheModuleFunction(unittest.TestCase):
    @mock.patch.object(console.Console, "count", autospec=True, return_value=False)  # [undocumented-partial-mock]
    def test_arguments(self, count):
        self.assertEqual(0, console.main(["a"]))

    @mock.patch.object(console.Console, "count", autospec=True, return_value=True)
    def test_no_arguments(self, count):
        self.assertEqual(2, console.main([]))


class TestHandingOnAnotherClassesMethod(unittest.TestCase):  # python-heatclient's assertRaises(E, self.cmd.take_action, ...)
    @mock.patch.object(console.Console, "count", autospec=True, side_effect=ValueError)
    def test_reader_fails(self, count):
        self.assertRaises(ValueError, console.Reader().run, ["a"])


class TestHandingOnTheCallersMethod(unittest.TestCase):
    @mock.patch.object(console.Console, "count", autospec=True, side_effect=ValueError)  # [undocumented-partial-mock]
    def test_guard_fails(self, count):
        self.assertRaises(ValueError, console.Guard().run, ["a"])


from shopfp import deploy  # noqa: E402


class TestNamingTheModuleOnly(unittest.TestCase):  # mkdocs 1.6.1's gh_deploy tests
    def test_version(self):
        self.assertEqual(deploy.version(), "1.0")

    @mock.patch("shopfp.deploy._is_repository", return_value=True)  # [undocumented-partial-mock]
    def test_deploy(self, is_repository):
        self.assertEqual(deploy.deploy(), "deployed")


class TestCallingTheFunctionToo(unittest.TestCase):
    def test_deploy_anywhere(self):
        self.assertEqual(deploy.deploy(), "deployed")

    @mock.patch("shopfp.deploy._is_repository", return_value=True)
    def test_deploy(self, is_repository):
        self.assertEqual(deploy.deploy(), "deployed")
