from unittest import mock
from unittest.mock import Mock, patch

import pytest

from shop import config, payments
from shop.payments import Checkout
from shop.storage import Storage


@patch("shop.payments.Storage.save")  # first-party-mock: our own storage
def test_place_saves(save):
    with patch("shop.payments.charge", return_value=True):  # first-party-mock
        assert Checkout().place("a1", 10) == "PLACED"
    save.assert_called_once_with("a1", 10)


def test_place_declined_stdlib_only():
    # Not flagged: urllib and time are not our code.
    with mock.patch("shop.payments.urllib.request.urlopen") as urlopen, mock.patch("shop.payments.time"):
        urlopen.return_value.__enter__.return_value.status = 500
        assert Checkout(Storage()).place("a2", 5) == "DECLINED"


def test_retries_configuration(monkeypatch):
    # Not flagged: a first-party constant is configuration, not code.
    monkeypatch.setattr("shop.config.RETRIES", 1)
    # mock-boundary: the payment provider is a real HTTP service we cannot run here
    monkeypatch.setattr(payments, "charge", lambda order_id, total: False)
    assert Checkout(Storage()).place("a3", 5) == "DECLINED"


def test_two_boundaries(monkeypatch):
    # mock-boundary: the payment provider is remote
    monkeypatch.setattr(payments, "charge", lambda order_id, total: True)
    # mock-boundary: and storage too?
    monkeypatch.setattr(Storage, "save", lambda self, order_id, total: order_id)
    assert Checkout(Storage()).place("a4", 5) == "PLACED"


def test_boundary_without_reason(mocker):
    mocker.patch("shop.payments.charge", return_value=True)  # mock-boundary:
    assert Checkout(Storage()).place("a5", 5) == "PLACED"


def test_tautology():
    storage = Mock(spec=Storage)
    storage.save.return_value = "a6"
    with patch.object(payments, "charge", return_value=True) as charge:
        Checkout(storage).place("a6", 7)
    charge.assert_called_once_with("a6", 7)


def test_inert_collaborator():
    # Not flagged: a spec'd Storage nobody configures or asserts on.
    checkout = Checkout(Mock(spec=Storage))
    assert checkout.storage is not None


def test_logger_is_not_ours():
    with patch("shop.storage.LOG") as log:
        Storage().save("a7", 1)
    assert not log.error.called


def test_misspelt_target():
    # mock-target-not-found: the payments module has no "chrage"
    with patch("shop.payments.chrage", autospec=True):
        pass


class TestLeakyState:
    def setup_method(self):
        # leaked-patcher: nothing stops this patch if a test fails
        self.sleep = patch("shop.payments.time.sleep", autospec=True).start()

    def test_environment_and_modules(self):
        import os
        import sys

        os.environ["SHOP_CURRENCY"] = "USD"  # unrestored-environ-mutation
        sys.modules["yaml"] = None  # unrestored-sys-modules-mutation
        assert Checkout(Storage()).storage is not None

    def test_configuration_attribute(self):
        config.RETRIES = 0  # unrestored-attribute-assignment
        assert Checkout(Storage()).place("a8", 1) == "DECLINED"


class FakeStorage:
    """Saves, but has no load(): incomplete-mock-object."""

    def save(self, order_id, total):
        return order_id


def test_hand_made_fakes(monkeypatch):
    import sys
    from types import SimpleNamespace

    from shop import storage

    monkeypatch.setattr(storage, "Storage", FakeStorage)  # incomplete-mock-object
    fake_config = SimpleNamespace(RETRIES=1)  # no CURRENCY: incomplete-mock-module
    monkeypatch.setitem(sys.modules, "shop.config", fake_config)
    assert FakeStorage().save("a9", 1) == "a9"


def test_patched_where_defined():
    # patch-at-definition-site: payments did `from shop.storage import Storage`
    with patch("shop.storage.Storage", autospec=True):
        assert Checkout().place("a10", 1) in ("PLACED", "DECLINED")


# mock-boundary: the payment provider is remote
# mock-partial: the provider always accepts here
#   untested: shop.payments.Checkout.place: if not charge(order_id, total)
#   reason: covered by tests/test_checkout.py::test_place_declined_stdlib_only
@patch("shop.payments.charge", return_value=True, autospec=True)  # documented: no undocumented-partial-mock
def test_place_accepted(charge):
    assert Checkout(Storage()).place("a9", 3) == "PLACED"


# mock-boundary: the payment provider is remote
# mock-partial: a block that names a method that does not exist
#   untested: shop.payments.Checkout.pay: if declined; renamed long ago
@patch("shop.payments.charge", return_value=False, autospec=True)  # malformed-mock-partial
def test_place_declined(charge):
    assert Checkout(Storage()).place("a10", 3) == "DECLINED"


class TestDeclinedOnly:
    # undocumented-partial-mock: no test of this class lets charge() accept, so
    # place()'s "PLACED" arm goes untested here (the module's tests above pool
    # their mocks of charge, True and False, and take both arms)
    @patch("shop.payments.charge", return_value=False, autospec=True)
    def test_declined(self, charge):
        assert Checkout(Storage()).place("a11", 3) == "DECLINED"
