"""Tests under an autouse fixture that restores os.environ: their changes to it
are put back; sys.modules is not."""
# pylint: disable=missing-docstring
import os
import sys


def test_changes_environ():
    os.environ["SHOP_MODE"] = "test"
    del os.environ["HOME"]


def test_changes_sys_modules():
    sys.modules["yaml"] = None  # [unrestored-sys-modules-mutation]
