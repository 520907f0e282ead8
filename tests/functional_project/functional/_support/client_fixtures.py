"""Fixtures of the tests that patch a fixed target when a test sets them up."""
# pylint: disable=import-error,missing-class-docstring,attribute-defined-outside-init
from unittest import mock

import fixtures


class RunFixture(fixtures.Fixture):
    def _setUp(self):
        self.run = mock.Mock()
        self.useFixture(fixtures.MockPatch("shopfp.jobs.run", self.run))


class ClockFixture(fixtures.Fixture):
    def _setUp(self):
        self.useFixture(fixtures.MockPatch("time.monotonic", return_value=1.0))


class PlainFixture(fixtures.Fixture):
    def _setUp(self):
        self.values = []
