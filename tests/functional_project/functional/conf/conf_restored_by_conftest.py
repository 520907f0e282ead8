"""A fixture of a conftest file that assigns a module global back after its
``yield`` puts it back for every test it runs around, however each module
spells the global: autouse, or requested by the test's parameter. A
module-scoped fixture puts it back once, not after each test."""
# pylint: disable=missing-docstring,redefined-outer-name,unused-argument
from shopfp import config, settings_defaults


def test_autouse_puts_it_back():
    config.RETRIES = 0


def test_put_back_only_if_it_passes_otherwise():
    saved = config.NAME
    config.NAME = "other"  # [unrestored-attribute-assignment]
    config.NAME = saved


def test_requested_puts_it_back(keep_timeout):
    settings_defaults.TIMEOUT = 10


def test_not_requested():
    settings_defaults.TIMEOUT = 10  # [unrestored-attribute-assignment]


def test_module_scoped(keep_delay):
    settings_defaults.DELAY = 10  # [unrestored-attribute-assignment]
