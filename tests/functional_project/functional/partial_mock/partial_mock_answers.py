"""Arms the code under test takes on a mock's own answers, or never reaches:
a handler of a builtin error its ``try`` raises on the answer's data, a
handler that raises again what passes through it, a caller the class's
set-up replaces, and a value held in a local name."""
# pylint: disable=missing-docstring,import-error,unused-argument
import subprocess
import unittest
from unittest import mock

from shopfp import probing


class TestProbeVersion(unittest.TestCase):
    @mock.patch("shopfp.probing.run_command", autospec=True, return_value="")
    def test_unknown(self, run_command):
        # "" unpacks into too few names: ValueError takes the handler whatever run_command raises
        self.assertIsNone(probing.probe_version("python"))


class TestProbeName(unittest.TestCase):
    @mock.patch("shopfp.probing.run_command", autospec=True, return_value="x")  # [undocumented-partial-mock]
    def test_named(self, run_command):
        self.assertEqual("x", probing.probe_name("python"))


class TestRunLogged(unittest.TestCase):
    @mock.patch("shopfp.probing.run_command", autospec=True, return_value="out")
    def test_output(self, run_command):
        self.assertEqual("out", probing.run_logged(["true"]))

    @mock.patch("subprocess.run", autospec=True, return_value=subprocess.CompletedProcess([], -2))
    def test_interrupted(self, run):
        # the real run_command raises Interrupted; it passes through run_logged's handler
        self.assertRaises(probing.Interrupted, probing.run_logged, ["sleep"])


class TestRunLoggedAlone(unittest.TestCase):
    @mock.patch("shopfp.probing.run_command", autospec=True, return_value="out")  # [undocumented-partial-mock]
    def test_output(self, run_command):
        self.assertEqual("out", probing.run_logged(["true"]))


class TestSettingsWithReaderReplaced(unittest.TestCase):
    def setUp(self):
        patcher = mock.patch("shopfp.probing.settings_text", autospec=True, return_value="a=1")
        patcher.start()
        self.addCleanup(patcher.stop)

    @mock.patch("shopfp.probing.read_raw", autospec=True, return_value="b=2")
    def test_settings(self, read_raw):
        # settings_text is the set-up's mock in every test here: its handler never runs
        self.assertEqual("a=1", probing.settings_text("x"))


class TestSettings(unittest.TestCase):
    @mock.patch("shopfp.probing.read_raw", autospec=True, return_value="b=2")  # [undocumented-partial-mock]
    def test_settings(self, read_raw):
        self.assertEqual("b=2", probing.settings_text("x"))


class TestDescribe(unittest.TestCase):
    @mock.patch("shopfp.probing.find_python", autospec=True)
    def test_found(self, find_python):
        find_python.return_value = "/usr/bin/python3"
        self.assertEqual("/usr/bin/python3", probing.describe())

    @mock.patch("shopfp.probing.find_python", autospec=True)
    def test_missing(self, find_python):
        missing = None
        find_python.return_value = missing  # None, held in a name: takes `if path is None`
        self.assertTrue(probing.describe())


class TestModeOf(unittest.TestCase):
    @mock.patch("shopfp.probing.read_mode", autospec=True, return_value=None)  # [undocumented-partial-mock]
    def test_default(self, read_mode):
        # only `if not mode` reads read_mode's answer: `mode == "fast"` reads the default after it
        self.assertEqual(1, probing.mode_of("fast"))
