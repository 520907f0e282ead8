"""A runner script (as Django's tests/runtests.py): its set-up and tear-down run
test, not inside one (no finding)."""
# pylint: disable=missing-docstring
import os
import unittest


def setup_run_tests():
    os.environ["SHOP_TEST_SUITE"] = "1"


def teardown_run_tests():
    del os.environ["SHOP_TEST_SUITE"]


def run():
    setup_run_tests()
    unittest.main(module=None, exit=False)
    teardown_run_tests()


if __name__ == "__main__":
    run()
