"""A patcher a module function starts (a decorator patching for the test it
wraps) is stopped when a test class of the module stops every patcher in its
tear-down: not a leaked-patcher."""
# pylint: disable=missing-docstring,import-error
import unittest
from functools import wraps
from unittest import mock

from shopfp import jobs


def create_mocks(names):
    def wrapper(function):
        @wraps(function)
        def wrapped(inst, *args, **kwargs):
            for name in names:
                setattr(inst, f"mock_{name}", mock.patch.object(jobs, name, autospec=True).start())
            return function(inst, *args, **kwargs)
        return wrapped
    return wrapper


class TestCase(unittest.TestCase):
    def tearDown(self):
        mock.patch.stopall()
        super().tearDown()


class JobsTests(TestCase):
    @create_mocks(["assign"])
    def test_assign(self):
        self.mock_assign.return_value = 1  # pylint: disable=no-member
        self.assertEqual(1, jobs.assign())

    def test_started_in_the_test(self):
        mock.patch.object(jobs, "reload", autospec=True).start()
        self.assertTrue(jobs.reload)


class UnprotectedTests(unittest.TestCase):
    def test_started(self):
        mock.patch.object(jobs, "reload", autospec=True).start()  # [leaked-patcher]
        self.assertTrue(jobs.reload)
