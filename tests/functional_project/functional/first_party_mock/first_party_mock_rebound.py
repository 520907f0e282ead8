"""A class the module binds again only when an optional import failed is the
class it defines; a local a test binds several times to objects alike is
that object (one string bound twice spells two targets: not told); what
``contextlib.closing`` enters is its argument."""
# pylint: disable=missing-docstring,import-error
import contextlib
from unittest import mock

from shopfp.secure import Connection, SecureConnection


def test_the_class_when_the_import_works():
    conn = SecureConnection()
    with mock.patch.object(conn, "open_socket", autospec=True):  # [first-party-mock]
        conn.connect()


def test_a_local_bound_twice():
    conn = Connection("a")
    with mock.patch.object(conn, "open_socket", autospec=True):  # [first-party-mock]
        conn.connect()
    conn = Connection("b")
    with mock.patch.object(conn, "open_socket", autospec=True):  # [first-party-mock]
        conn.connect()


def test_a_string_bound_twice():
    name = "shopfp.secure.Connection.open_socket"
    with mock.patch(name, autospec=True):
        pass
    name = "shopfp.secure.Connection.connect"
    with mock.patch(name, autospec=True):
        pass


def test_entered_through_closing():
    with contextlib.closing(Connection("c")) as conn:
        with mock.patch.object(conn, "open_socket", autospec=True):  # [first-party-mock]
            conn.connect()
