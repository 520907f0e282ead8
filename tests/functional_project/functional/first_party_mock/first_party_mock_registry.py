"""How google-cloud-pubsub 2.44.0's clients pick their transport class.
A class a constant key picks from a dict literal a module binds at its top
level is that class (``_transport_registry["rest"]``); an unknown key picks
none that is known. A method the project's own metaclass defines, patched on
a class made by it, is the project's code (``patch.object(PublisherClient,
"get_transport_class")``); the class's own attributes come first, as Python
looks them up."""
# pylint: disable=missing-docstring,import-error
from unittest import mock

from shopfp import registered_meta, storage

KINDS = {"memory": storage.Storage, "sql": storage.SqlStorage}


def test_a_constant_key():
    with mock.patch.object(KINDS["sql"], "vacuum", autospec=True):  # [first-party-mock]
        pass


def test_an_unknown_key(kind):
    with mock.patch.object(KINDS[kind], "vacuum", autospec=True):
        pass


def test_a_method_of_the_metaclass():
    with mock.patch.object(registered_meta.Client, "kind_for", autospec=True):  # [first-party-mock]
        pass


def test_the_class_own_attribute():
    with mock.patch.object(registered_meta.Client, "label", "other"):
        pass
