"""Shared state put back by a module function a test registers as a cleanup
(or a function of the changed module resetting its global),
by a fixture that takes an added name away after its yield, or by pytester;
keys a test adds and deletes again; a callback handed to other code; a
requested fixture or a helper whose yield a restoring manager wraps."""
# pylint: disable=missing-docstring,import-error,redefined-outer-name
import contextlib
import importlib
import logging
import os
import sys
import types
import unittest

import pytest

from shopfp import config, sessions
from shopfp.tools import ToolCache


def _reset_retries():
    config.RETRIES = 3


class TestModuleCleanup(unittest.TestCase):
    def test_registered(self):
        config.RETRIES = 0
        self.addCleanup(_reset_retries)

    def test_not_registered(self):
        config.RETRIES = 1  # [unrestored-attribute-assignment]


@pytest.fixture
def custom_flag():
    config.CUSTOM = True
    yield
    del config.CUSTOM


@pytest.fixture
def custom_flag_kept():
    config.KEPT = True  # [unrestored-attribute-assignment]
    yield


def test_flags(custom_flag, custom_flag_kept):
    assert config.CUSTOM and config.KEPT


def test_with_pytester(pytester):
    sys.modules["shopfp_fake_plugin"] = None
    assert pytester


def test_without_pytester(tmp_path):
    sys.modules["shopfp_fake_plugin"] = None  # [unrestored-sys-modules-mutation]
    assert tmp_path


def test_keys_added_then_taken_back(missing):
    for name in missing:
        sys.modules[name] = types.ModuleType(name)  # [unrestored-sys-modules-mutation]
    for dependency in missing:
        del sys.modules[dependency]
    os.environ["SHOP_MODE"] = "x"  # [unrestored-environ-mutation]
    os.environ.pop("SHOP_MODE")
    os.environ.pop("SHOP_DEBUG")  # [unrestored-environ-mutation]


def test_keys_taken_back_in_finally():
    sys.modules["shopfp_shadow"] = types.ModuleType("shopfp_shadow")
    try:
        pass
    finally:
        del sys.modules["shopfp_shadow"]


def _worker_setup():
    _configure_worker()


def _configure_worker():
    config.RETRIES = 1


def _streaming_worker_setup():
    _configure_worker()


def _called_helper():
    config.RETRIES = 2  # [unrestored-attribute-assignment]


def test_hands_on_a_callback(start_workers):
    start_workers(setup_hook=_worker_setup)
    start_workers(setup_hook=_streaming_worker_setup)
    _called_helper()


def _faster(func):
    def wrapper(*args):
        config.RETRIES = 0  # [unrestored-attribute-assignment]
        return func(*args)
    return wrapper


@_faster
def test_decorated_by_a_helper():
    pass


class EnvVars(dict):
    def __init__(self, values=None):
        super().__init__(os.environ)
        self.saved = dict(self)
        self.update(values or {})

    def __enter__(self):
        os.environ.clear()
        os.environ.update(self)

    def __exit__(self, *exc):
        os.environ.clear()
        os.environ.update(self.saved)


@contextlib.contextmanager
def in_env(values):
    with EnvVars(values):
        yield


@pytest.fixture
def clean_env():
    with EnvVars({"SHOP_CACHE": "/tmp"}):
        yield


@pytest.fixture
def quiet_env():
    with contextlib.suppress(KeyError):
        yield


def test_requested_fixture_restores(clean_env):
    del os.environ["SHOP_REPO"]


def test_requested_fixture_does_not(quiet_env):
    del os.environ["SHOP_REPO"]  # [unrestored-environ-mutation]


def test_helper_wrapping_a_restoring_manager():
    with in_env({"A": "1"}):
        os.environ.pop("SHOP_REPO", None)


def test_resets_a_global_declared_as_a_class():
    sessions.current_pool = None  # the value the module declares: nothing changes


def pytest_configure(config):
    """A pytest hook: it sets up the whole session once, on purpose."""
    os.environ["SHOP_COLOUR"] = config.getoption("color")
    config.RETRIES = 0


