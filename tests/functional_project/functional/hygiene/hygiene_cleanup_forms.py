"""Cleanups in the forms Twisted's suite writes them: a function of the helper
registered with addCleanup, a cleanup a helper method registers for the test
calling it, a tear-down putting a list's contents back, and a manager's
``__enter__`` helper undone by its ``__exit__``; and a module's attribute put
back in a ``finally`` block through another spelling of the same module
(Swift's ``manager.os.environ = {}`` ... ``os.environ = saved``); a helper
whose every use runs inside a restoring manager, also through a closure or a
helper method called only there (Swift's ``set_http_connect``); a function a
set-up defines and registers as a cleanup (oslo.config's ``def cleanup()``
then ``self.addCleanup(cleanup)``), which must put the same thing back."""
# pylint: disable=missing-docstring,too-few-public-methods
import contextlib
import os
import sys
import unittest
from io import StringIO

from shopfp import config, lazy  # pylint: disable=import-error


class TestHome(unittest.TestCase):
    def replace_home(self, home):
        old = os.environ.get("HOME")

        def cleanup_home():
            if old is None:
                del os.environ["HOME"]
            else:
                os.environ["HOME"] = old

        self.addCleanup(cleanup_home)
        os.environ["HOME"] = home

    def replace_shell(self, shell):
        def cleanup_nothing():
            pass

        self.addCleanup(cleanup_nothing)
        os.environ["SHELL"] = shell  # [unrestored-environ-mutation]

    def test_home(self):
        self.replace_home("/tmp/x")
        self.replace_shell("/bin/true")


class TestStdout(unittest.TestCase):
    def _stdout_cleanup(self):
        self.addCleanup(setattr, sys, "stdout", sys.stdout)

    def test_via_helper(self):
        self._stdout_cleanup()
        sys.stdout = StringIO()

    def test_without(self):
        sys.stderr = StringIO()  # [unrestored-attribute-assignment]


class TestPath(unittest.TestCase):
    def setUp(self):
        self.original = sys.path[:]

    def tearDown(self):
        sys.path[:] = self.original

    def test_paths(self):
        sys.path = ["foo"]


class SetAside:
    def __init__(self, name):
        self.name = name
        self.modules = {}

    def _unimport(self):
        for name in [n for n in sys.modules if n == self.name]:
            self.modules[name] = sys.modules[name]
            del sys.modules[name]

    def __enter__(self):
        self._unimport()

    def __exit__(self, *exc_info):
        sys.modules.update(self.modules)


class TestSetAside(unittest.TestCase):
    def test_set_aside(self):
        with SetAside("json"):
            pass


class TestEnvironmentThroughAModule(unittest.TestCase):
    def test_swapped_and_put_back_by_another_spelling(self):
        saved = os.environ
        try:
            lazy.os.environ = {}  # lazy.os is os
            self.assertEqual(lazy.split("a"), ["a"])
        finally:
            os.environ = saved

    def test_swapped_for_good(self):
        lazy.os.environ = {}  # [unrestored-attribute-assignment]
        self.assertEqual(lazy.split("a"), ["a"])


@contextlib.contextmanager
def kept_name():
    saved = config.NAME
    try:
        yield
    finally:
        config.NAME = saved


def set_name(value):
    config.NAME = value  # every use runs inside ``with kept_name():``


def set_name_for_good(value):
    config.NAME = value  # [unrestored-attribute-assignment]


class TestKeptName(unittest.TestCase):
    def test_direct(self):
        with kept_name():
            set_name("a")

    def test_through_a_closure(self):
        def test(value):
            set_name(value)

        with kept_name():
            test("b")

    def _set(self, value):
        set_name(value)

    def test_through_a_helper_method(self):
        with kept_name():
            self._set("c")

    def test_without_the_manager(self):
        set_name_for_good("d")


class TestSetUpRegistersItsOwnFunction(unittest.TestCase):
    def setUp(self):
        super().setUp()

        def cleanup():
            for name in ("SHOP_A", "SHOP_B"):
                if name in os.environ:
                    del os.environ[name]

        self.addCleanup(cleanup)

    def test_set(self):
        os.environ["SHOP_A"] = "x"


class TestSetUpRegistersAnUnrelatedFunction(unittest.TestCase):
    def setUp(self):
        super().setUp()

        def cleanup():
            print("done")

        self.addCleanup(cleanup)

    def test_set(self):
        os.environ["SHOP_A"] = "x"  # [unrestored-environ-mutation]


class TestRebindingInTearDown(unittest.TestCase):  # docker 6.1.3's FromEnvTest
    def setUp(self):
        self.saved_environ = os.environ.copy()

    def tearDown(self):
        os.environ = self.saved_environ  # a plain dict now: the process keeps what the test set

    def test_set(self):
        os.environ.update(SHOP_HOST="tcp://h:2376")  # [unrestored-environ-mutation]


class TestPuttingBackInTearDown(unittest.TestCase):
    def setUp(self):
        self.saved_environ = os.environ.copy()

    def tearDown(self):
        os.environ.clear()
        os.environ.update(self.saved_environ)

    def test_set(self):
        os.environ.update(SHOP_HOST="tcp://h:2376")
