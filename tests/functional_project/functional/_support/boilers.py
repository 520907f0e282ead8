"""Test support kept beside the tests (not in the package): builds prepared objects."""
# pylint: disable=import-error,missing-function-docstring
from shopfp import plant


def prepared_boiler(paths):
    boiler = plant.Boiler(paths)
    boiler.prepare()
    return boiler
