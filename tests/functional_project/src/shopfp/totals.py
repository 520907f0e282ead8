"""Totals computed by the project's extension module."""
from . import _speedups as cext

fast_total = cext.fast_total


def total(amounts):
    return cext.fast_total(amounts)
