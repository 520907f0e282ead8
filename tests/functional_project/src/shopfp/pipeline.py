"""A pipeline whose every method is a closure its __getattr__ makes, and a
wrapper whose __getattr__ hands reads on to a library object."""

import functools
import socket


def memoized(method):
    @functools.wraps(method)
    def wrapper(self, name):
        return method(self, name)
    return wrapper


class Pipeline:
    def __init__(self, stages=()):
        self._stages = list(stages)

    @memoized
    def __getattr__(self, name):
        def consumer(*args, **kwargs):
            for stage in self._stages:
                found = getattr(stage, name)(*args, **kwargs)
                if found is not None:
                    return found
            return None
        return consumer


class Connection:
    def __init__(self):
        self._socket = socket.socket()

    def __getattr__(self, name):
        return getattr(self._socket, name)
