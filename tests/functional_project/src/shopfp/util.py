"""A first-party helper re-exported under another name."""


def helper():
    return 42
