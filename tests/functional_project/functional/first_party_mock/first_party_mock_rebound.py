"""A name bound again to a value that reads it (``utcnow = partial(utcnow,
...)``) wraps what it held before; a local first bound to a ``None``
placeholder, then to one object, is that object, and so is one read from a
cache that only the same function fills with what it makes."""
# pylint: disable=missing-docstring,import-error,redefined-outer-name
from unittest import mock

import pytest

from shopfp import clock


def test_a_partial_of_the_name_it_is_bound_to():
    with mock.patch.object(clock.Expiring, "now", lambda: 0):  # [first-party-mock]
        assert clock.Expiring().renew() == 0


@pytest.fixture
def expiring():
    made = None
    made = clock.Expiring()
    yield made


@pytest.fixture
def maybe_expiring(request):
    made = None
    if request.param:
        made = clock.Expiring()
    made = made or request.param
    yield made


def test_a_placeholder_then_the_object(expiring, monkeypatch):
    monkeypatch.setattr(expiring, "renew", lambda: 0)  # [first-party-mock]


def test_bound_more_often(maybe_expiring, monkeypatch):
    monkeypatch.setattr(maybe_expiring, "renew", lambda: 0)  # three bindings: not read


_KEPT = {}
_ELSEWHERE = {}


@pytest.fixture
def kept_expiring():
    made = _KEPT.get("one")
    if made is None:
        made = clock.Expiring()
        _KEPT["one"] = made  # the cache holds only what this fixture makes
    return made


@pytest.fixture
def found_expiring():
    made = _ELSEWHERE.get("one")
    if made is None:
        made = clock.Expiring()
    return made


def test_an_object_kept_in_a_cache(kept_expiring, monkeypatch):
    monkeypatch.setattr(kept_expiring, "renew", lambda: 0)  # [first-party-mock]


def test_an_object_from_a_cache_filled_elsewhere(found_expiring, monkeypatch):
    monkeypatch.setattr(found_expiring, "renew", lambda: 0)  # what _ELSEWHERE holds is not known
