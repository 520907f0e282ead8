"""A fixture the test requests (by a parameter or a ``usefixtures`` mark) that
puts back an attribute of a standard-library module after its ``yield``
(``sys.argv = orig``, ``sys.argv[:] = orig``) covers the test's change, as for
the project's modules; so does one that puts ``os.environ`` back key by key."""
# pylint: disable=missing-docstring,unused-argument
import os
import sys

import pytest


@pytest.mark.usefixtures("save_env")
class TestUnderSaveEnv:
    def test_home_removed(self):
        os.environ.pop("HOME", None)  # save_env puts every key back

    def test_variable_added(self):
        os.environ["SHOP_MODE"] = "1"  # and deletes the ones added

    def _set_target(self, target):
        os.environ["SHOP_TARGET"] = target  # every test calling it runs under save_env

    def test_target(self):
        self._set_target("10.9")


class TestHelperCalledUnguarded:
    def _set_target(self, target):
        os.environ["SHOP_TARGET"] = target  # [unrestored-environ-mutation]

    def test_target(self):
        self._set_target("10.9")


def test_argv_by_parameter(keep_argv):
    sys.argv = ["setup.py"]  # keep_argv rebinds it after its yield


@pytest.mark.usefixtures("save_argv")
def test_argv_by_mark():
    sys.argv = ["setup.py", "build"]  # save_argv puts the contents back: sys.argv[:] = orig


def test_argv_unguarded():
    sys.argv = ["setup.py"]  # [unrestored-attribute-assignment]


def test_environ_unguarded():
    os.environ["SHOP_MODE"] = "1"  # [unrestored-environ-mutation]
