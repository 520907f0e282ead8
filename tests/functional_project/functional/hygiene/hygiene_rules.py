"""Leaked patchers and unrestored shared state, and the ways to put them back."""
# pylint: disable=missing-docstring,import-error,attribute-defined-outside-init
import os
import sys
import unittest
from unittest import mock

import pytest

from shopfp import config, jobs


class TestPatchers(unittest.TestCase):
    def setUp(self):
        self.sleep_patcher = mock.patch("shopfp.jobs.sleep", autospec=True)
        self.sleep = self.sleep_patcher.start()  # [leaked-patcher]
        cleaned = mock.patch("shopfp.jobs.time", autospec=True)
        cleaned.start()
        self.addCleanup(cleaned.stop)
        self.torn = mock.patch("shopfp.jobs.jsonlib", autospec=True)
        self.torn.start()

    def tearDown(self):
        self.torn.stop()

    def test_inline(self):
        mock.patch("shopfp.jobs.LOG", autospec=True).start()  # [leaked-patcher]
        patcher = mock.patch.dict(os.environ, {"A": "1"})
        patcher.start()
        try:
            jobs.run("a")
        finally:
            patcher.stop()


@pytest.fixture
def started():
    patcher = mock.patch("shopfp.jobs.sleep", autospec=True)
    yield patcher.start()
    patcher.stop()


def test_environ(monkeypatch):
    os.environ["SHOP_MODE"] = "test"  # [unrestored-environ-mutation]
    os.environ.pop("SHOP_DEBUG", None)  # [unrestored-environ-mutation]
    monkeypatch.setenv("SHOP_MODE", "test")
    with mock.patch.dict(os.environ):
        os.environ["SHOP_MODE"] = "guarded"


def test_environ_put_back_from_a_snapshot_at_the_end():
    saved = os.environ.copy()
    os.environ["SHOP_MODE"] = "test"  # [unrestored-environ-mutation]
    assert os.environ["SHOP_MODE"] == "test"
    os.environ.clear()
    os.environ.update(saved)
    os.environ["SHOP_LATE"] = "1"  # [unrestored-environ-mutation]


def test_environ_restored_in_finally():
    saved = dict(os.environ)
    os.environ["SHOP_MODE"] = "test"
    try:
        jobs.run("a")
    finally:
        os.environ.clear()
        os.environ.update(saved)


def test_sys_modules():
    sys.modules["yaml"] = None  # [unrestored-sys-modules-mutation]
    with mock.patch.dict(sys.modules):
        del sys.modules["json"]


def test_attributes():
    config.RETRIES = 0  # [unrestored-attribute-assignment]
    saved = jobs.helper
    jobs.helper = lambda: 0  # [unrestored-attribute-assignment]
    jobs.helper = saved
    previous = config.NAME
    config.NAME = "x"
    try:
        jobs.run("a")
    finally:
        config.NAME = previous


class Local:
    value = 1


def test_test_local_state():
    Local.value = 2
    runner = jobs.Runner()
    runner.mode = "fast"


IMPORT_PATCHER = mock.patch("shopfp.jobs.sleep", autospec=True)
IMPORT_PATCHER.start()
RESULT = jobs.run("at import")
IMPORT_PATCHER.stop()  # module level: an exception before it fails the import itself


def test_stopped_on_the_last_line():
    sleeping = mock.patch("shopfp.jobs.sleep", autospec=True)
    sleeping.start()  # [leaked-patcher]
    assert jobs.run("a")
    sleeping.stop()


def restores_config_name(test):
    def wrapper(*args, **kwargs):
        saved = config.NAME
        try:
            return test(*args, **kwargs)
        finally:
            config.NAME = saved
    return wrapper


@restores_config_name
def test_restored_by_its_decorator():
    config.NAME = "decorated"
    config.RETRIES = 9  # [unrestored-attribute-assignment]


class KeepsRetries:
    def __enter__(self):
        self.saved = config.RETRIES
        return self

    def __exit__(self, *exc):
        config.RETRIES = self.saved


def test_restored_by_a_context_manager_class():
    with KeepsRetries():
        config.RETRIES = 0


