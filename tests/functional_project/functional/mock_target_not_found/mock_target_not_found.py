"""Patch targets that do not exist."""
# pylint: disable=missing-docstring,import-error
from unittest import mock

import fixtures

from shopfp import jobs
from shopfp.mixins import AuditMixin
from shopfp.storage import Storage


def test_misspelt_targets(monkeypatch):
    with mock.patch("shopfp.jobs.rnu", autospec=True):  # [mock-target-not-found]
        pass
    with mock.patch.object(Storage, "sav", autospec=True):  # [mock-target-not-found]
        pass
    with mock.patch("shopfp.nowhere.run", autospec=True):  # [mock-target-not-found]
        pass
    monkeypatch.setattr("shopfp.jobs.Runner.clam", lambda self: 1)  # [mock-target-not-found]


def test_hidden_by_create_or_raising(monkeypatch):
    with mock.patch("shopfp.jobs.helpr", create=True, autospec=True):  # [mock-target-not-found]
        pass
    monkeypatch.setattr(jobs, "helpr", lambda: 0, raising=False)  # [mock-target-not-found]


def test_hidden_by_fixtures_monkeypatch():
    with fixtures.MonkeyPatch("shopfp.jobs.helpr", lambda: 0):  # [mock-target-not-found]
        pass
    with fixtures.MonkeyPatch("shopfp.jobs.run", lambda order_id: 0):
        pass


def test_targets_that_exist(monkeypatch):
    with mock.patch("shopfp.jobs.run", autospec=True), mock.patch.object(Storage, "save", autospec=True):
        pass
    with mock.patch("shopfp.storage.open", create=True, new=mock.mock_open()):
        pass
    with mock.patch("requests.nothing_here", create=True, new=None):
        pass
    monkeypatch.setattr(jobs.Runner(), "anything", 1)


def test_builtins_patched_on_a_module(monkeypatch):
    with mock.patch("shopfp.jobs.open", mock.mock_open()):  # mock creates a builtin's name on a module
        pass
    with mock.patch.object(jobs, "print", autospec=True):
        pass
    with mock.patch("shopfp.jobs.Runner.open", autospec=True):  # [mock-target-not-found]
        pass
    monkeypatch.setattr("shopfp.jobs.open", mock.mock_open())  # [mock-target-not-found]


def test_create_on_a_mixin():
    with mock.patch.object(AuditMixin, "client", create=True, new=None):  # the host classes define it
        pass
    with mock.patch.object(AuditMixin, "sink", create=True, new=None):  # a host's host sets it on instances
        pass
    with mock.patch.object(AuditMixin, "clinet", create=True, new=None):  # [mock-target-not-found]
        pass


class TestAttributesOfAMock:
    """An attribute of an object the set-up replaced with a mock is the mock's."""

    def setup_method(self):
        from shopfp import options  # pylint: disable=import-outside-toplevel
        self.options = options
        patcher = mock.patch.object(self.options, "STORE", autospec=True)
        patcher.start()

    def test_attribute_of_the_mock(self):
        with mock.patch.object(self.options.STORE, "no_such_method", autospec=True):
            pass


def test_attribute_of_the_class_an_option_names():
    from shopfp import options  # pylint: disable=import-outside-toplevel
    with mock.patch.object(options.STORE, "no_such_method", autospec=True):  # [mock-target-not-found]
        pass


from shopfp import models  # noqa: E402  (kept here so the cases above keep their lines)


def test_names_a_registry_adds_to_the_package():
    with mock.patch.object(models.Widget, "save", autospec=True):
        pass
    with mock.patch("shopfp.models.Widget.save", autospec=True):
        pass
    with mock.patch("shopfp.models.widget.Widget.sav", autospec=True):  # [mock-target-not-found]
        pass


import pytest  # noqa: E402


def test_expects_the_patch_to_fail(monkeypatch):
    with pytest.raises(AttributeError):
        monkeypatch.setattr("shopfp.jobs.not_there", 1)
    monkeypatch.setattr("shopfp.jobs.not_there_either", 1)  # [mock-target-not-found]


def test_an_object_known_only_as_of_its_base_class():
    """open_storage is declared to return a Storage: the object may be the
    SqlStorage subclass, which has vacuum."""
    from shopfp.plant import open_storage  # pylint: disable=import-outside-toplevel

    store = open_storage("sql")
    with mock.patch.object(store, "vacuum", autospec=True):
        pass
    with mock.patch.object(type(store), "vacuum", autospec=True):
        pass
    with mock.patch.object(Storage, "vacuum", autospec=True):  # [mock-target-not-found]
        pass


from shopfp import rendering  # noqa: E402


def test_a_name_bound_again_when_an_optional_import_fails():
    """render_words comes from a module that is absent, so the except ImportError
    arm binds it: it exists. render_title has no such fallback."""
    with mock.patch.object(rendering, "render_words", rendering._plain_render):  # the very same function
        pass
    with mock.patch("shopfp.rendering.render_title", autospec=True):  # [mock-target-not-found]
        pass


from shopfp import shims  # noqa: E402


def test_a_name_set_on_the_class_at_run_time():
    """shims sets Greeter.hello with setattr when it is imported: what a class
    gets so cannot be listed, so no name of it is reported missing."""
    with mock.patch.object(shims.Greeter, "hello", autospec=True):
        pass
    with mock.patch.object(Storage, "hello", autospec=True):  # [mock-target-not-found]
        pass


from shopfp import hosts  # noqa: E402


def test_private_names_are_mangled():
    with mock.patch.object(hosts.HostClient, "_HostClient__instance", "h"):  # stored under that name
        pass
    with mock.patch.object(hosts.HostClient, "_Base__port", 8080):  # a base's private name, its own mangling
        pass
    with mock.patch.object(hosts.HostClient, "_HostClient__port", 8080):  # [mock-target-not-found]
        pass
