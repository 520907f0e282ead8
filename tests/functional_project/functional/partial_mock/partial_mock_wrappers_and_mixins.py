"""A function returning another project function's call answers what that
one answers (docker 6.1.3's ``auth.resolve_authconfig``); a method a test
calls on an object of a class inheriting it is reached, though the file never
names the mixin defining it (docker's ``APIClient().push``)."""
# pylint: disable=missing-docstring,import-error
import unittest
from unittest import mock

from shopfp import registry_auth


class TestAWrapperAnswering(unittest.TestCase):
    @mock.patch("shopfp.registry_auth.find_credentials", return_value=None)  # [undocumented-partial-mock]
    def test_no_credentials(self, find_credentials):
        self.assertIsNone(registry_auth.auth_header("r"))


class TestThroughAMixin(unittest.TestCase):
    def setUp(self):
        self.client = registry_auth.Client()

    @mock.patch("shopfp.registry_auth.is_signed", return_value=True)  # [undocumented-partial-mock]
    def test_push_signed(self, is_signed):
        self.assertEqual(self.client.push("a.sig"), {"signed": "a.sig"})


class TestThroughAnUntypedObject(unittest.TestCase):
    def setUp(self):
        self.client = mock.Mock()

    @mock.patch("shopfp.registry_auth.is_signed", return_value=True)
    def test_push_signed(self, is_signed):
        self.client.push("a.sig")