class TestPatchedBySetUp(unittest.TestCase):
    def setUp(self):
        patcher = mock.patch.object(config, "RETRIES", 5)
        patcher.start()
        self.addCleanup(patcher.stop)

    def test_changes_what_set_up_patched(self):
        config.RETRIES = 0  # the set-up's patcher puts the original back
        config.NAME = "x"  # [unrestored-attribute-assignment]


def setup_function():
    global SAVED_TIMEOUTS  # pylint: disable=global-statement
    SAVED_TIMEOUTS = config.TIMEOUTS


def teardown_function():
    config.TIMEOUTS = SAVED_TIMEOUTS


def test_restored_by_teardown_function():
    config.TIMEOUTS = (0, 0)


import copy  # noqa: E402  (kept here so the cases above keep their lines)


def test_reset_to_the_declared_value():
    config.HOOKS = []


def test_declared_value_of_another_type():
    config.HOOKS = ()  # [unrestored-attribute-assignment]


def test_restores_a_snapshot_taken_before():
    snapshot = copy.deepcopy(config.TIMEOUTS)
    jobs.run("a")
    config.TIMEOUTS = snapshot


def test_snapshot_taken_after_the_change():
    config.NAME = "y"  # [unrestored-attribute-assignment]
    snapshot = copy.copy(config.NAME)
    config.NAME = snapshot


class TestRestoringMethodRegisteredAsCleanup(unittest.TestCase):
    def _restore_modules(self, saved):
        sys.modules.pop("shopfp_plugin", None)
        sys.modules.update(saved)
        config.NAME = saved.get("name")

    def test_registers_the_restoring_method(self):
        saved = dict(sys.modules)
        self.addCleanup(self._restore_modules, saved)
        sys.modules["shopfp_plugin"] = None
        config.NAME = "plugin"

    def _unregistered_helper(self):
        sys.modules["shopfp_other"] = None  # [unrestored-sys-modules-mutation]

    def test_calls_a_helper_that_restores_nothing(self):
        self.addCleanup(self._restore_modules, {})
        self._unregistered_helper()


class _SleepPatcher:
    """A wrapper whose holder starts and stops it."""

    def __init__(self):
        self.patcher = mock.patch("shopfp.jobs.sleep", autospec=True)

    def start(self):
        self.patcher.start()

    def stop(self):
        self.patcher.stop()


class _LeakyStarter:
    def __init__(self):
        self.patcher = mock.patch("shopfp.jobs.sleep", autospec=True)

    def start(self):
        self.patcher.start()  # [leaked-patcher]


class TestWrappedPatcher(unittest.TestCase):
    def setUp(self):
        self.sleeping = _SleepPatcher()
        self.sleeping.start()

    def tearDown(self):
        self.sleeping.stop()

    def test_runs(self):
        _LeakyStarter().start()


def test_a_callbacks_own_parameter_is_not_the_module():
    def handler(request, config):  # pylint: disable=redefined-outer-name,unused-argument
        config.NAME = "handled"

    handler(None, type("Reply", (), {})())


def test_set_back_to_what_the_module_declares():
    config.DEBUG = True  # [unrestored-attribute-assignment]
    jobs.run("a")
    config.DEBUG = False  # config.py says DEBUG = False: put back, but only if the test gets here


class TestClearedBeforeEachTest(unittest.TestCase):
    def setUp(self):
        self._clear_environ()

    def test_sets_it(self):
        os.environ["SHOP_PRETTY"] = "1"  # [unrestored-environ-mutation]

    def _clear_environ(self):
        if "SHOP_PRETTY" in os.environ:
            del os.environ["SHOP_PRETTY"]  # takes back, before each test, what the class's tests set


def test_changes_a_key_monkeypatch_owns(monkeypatch):
    monkeypatch.setitem(sys.modules, "shop_plugin", None)
    monkeypatch.setenv("SHOP_MODE", "test")

    def failing_load(name):
        del sys.modules["shop_plugin"]  # monkeypatch puts the key back at tear-down all the same
        raise ImportError(name)

    os.environ.pop("SHOP_MODE")
    failing_load("shop_plugin")


