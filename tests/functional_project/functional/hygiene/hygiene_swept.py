"""An autouse fixture that, after each test, sweeps the modules the tests
make out of sys.modules (through helpers): what a test does to sys.modules
is the suite's to manage."""
# pylint: disable=missing-docstring,import-error
import sys

import pytest


def _sweep(prefix):
    for name in [m for m in sys.modules if m.startswith(prefix)]:
        del sys.modules[name]


def _reset_loader():
    _sweep("synthetic_")


@pytest.fixture(autouse=True)
def swept():
    yield
    _reset_loader()


def test_pops_a_module():
    sys.modules.pop("synthetic_collections", None)


def test_adds_a_module():
    sys.modules["synthetic_other"] = sys
