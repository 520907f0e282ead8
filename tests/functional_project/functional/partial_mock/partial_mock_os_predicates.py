"""``os.access`` and the ``os.path`` predicates return True or False: a mock
of a function returning one that always answers True never takes the
caller's arm for False."""
# pylint: disable=missing-docstring,import-error,unused-argument
from unittest import mock

from shopfp import devices


@mock.patch("shopfp.devices.is_writable", autospec=True, return_value=True)  # [undocumented-partial-mock]
def test_all_writable(is_writable):
    assert devices.writable_devices(["sda"]) == ["sda"]
