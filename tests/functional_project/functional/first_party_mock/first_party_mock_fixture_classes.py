"""A fixture class of the tests (another module) that patches a fixed target
when set up is a mock site wherever a test sets it up with useFixture."""
# pylint: disable=missing-docstring,import-error
import unittest

import fixtures
from _support import client_fixtures

from shopfp import jobs


class TestWithFixtureClasses(fixtures.TestWithFixtures, unittest.TestCase):
    def setUp(self):
        super().setUp()
        self.clock = self.useFixture(client_fixtures.ClockFixture())  # [unspecced-mock]

    def test_run_replaced(self):
        run = self.useFixture(client_fixtures.RunFixture()).run  # [first-party-mock]
        run.return_value = "{}"
        self.assertEqual("{}", jobs.run("a"))

    def test_plain(self):
        self.assertEqual([], self.useFixture(client_fixtures.PlainFixture()).values)