def test_unimports_its_own_import(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "shopplugin.py").write_text("VALUE = 1\n", encoding="utf-8")
    import shopplugin  # noqa: F401  # pylint: disable=import-outside-toplevel

    for name in list(sys.modules):
        if name.startswith("shopplugin"):
            del sys.modules[name]  # takes back what the import above added
    for name in list(sys.modules):
        if name.startswith("shopfp"):
            del sys.modules[name]  # [unrestored-sys-modules-mutation]


def test_unimports_more_than_its_own(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "shopplugin.py").write_text("VALUE = 1\n", encoding="utf-8")
    import shopplugin  # noqa: F401  # pylint: disable=import-outside-toplevel

    dropped = ["logging.handlers"]
    for name in list(sys.modules):
        if name in dropped or name.startswith("shopplugin"):  # more than its own import added
            del sys.modules[name]  # [unrestored-sys-modules-mutation]


def test_reimports_a_module_loaded_before():
    for name in list(sys.modules):
        if name.startswith("unittest"):  # imported by this file before the test ran
            del sys.modules[name]  # [unrestored-sys-modules-mutation]
    import unittest as fresh  # pylint: disable=import-outside-toplevel,reimported

    assert fresh is not unittest


class Transaction:
    def commit(self):
        return None


class KeptTransactions:
    kept = []


def make_transaction():
    made = Transaction()
    mock.patch.object(made, "commit").start()  # a new object each call: no later test sees the patch
    return made


def make_kept_transaction():
    made = Transaction()
    mock.patch.object(made, "commit").start()  # [leaked-patcher]
    KeptTransactions.kept = made
    return made


def test_transactions():
    assert make_transaction() is not make_kept_transaction()


@pytest.mark.parametrize("keepalive", [None, 0])
def test_arms_of_one_if(keepalive):
    if keepalive is None:
        os.environ["SHOP_KEEPALIVE"] = "1"  # [unrestored-environ-mutation]
    elif "SHOP_KEEPALIVE" in os.environ:
        del os.environ["SHOP_KEEPALIVE"]  # [unrestored-environ-mutation]


import argparse  # noqa: E402  (kept here so the cases above keep their lines)
from argparse import ArgumentParser  # noqa: E402


def test_library_class_attribute_left_changed():  # fabric 3.2.3's `Runner.stop = Mock()` on invoke's Runner
    ArgumentParser.exit = mock.Mock()  # [unrestored-attribute-assignment]


def test_library_submodule_attribute_left_changed():
    os.path.expanduser = str  # [unrestored-attribute-assignment]


def test_library_class_attribute_put_back():
    saved = argparse.ArgumentParser.exit
    argparse.ArgumentParser.exit = mock.Mock()
    try:
        pass
    finally:
        argparse.ArgumentParser.exit = saved


def test_library_object_attribute_is_not_a_namespace():
    argparse.ArgumentParser().prog = "x"


def test_drops_a_module_only_the_run_made(tmp_path):
    (tmp_path / "shop_fodder.py").write_text('"""fodder"""\n', encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        __import__("shop_fodder")
    finally:
        sys.path.remove(str(tmp_path))
    sys.modules.pop("shop_fodder", None)  # no file of the project or of a library makes it: cleanup
    del sys.modules["shop_fodder.inner"]
    sys.modules.pop("shopfp.jobs", None)  # [unrestored-sys-modules-mutation]
    sys.modules.pop("hygiene_swept", None)  # [unrestored-sys-modules-mutation]
    del sys.modules["csv"]  # [unrestored-sys-modules-mutation]


from absent_vendor_lib import registry  # noqa: E402  (not installed: what it gives is not known)
from absent_vendor_lib.settings import CONF  # noqa: E402


def test_assigns_on_a_name_imported_from_a_library_not_installed():
    registry.Manager = mock.Mock()  # [unrestored-attribute-assignment]
    CONF.group.option = "x"  # an attribute of what the import gave: not known to be shared


def test_drops_keys_no_module_is_named():
    sys.modules.pop("../../etc/hosts", None)  # [unrestored-sys-modules-mutation]
