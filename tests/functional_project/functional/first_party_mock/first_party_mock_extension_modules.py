"""A function of an extension module of the project (built from
``_speedups.c`` beside its Python modules) is the project's own code, however
the patch reaches it; it is no missing target. A name its C source adds as a
value (``PyModule_AddIntConstant(mod, "version", ...)``) is no code."""
# pylint: disable=missing-docstring,import-error
from unittest import mock

from shopfp import totals


def test_through_the_import_alias():
    with mock.patch("shopfp.totals.cext.fast_total", autospec=True):  # [first-party-mock]
        totals.total([1])


def test_through_a_re_export():
    with mock.patch("shopfp.totals.fast_total", autospec=True):  # [first-party-mock]
        totals.fast_total([1])


def test_by_its_own_name():
    with mock.patch("shopfp._speedups.fast_total", autospec=True):  # [first-party-mock]
        totals.total([1])


def test_a_missing_python_module():
    with mock.patch("shopfp._nothing_here.fast_total", autospec=True):  # [mock-target-not-found]
        totals.total([1])


def test_a_value_the_extension_adds():
    with mock.patch("shopfp.totals.cext.version", 0):
        totals.total([1])
