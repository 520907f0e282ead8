"""The handler an exception the mock withholds would take is the first one
catching its class or a base of it (``Refused`` is a ``CourierError``, a
``JSONDecodeError`` a ``ValueError``), not the first naming it or catching
everything. Where the exception's class derives from one that cannot be
read, which handler runs is not known, and nothing is reported."""
# pylint: disable=missing-docstring,import-error,unused-argument
from unittest import mock

from shopfp import courier


@mock.patch("shopfp.courier.hand_over", autospec=True)  # [undocumented-partial-mock]
def test_delivered(hand_over):
    assert courier.deliver("box") == "delivered"


@mock.patch("shopfp.courier.hand_over", autospec=True)  # [undocumented-partial-mock]
def test_delivered_not_lost(hand_over):
    assert courier.deliver_or_lose("box") == "delivered"


@mock.patch("shopfp.courier.read_label", autospec=True)  # [undocumented-partial-mock]
def test_label_read(read_label):
    assert courier.label_of("a") == "read"


@mock.patch("shopfp.courier.hand_over", autospec=True)  # [undocumented-partial-mock]
def test_delivered_not_jammed(hand_over):
    # Refused's bases are all known, and Jammed is none of them
    assert courier.deliver_unless_jammed("box") == "delivered"


@mock.patch("shopfp.courier.hand_over_slowly", autospec=True)
def test_delivered_slowly(hand_over_slowly):
    # Stuck derives from a class that cannot be read: which handler runs is not known
    assert courier.deliver_slowly("box") == "delivered"
