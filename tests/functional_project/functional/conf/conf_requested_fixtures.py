"""Fixtures a module's ``pytestmark`` requests, and the fixtures they request
in turn (``conftest.py``), are set up and torn down around every test of the
module: one that puts ``os.environ`` back covers the tests."""
# pylint: disable=missing-docstring
import os

import pytest

pytestmark = pytest.mark.usefixtures("integration")


def test_sets_a_variable():
    os.environ["SHOP_X"] = "1"  # integration requests clean_environ, which puts it back


@pytest.mark.usefixtures("unrelated")
def test_sets_another():
    os.environ["SHOP_Y"] = "1"  # the module's mark still applies


class TestMarkedClass:
    pytestmark = [pytest.mark.usefixtures("unrelated")]

    def test_in_a_class(self):
        os.environ["SHOP_Z"] = "1"  # and the module's mark applies to the class's tests too
