"""Reads is_open through its own binding, imported by value."""

from shopfp.gates import is_open


def enter(name):
    if is_open(name):
        return "in"
    return "out"
