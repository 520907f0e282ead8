"""A name an instance lacks is what its class's ``__getattr__`` gives: a
closure of the project's code (zaqar's storage pipeline) is first-party; a
read handed on to a library object is not told."""
# pylint: disable=missing-docstring,import-error
from unittest import mock

from shopfp.pipeline import Connection, Pipeline


def test_a_method_the_pipeline_makes():
    pipeline = Pipeline([])
    with mock.patch.object(pipeline, "list", autospec=True):  # [first-party-mock]
        pipeline.list()


def test_a_read_handed_on():
    connection = Connection()
    with mock.patch.object(connection, "send", autospec=True):
        connection.send(b"x")
