"""A base class of the tests whose method, taking nothing but the test,
patches a fixed target for the test calling it."""
# pylint: disable=import-error,missing-class-docstring,missing-function-docstring,attribute-defined-outside-init
import unittest
from unittest import mock


class RunnerTestBase(unittest.TestCase):
    def _replace_run(self):
        answer = mock.Mock()
        patcher = mock.patch("shopfp.jobs.run", return_value=answer)
        self.run_mock = patcher.start()
        self.addCleanup(patcher.stop)

    def _replace_run_with(self, value):
        self.given = value
        patcher = mock.patch("shopfp.jobs.run", return_value=value)
        patcher.start()
        self.addCleanup(patcher.stop)
