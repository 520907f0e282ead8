"""Set-up code runs before a test's own patches start, so the real function
answers there: a set-up inherited from a base class in another module, and
one calling a helper of the tests that reaches the caller. A mock made in a
helper method applies only to the tests calling it: the other siblings run
the real function. A sibling also reaches a method that another method of
its class runs by a name it computes (``getattr(self, f"_show_{mode}")``)."""
# pylint: disable=missing-docstring,import-error,unused-argument
import unittest
from unittest import mock

from _support import boilers

from shopfp import plant, testing


class TestInheritedSetUpTakesTheArm(testing.PlantTest):
    @mock.patch("shopfp.plant.valve_open", return_value=False)
    def test_all_closed(self, valve_open):
        self.assertIsInstance(self.plant, plant.Plant)
        self.plant.load()
        self.assertEqual(self.plant.running, [])


class TestHelperSetUpTakesTheArm(unittest.TestCase):
    def setUp(self):
        self.boiler = boilers.prepared_boiler(["a.fit", "b.fit"])

    @mock.patch("shopfp.plant.is_fitting", return_value=False)
    def test_no_fittings(self, is_fitting):
        self.assertIsInstance(self.boiler, plant.Boiler)
        self.assertEqual(self.boiler.collect(), [])


class TestHelperMethodMocksForItsCallersOnly(unittest.TestCase):
    def _collect_none(self):
        with mock.patch("shopfp.plant.is_fitting", return_value=False):
            return plant.Boiler(["a"]).collect()

    def test_none_helped(self):
        self.assertEqual(self._collect_none(), [])

    def test_real(self):
        self.assertEqual(plant.Boiler(["a.fit"]).collect(), ["a.fit"])

    @mock.patch("shopfp.plant.is_fitting", return_value=False)
    def test_none(self, is_fitting):
        self.assertEqual(plant.Boiler(["a.fit"]).collect(), [])


class TestSetUpReachesAnotherCaller(unittest.TestCase):
    def setUp(self):
        self.valve = testing.make_valve("plain")

    @mock.patch("shopfp.plant.is_fitting", return_value=False)  # [undocumented-partial-mock]
    def test_no_fittings(self, is_fitting):
        self.assertEqual(plant.Boiler(["a.fit"]).collect(), [])


class TestASiblingReachesTheCallerByDispatch(unittest.TestCase):
    """``Panel.show`` runs ``_show_dial`` by a name it computes (``getattr``)."""

    @mock.patch("shopfp.plant.gauge_ok", return_value=True)
    def test_dial(self, gauge_ok):
        self.assertTrue(plant.Panel()._show_dial())

    def test_shown(self):
        self.assertTrue(plant.Panel().show())


class TestBoilerBase(unittest.TestCase):
    """Its own tests only: no test here takes the arm its mock withholds."""

    @mock.patch("shopfp.plant.is_fitting", return_value=True)  # [undocumented-partial-mock]
    def test_all_fitting(self, is_fitting):
        self.assertEqual(plant.Boiler(["a"]).collect(), ["a"])


class TestBoilerInherits(TestBoilerBase):
    """Runs test_all_fitting again: the arm that mock gives is taken here too."""

    @mock.patch("shopfp.plant.is_fitting", return_value=False)
    def test_none_fitting(self, is_fitting):
        self.assertEqual(plant.Boiler(["a.fit"]).collect(), [])
