"""A class a constant key picks from a dict literal a module binds at its top
level is that class (google-cloud-pubsub 2.44.0's transport registry,
``_transport_registry["rest"]``); an unknown key picks none that is known."""
# pylint: disable=missing-docstring,import-error
from unittest import mock

from shopfp import storage

KINDS = {"memory": storage.Storage, "sql": storage.SqlStorage}


def test_a_constant_key():
    with mock.patch.object(KINDS["sql"], "vacuum", autospec=True):  # [first-party-mock]
        pass


def test_an_unknown_key(kind):
    with mock.patch.object(KINDS[kind], "vacuum", autospec=True):
        pass
