"""What a function raises includes what the project function whose call it
returns raises (outside any ``try``): a mock of ``config_path`` that always
returns a path never takes the caller's ``except MissingConfig``."""
# pylint: disable=missing-docstring,import-error,unused-argument
from unittest import mock

from shopfp import wrapping


@mock.patch("shopfp.wrapping.config_path", autospec=True, return_value="p")  # [undocumented-partial-mock]
def test_read(config_path):
    assert wrapping.read_config() == "p"


class TestComputedPath:  # its own unit: a module's tests share their arms
    @mock.patch("shopfp.wrapping.config_path", autospec=True)  # [undocumented-partial-mock]
    def test_read_computed(self, config_path):
        config_path.return_value = "/".join(["etc", "p"])
        assert wrapping.read_config() == "etc/p"
