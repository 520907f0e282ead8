"""A helper of the tests that patches every name of a table it is given
(``{obj: ["name", ("name", "alias")]}``) makes one mock site per name, at its
call; the test configures the mocks through names the helper gives them, so
no partial mock is judged for them."""
# pylint: disable=missing-docstring,import-error,no-member
import time
import unittest

from _support import table_mocks

from shopfp import gates, jobs, turnstile


class TableTests(unittest.TestCase):
    @table_mocks.create_mocks({jobs: ["run", ("assign", "job_assign")], time: ["monotonic"]})  # [first-party-mock, first-party-mock, unspecced-mock, unspecced-mock, unspecced-mock]
    def test_run(self):
        self.mock_run.return_value = "{}"
        self.mock_job_assign.return_value = 1
        self.assertEqual("{}", jobs.run("a"))

    @table_mocks.create_mocks({gates: ["read_evidence"]})  # [first-party-mock, unspecced-mock]
    def test_admit(self):
        self.mock_read_evidence.return_value = "APPROVED"
        self.assertTrue(turnstile.admit("x"))

    @table_mocks.create_mocks({})
    def test_nothing(self):
        self.assertTrue(jobs)
