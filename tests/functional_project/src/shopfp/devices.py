"""Devices listed by a predicate that asks the operating system."""
import os


def is_writable(name):
    return os.access(f"/dev/{name}", os.W_OK)


def writable_devices(names):
    found = []
    for name in names:
        if not is_writable(name):
            continue
        found.append(name)
    return found
