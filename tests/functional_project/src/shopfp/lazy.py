"""Values built on first use: a decorator binds the name to a proxy that
loads the function's result and hands every attribute on (xonsh's lazyobject)."""
import functools
import os


class LazyValue:
    def __init__(self, load, namespace, name):
        self._lazy = {"load": load, "namespace": namespace, "name": name, "value": None}

    def _loaded(self):
        state = object.__getattribute__(self, "_lazy")
        if state["value"] is None:
            state["value"] = state["load"]()
            state["namespace"][state["name"]] = state["value"]
        return state["value"]

    def __getattr__(self, name):
        return getattr(self._loaded(), name)

    def __iter__(self):
        return iter(self._loaded())


class Registered:
    def __init__(self, function):
        self.function = function

    def __call__(self, *args):
        return self.function(*args)


def lazy_value(function):
    return LazyValue(function, function.__globals__, function.__name__)


def registered(function):
    return Registered(function)


@lazy_value
def SEPARATORS():  # pylint: disable=invalid-name
    return (",", ";")


@lazy_value
def list_attributes():
    return getattr(os, "listxattr", None)


@lazy_value
def default_registry():
    return Registered(len)


@registered
def normalise(text):
    return text.strip()


def split(text):
    first, second = SEPARATORS
    return text.replace(second, first).split(first)


def command(function):
    """The project's own decorator named like click's: a plain wrapper."""

    @functools.wraps(function)
    def wrapped(*args):
        return function(*args)

    return wrapped


@command
def restart(service):
    return f"restarting {service}"


class cached_classproperty:  # noqa: N801 - named as beets names its descriptor
    """A descriptor: the getter's value, computed once per class."""

    def __init__(self, getter):
        self.getter = getter

    def __get__(self, instance, owner):
        return self.getter(owner)


class Schema:
    @cached_classproperty
    def fields(cls):
        return {"id": int}

    def describe(self):
        return sorted(self.fields)
