"""A ``test``/``testing`` package the code ships (Django's ``django.test``) is
code under test; the test support module ``shopfp.testing`` is the tests'."""
# pylint: disable=missing-docstring,import-error
from unittest import mock

from shopfp.test import runner


def test_the_shipped_runner_with_its_setup_mocked():
    with mock.patch("shopfp.test.runner.Runner.setup", return_value="ready"):  # [first-party-mock]
        assert runner.Runner().run()


def test_a_helper_of_the_tests_mocked():
    with mock.patch("shopfp.testing.TestCase.mock_object"):
        pass
