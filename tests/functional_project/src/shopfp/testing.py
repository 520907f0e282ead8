"""Test support the package ships for its own suite (as large projects do): a
base TestCase whose helpers patch for the tests."""

import unittest
from typing import cast
from unittest import mock

import fixtures

from shopfp import plant


class TestCase(unittest.TestCase):
    def mock_object(self, obj, attr_name, new_attr=None, **kwargs):
        if not new_attr:
            new_attr = mock.Mock()
        patcher = mock.patch.object(obj, attr_name, new_attr, **kwargs)
        patcher.start()
        self.addCleanup(patcher.stop)
        return new_attr

    def mock_dotted(self, target, **kwargs):
        patcher = mock.patch(target, **kwargs)
        self.addCleanup(patcher.stop)
        return patcher.start()

    def mock_method(self, obj, name, **kwargs):
        """A helper wrapping a helper."""
        return self.mock_object(obj, name, **kwargs)

    def mock_job(self, name, **kwargs):
        """Spells the target from its parameter."""
        patcher = mock.patch("shopfp.jobs." + name, **kwargs)
        self.addCleanup(patcher.stop)
        return patcher.start()

    def mock_in(self, module, name, **kwargs):
        patcher = mock.patch(f"shopfp.{module}.{name}", **kwargs)
        self.addCleanup(patcher.stop)
        return patcher.start()

    def patch_fixture(self, obj, attr, **kwargs):
        """Installs the fixtures package's mock fixture (openstack's patchobject)."""
        return self.useFixture(fixtures.MockPatchObject(obj, attr, **kwargs)).mock

    def mock_by_kind(self, obj, name, kind="object"):
        """Patches in a way not followed: declared in mock-helpers."""
        patcher = getattr(mock.patch, kind)(obj, name)
        self.addCleanup(patcher.stop)
        return patcher.start()


class JobsMixin:
    """Helpers a test class mixes in after an outside base (oslotest's, say)."""

    def _mock_jobs_attr(self, attr, value):
        patcher = mock.patch("shopfp.jobs." + attr, return_value=value)
        patcher.start()
        self.addCleanup(patcher.stop)

    def mock_runner(self, runner=None):
        """A fixed target, the caller's object: a mock of it for each caller."""
        self._mock_jobs_attr(attr="Runner", value=runner)


def patching(target, new):
    """Hands back the patcher: the caller starts it or enters it."""
    return mock.patch(target, new)


class ConfigFixture:
    """A fixture in the ``fixtures`` library's protocol: it swaps config.NAME
    in and registers the cleanup that puts it back."""

    def __init__(self, name):
        self.name = name
        self.saved = None

    def setUp(self):
        from shopfp import config  # pylint: disable=import-outside-toplevel

        self.saved, config.NAME = config.NAME, self.name
        self.addCleanup(self.revert)

    def addCleanup(self, function):  # pylint: disable=invalid-name
        self.revert = function

    def revert(self):
        from shopfp import config  # pylint: disable=import-outside-toplevel

        config.NAME = self.saved


class LeakyFixture:
    """Sets config.NAME and never registers a cleanup."""

    def setUp(self):
        from shopfp import config  # pylint: disable=import-outside-toplevel

        config.NAME = "leaky"


class FakeClock:
    """A fake the suite shares: test code, not the code under test."""

    def now(self):
        return 0


class PlantTest(unittest.TestCase):
    """A base class: its set-up builds a plant, whose constructor loads it
    with the real ``valve_open``."""

    def setUp(self):
        from shopfp.plant import Plant  # pylint: disable=import-outside-toplevel

        self.plant = Plant(["a", "b"])


def make_valve(kind) -> plant.Valve:
    return plant.KINDS[kind]()


def patch_gauge():
    """A factory of one fixed patch: every call patches read_gauge."""
    return cast(mock.MagicMock, mock.patch("shopfp.plant.read_gauge", return_value=7))


class ChannelFixture(fixtures.Fixture):
    """Opens the channels and registers the module's own function that resets them."""

    def _setUp(self):
        from shopfp import channels  # pylint: disable=import-outside-toplevel

        self.addCleanup(channels.close_channels)
        channels.open_channels()
