"""ddt's ``@data`` gives a test method's parameter its values as pytest's
``parametrize`` does: a patch target spelt from the parameter is read once
per value, with ``@unpack`` spreading each value over the parameters."""
# pylint: disable=missing-docstring,import-error
import unittest
from unittest import mock

import ddt

from shopfp import jobs


@ddt.ddt
class TestEachValue(unittest.TestCase):
    @ddt.data("run", "assign")
    def test_a_dotted_target(self, name):
        with mock.patch(f"shopfp.jobs.{name}", autospec=True):  # [first-party-mock]
            pass

    @ddt.data(("run", 1), ("reload", 2))
    @ddt.unpack
    def test_unpacked(self, name, order_id):
        with mock.patch("shopfp.jobs." + name, autospec=True):  # [first-party-mock]
            jobs.run(order_id)

    @ddt.data({"method": "claim"}, {"method": "build"})
    @ddt.unpack
    def test_unpacked_by_name(self, method):
        runner = jobs.Runner()
        with mock.patch.object(runner, method, autospec=True):  # [first-party-mock]
            pass

    @ddt.data("claim", "build")
    def test_an_attribute_spelt_from_it(self, verb):
        runner = jobs.Runner()
        with mock.patch.object(runner, f"{verb}", autospec=True):  # [first-party-mock]
            pass

    @ddt.data("time", "sleep")
    def test_library_names(self, name):
        with mock.patch(f"shopfp.jobs.{name}", autospec=True):
            pass
