"""An attribute a fixture installed with useFixture saves and puts back."""
# pylint: disable=missing-docstring,import-error,invalid-name
import unittest

from shopfp import config
from shopfp.testing import ConfigFixture, LeakyFixture


class TestRestoredBySetUpFixture(unittest.TestCase):
    def setUp(self):
        self.useFixture(ConfigFixture("shop"))

    def test_changes_name(self):
        config.NAME = "other"  # the fixture of the set-up puts it back


class TestRestoredByOwnFixture(unittest.TestCase):
    def test_changes_name(self):
        self.useFixture(ConfigFixture("shop"))
        config.NAME = "other"  # the fixture puts it back


class TestFixtureWithoutCleanup(unittest.TestCase):
    def setUp(self):
        self.useFixture(LeakyFixture())

    def test_changes_name(self):
        config.NAME = "other"  # [unrestored-attribute-assignment]


import sys  # noqa: E402  # pylint: disable=wrong-import-position,wrong-import-order

import pytest  # noqa: E402  # pylint: disable=wrong-import-position,wrong-import-order


@pytest.fixture
def fake_backend(mocker):
    mocker.patch.dict(sys.modules, {"fakebackend": None})


def test_the_mocker_fixture_puts_sys_modules_back(fake_backend):
    sys.modules["fakebackend.qt"] = None


def test_without_the_fixture():
    sys.modules["fakebackend.qt"] = None  # [unrestored-sys-modules-mutation]


@pytest.fixture
def saved_config():
    saved = (config.TIMEOUTS, config.HOOKS)
    yield
    (config.TIMEOUTS, config.HOOKS) = saved  # one tuple assignment puts both back


@pytest.mark.usefixtures("saved_config")
def test_put_back_by_a_tuple_assignment():
    config.TIMEOUTS = (0, 0)
    config.HOOKS = ["hook"]


from shopfp import channels  # noqa: E402  # pylint: disable=wrong-import-position
from shopfp.testing import ChannelFixture  # noqa: E402  # pylint: disable=wrong-import-position


class TestChannels(unittest.TestCase):
    def setUp(self):
        self.useFixture(ChannelFixture())

    def test_replaces_both(self):
        channels.CHANNEL = "test"  # the fixture's cleanup, close_channels, resets both globals
        channels.BACKUP_CHANNEL = "test"


class TestChannelsWithoutTheFixture(unittest.TestCase):
    def test_replaces_one(self):
        channels.CHANNEL = "test"  # [unrestored-attribute-assignment]
