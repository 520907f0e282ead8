"""Methods an instance rebinds to wrapped versions of themselves, a protocol,
and a reader whose failures come from a helper it returns the call of."""
import functools
from typing import Protocol


class Memoized:
    """A decorator made as an object: its ``__call__`` wraps the function."""

    def __call__(self, function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            return function(*args, **kwargs)
        return wrapper


def throttled(function):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        return function(*args, **kwargs)
    return wrapper


class Fetcher:
    def __init__(self):
        self.get = Memoized()(self.get)
        self.post = throttled(self.post)

    def get(self, url):
        return url

    def post(self, url, body):
        return body


class TokenSource(Protocol):
    def token(self) -> str: ...


class Transport:
    def send(self, request):
        raise NotImplementedError


class Pipeline:
    def __init__(self, transport, source=None):
        self.transport = transport
        self.source = source

    def header(self):
        return "Bearer " + self.source.token()


class MissingConfig(Exception):
    pass


def _default_path():
    raise MissingConfig("no configuration file")


def config_path(given=None):
    if given:
        return given
    return _default_path()


def read_config(given=None):
    try:
        return config_path(given)
    except MissingConfig:
        return None


class Relay:
    """Keeps its transport through a method its constructor calls."""

    def __init__(self, transport):
        self.attach(transport)

    def attach(self, transport):
        self.transport = transport


class Dialer:
    """Makes its transports from the class its constructor was given."""

    def __init__(self, transport_cls):
        self.transport_cls = transport_cls

    def dial(self):
        return self.transport_cls()


class Line:
    """Makes its transport on first use, and its spare only when asked to."""

    _transport = None

    @property
    def transport(self):
        if self._transport is None:
            self._transport = Transport()
        return self._transport

    @property
    def spare(self):
        if not self._spare_made():
            self._spare = Transport()
            self._spare = None
        return self._spare

    def _spare_made(self):
        return hasattr(self, "_spare")


class Throttle:
    """Made by a class method of its own."""

    @classmethod
    def from_settings(cls, settings):
        return cls()

    def adjust(self, slot):
        return slot
