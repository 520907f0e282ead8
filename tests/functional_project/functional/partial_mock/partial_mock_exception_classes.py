"""The handler an exception the mock withholds would take is the first one
catching its class or a base of it (``Refused`` is a ``CourierError``, a
``JSONDecodeError`` a ``ValueError``), not the first naming it or catching
everything. Where a class the handler names cannot be read, which handler
runs is not known, and nothing is reported."""
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


@mock.patch("shopfp.courier.hand_over", autospec=True)
def test_delivered_not_jammed(hand_over):
    # Jammed may be a base of Refused: which handler runs is not known
    assert courier.deliver_unless_jammed("box") == "delivered"
