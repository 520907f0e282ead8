"""An object typed only by its return annotation (its ``None`` placeholder
ruled out by the annotation) has the members of its class, and those only
the project's subclasses of that class define."""
# pylint: disable=missing-docstring,import-error
from unittest import mock

from shopfp import transports


def test_member_of_a_subclass():
    channel = transports.Connection(transports.Transport()).default_channel
    with mock.patch.object(channel, "_on_disconnect", autospec=True):  # [first-party-mock]
        channel._on_disconnect()  # pylint: disable=protected-access


def test_member_of_the_declared_class():
    channel = transports.Connection(transports.Transport()).default_channel
    with mock.patch.object(channel, "close", autospec=True):  # [first-party-mock]
        channel.close()
