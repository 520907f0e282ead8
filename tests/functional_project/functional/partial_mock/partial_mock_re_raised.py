"""A handler that cleans up and raises again what its own ``try`` raises is
taken by a sibling expecting that exception from the caller: the failure
passed through it. Without such a sibling the arm stays untested."""
# pylint: disable=missing-docstring,import-error,unused-argument
import unittest
from unittest import mock

from shopfp import drives


class TestWriteDrive(unittest.TestCase):
    @mock.patch("shopfp.drives.fix_table", autospec=True)
    def test_written(self, fix_table):
        self.assertEqual("sda", drives.write_drive("sda"))

    @mock.patch("shopfp.drives.measure", autospec=True, return_value=100)
    def test_too_big(self, measure):
        self.assertRaises(drives.DriveError, drives.write_drive, "sdb")


class TestWriteDriveAlone(unittest.TestCase):
    @mock.patch("shopfp.drives.fix_table", autospec=True)  # [undocumented-partial-mock]
    def test_written(self, fix_table):
        self.assertEqual("sda", drives.write_drive("sda"))


class TestEraseDrive(unittest.TestCase):
    """A handler catching everything passes on what its own try raises by name."""

    @mock.patch("shopfp.drives.fix_table", autospec=True)
    def test_erased(self, fix_table):
        drives.erase_drive("sda")

    @mock.patch("shopfp.drives.measure", autospec=True, return_value=100)
    def test_too_big(self, measure):
        self.assertRaises(drives.DriveError, drives.erase_drive, "sdb")


class TestEraseDriveAlone(unittest.TestCase):
    @mock.patch("shopfp.drives.fix_table", autospec=True)  # [undocumented-partial-mock]
    def test_erased(self, fix_table):
        drives.erase_drive("sda")
