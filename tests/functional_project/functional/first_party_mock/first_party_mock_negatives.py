"""Mocks that replace stdlib or third-party objects, or first-party constants:
none of them is flagged."""
# pylint: disable=missing-docstring,import-error
import sys
from unittest import mock

from shopfp import jobs


def test_stdlib_at_use_site():
    with mock.patch("shopfp.jobs.time"), mock.patch("shopfp.jobs.sleep"):
        pass
    with mock.patch("shopfp.jobs.jsonlib.dumps"), mock.patch.object(jobs, "threading"):
        pass


def test_stdlib_logger():
    with mock.patch("shopfp.jobs.LOG"), mock.patch("shopfp.storage.LOG.info"):
        pass


def test_inherited_from_stdlib():
    with mock.patch.object(jobs.Worker, "start"):
        pass


def test_constants(monkeypatch):
    monkeypatch.setattr("shopfp.config.RETRIES", 0)
    monkeypatch.setattr("shopfp.config.NAME", "test")
    with mock.patch("shopfp.config.TIMEOUTS", (0, 0)), mock.patch("shopfp.config.DEBUG", True):
        pass
    with mock.patch("shopfp.config.NOTHING", 1), mock.patch("shopfp.storage.Storage.backend", "sql"):
        pass


def test_environment(monkeypatch):
    monkeypatch.setitem(sys.modules, "yaml", None)
    with mock.patch.dict("os.environ", {"HOME": "/tmp"}), mock.patch("os.getcwd"):
        pass


def test_unresolvable_targets():
    with mock.patch("shopfp.nowhere.thing"), mock.patch("no_such_package.thing"):
        pass


def test_plain_mocks():
    double = mock.Mock()
    double.save.return_value = 1
    spec_list = mock.Mock(spec=["save", "load"])
    assert spec_list is not double


def test_inert_collaborator():
    checker = jobs.Runner()
    storage = mock.Mock(spec=jobs.Storage)
    assert checker is not storage
    assert mock.create_autospec(jobs.Storage, instance=True) is not None