@pytest.fixture
def tools():
    made = ToolCache()
    made.os = unittest.mock.MagicMock(spec_set=os)
    made.os.environ = {}
    return made


@pytest.fixture
def real_tools():
    return ToolCache()


def test_environment_of_a_mock_the_fixture_put_in(tools):
    tools.os.environ["SHOP_HOME"] = "/x"


def test_environment_reached_through_the_real_module(real_tools):
    real_tools.os.environ["SHOP_HOME"] = "/x"  # [unrestored-environ-mutation]


def test_environment_of_a_mock_the_test_put_in():
    made = ToolCache()
    made.os = unittest.mock.MagicMock(spec_set=os)
    made.os.environ["SHOP_HOME"] = "/x"


class TestReloadedInTearDown(unittest.TestCase):
    def tearDown(self):
        importlib.reload(config)

    def test_changes_a_module_its_tear_down_reloads(self):
        config.RETRIES = 9
        sessions.current_pool = "pool"  # [unrestored-attribute-assignment]


class swapped_name:  # pylint: disable=invalid-name
    """A manager of the tests: __enter__ changes what __exit__ puts back."""

    def __init__(self, name):
        self.name = name
        self.saved = None

    def __enter__(self):
        self.saved = config.NAME
        config.NAME = self.name

    def __exit__(self, *exc):
        config.NAME = self.saved


def start_servers():
    saved = {"name": config.NAME}
    config.NAME = 0
    return saved


def teardown_servers(saved):
    config.NAME = saved["name"]


def set_no_debug():
    config.DEBUG = True  # [unrestored-attribute-assignment]


def test_resets_a_global_to_its_declared_empty_value():
    config.HOOKS = list()  # the module declares HOOKS = []: nothing changes


def test_resets_a_standard_library_global_to_its_declared_value():
    logging.logThreads = 1  # logging declares logThreads = True: nothing changes
    logging.raiseExceptions = True  # declared True as well


def test_changes_a_standard_library_global():
    logging.logProcesses = 0  # [unrestored-attribute-assignment]


def probe_docker():
    os.environ["SHOP_DOCKER"] = "1"  # runs once, while the module is collected
    return True


@pytest.mark.skipif(not probe_docker(), reason="no docker")
def test_collected_after_a_probe():
    pass


def fake_modules():
    sys.modules["shop_fake"] = types.ModuleType("shop_fake")  # [unrestored-sys-modules-mutation]


fake_modules()  # at import: the fake stays for every module imported after this one


class TestPoolFixture:
    @pytest.fixture
    def pool_in_use(self):
        sessions._POOL = "pool"
        yield
        sessions.reset_pool()  # the module's own function sets the global back, after any test

    def test_uses_the_pool(self, pool_in_use):
        assert pool_in_use is None


class TestModuleResetFunction(unittest.TestCase):
    def test_reset_registered(self):
        sessions._POOL = "pool"
        self.addCleanup(sessions.reset_pool)

    def test_reset_at_the_end(self):
        sessions._POOL = "pool"  # [unrestored-attribute-assignment]
        sessions.reset_pool()

    def test_another_global_reset(self):
        sessions._POOL = "pool"  # [unrestored-attribute-assignment]
        sessions.other_spare()


class BackendCall:
    """Made to run in a worker process: the test hands it to a pool."""

    def __init__(self, env):
        self.env = env

    def __call__(self, name):
        os.environ.update(self.env)
        return name


class LocalCall:
    def __init__(self, env):
        self.env = env

    def __call__(self, name):
        os.environ.update(self.env)  # [unrestored-environ-mutation]
        return name


def test_hands_an_object_to_a_pool(process_pool):
    call = BackendCall({"SHOP_BACKEND": "1"})
    assert process_pool.submit(call, "build").result()


def test_calls_the_object_itself():
    call = LocalCall({"SHOP_BACKEND": "1"})
    assert call("build")
