"""The runtime record: real pytest runs of small projects with the plugin, and
``mockpolicy check --runtime`` merging what they recorded."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import APP_FILES, git, mockpolicy, mockpolicy_in_process, run, write_tree

from mockpolicy.runtime import record

PROJECT = {  # run with PYTHONPATH=src
    "pyproject.toml": APP_FILES["pyproject.toml"],
    "src/app/__init__.py": "",
    "src/app/mail.py": """
        RETRIES = 3


        class Mailer:
            def send(self, to):
                return f"sent to {to}"


        REGISTRY = {"email": Mailer()}


        def fetch(flag):
            if flag:
                return "fresh"
            raise LookupError(flag)


        def notify(flag):
            try:
                return fetch(flag)
            except LookupError:
                return "stale"


        def notify_if(enabled, flag):
            if not enabled:
                return "off"
            return notify(flag)
        """,
}

POLLUTING = {
    "tests/test_pollution.py": """
        import os
        from unittest import mock

        import pytest

        from app import mail


        @pytest.fixture(scope="module")
        def mode():
            os.environ["APP_MODE"] = "module"
            yield
            del os.environ["APP_MODE"]


        @pytest.fixture(scope="module")
        def sloppy():
            os.environ["APP_SLOPPY"] = "1"
            yield


        def test_first_uses_module_fixture(mode):
            assert os.environ["APP_MODE"] == "module"


        def test_leaks_environ():
            os.environ["APP_LEAK"] = "1"


        def test_leaks_patch():
            mock.patch("app.mail.fetch", return_value="canned").start()


        def test_leaves_mock(sloppy):
            mail.RETRIES = mock.Mock()


        def test_restores(monkeypatch):
            monkeypatch.setenv("APP_OTHER", "1")
            monkeypatch.setattr(mail, "RETRIES", 9)


        def test_last():
            assert mail.notify(False) == "canned"
        """,
}

MOCKING = {
    "tests/test_mocks.py": """
        from unittest import mock
        from unittest.mock import patch

        import pytest

        from app import mail


        @patch("app.mail.fetch", return_value="x", autospec=True)
        def test_decorator(fetch):
            assert mail.notify(True) == "x"


        def test_never_calls(monkeypatch):
            monkeypatch.setattr(mail, "fetch", mock.Mock(return_value="y"))
            with patch.object(mail.Mailer, "send") as send:
                pass


        def test_spec_and_multiple():
            double = mock.Mock(spec=mail.Mailer)
            with patch.multiple(mail, RETRIES=1, fetch=mock.DEFAULT):
                double.send("a")


        def test_patch_dict():
            with patch.dict("os.environ", {"APP_X": "1"}):
                pass


        def test_on_an_instance_and_a_new_key(monkeypatch):
            monkeypatch.setattr(mail.Mailer(), "send", lambda to: "canned")
            monkeypatch.setitem(mail.__dict__, "NEW_NAME", 1)
        """,
    "tests/test_unittest_style.py": """
        import unittest
        from unittest import mock

        from app import mail


        class MailTest(unittest.TestCase):
            def setUp(self):
                patcher = mock.patch.object(mail, "fetch", return_value="z")
                self.fetch = patcher.start()
                self.addCleanup(patcher.stop)

            def test_notify(self):
                self.assertEqual(mail.notify(True), "z")
        """,
}


def _project(tmp_path: Path, *trees: dict[str, str]) -> Path:
    write_tree(tmp_path, PROJECT)
    for tree in trees:
        write_tree(tmp_path, tree)
    return tmp_path


def _pytest(root: Path, *args: str) -> Any:
    return run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd=root, env={"PYTHONPATH": "src"})


def _record(root: Path, name: str = ".mockpolicy/runtime.json") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((root / name).read_text(encoding="utf-8"))
    return data


def _outcomes(output: str) -> list[str]:
    return sorted(line for line in output.splitlines() if line.startswith(("PASSED", "FAILED", "ERROR", "SKIPPED")))


def test_the_plugin_is_inert_unless_asked(tmp_path: Path) -> None:
    root = _project(tmp_path, POLLUTING)
    result = _pytest(root, "-rA")
    assert "mockpolicy" not in result.stdout
    assert not (root / ".mockpolicy").exists()


def test_pollution_names_the_test_that_left_state_behind(tmp_path: Path) -> None:
    root = _project(tmp_path, POLLUTING)
    plain = _pytest(root, "-rA")
    recorded = _pytest(root, "-rA", "--mockpolicy-record")
    assert _outcomes(recorded.stdout) == _outcomes(plain.stdout)  # the plugin changes no outcome
    data = _record(root)
    assert data["format"] == "mockpolicy-runtime" and data["version"] == record.VERSION
    blamed = {(p["polluter"].split("::")[-1], p["state"], p["name"], p["later"]) for p in data["pollution"]}
    assert blamed == {
        ("test_leaks_environ", "environ", "os.environ['APP_LEAK']", 4),
        ("test_leaks_patch", "patch", "patch of app.mail.fetch (made at tests/test_pollution.py:31)", 3),
        ("test_leaves_mock", "attribute", "app.mail.RETRIES", 2),
        ("fixture sloppy", "environ", "os.environ['APP_SLOPPY']", 0),
    }
    sloppy = next(p for p in data["pollution"] if p["polluter"] == "fixture sloppy")
    assert (sloppy["path"], sloppy["scope"], sloppy["line"]) == ("tests/test_pollution.py", "sloppy", 16)
    assert "left os.environ['APP_LEAK'] set (was unset); 4 later test(s)" in recorded.stdout


REBINDING = {
    "tests/test_rebinding.py": """
        import os

        import pytest


        @pytest.fixture
        def environ():  # pytest-relaxed's: put back by rebinding os.environ to a copy
            saved = os.environ.copy()
            yield os.environ
            os.environ = saved


        def test_puts_back_by_rebinding(environ):
            environ["APP_SET"] = "1"


        def test_rebinds_to_more():
            os.environ = {**os.environ, "APP_ADDED": "1"}


        def test_after():
            assert "APP_SET" not in os.environ
        """,
}


def test_environ_rebound_to_a_mapping_is_compared_by_what_it_holds(tmp_path: Path) -> None:
    """A fixture putting ``os.environ`` back as a copy changed no variable (the
    real one keeps its keys encoded, a copy as text); one variable added by a
    rebinding is named as it is spelt, set where it was unset."""
    root = _project(tmp_path, REBINDING)
    assert _pytest(root, "--mockpolicy-record").returncode == 0
    blamed = {(p["polluter"].split("::")[-1], p["name"], p["before"], p["after"]) for p in _record(root)["pollution"]}
    assert blamed == {("test_rebinds_to_more", "os.environ['APP_ADDED']", "unset", "set")}


REIMPORTING = {
    "tests/_support/plugin_file.py": "VALUE = 1\n",
    "tests/test_reimport.py": """
        import importlib.util
        import os
        import sys

        PLUGIN = os.path.join(os.path.dirname(__file__), "_support", "plugin_file.py")


        def load():  # a loader running a file as the module 'plugin_file', as invoke's does
            spec = importlib.util.spec_from_file_location("plugin_file", PLUGIN)
            module = importlib.util.module_from_spec(spec)
            sys.modules["plugin_file"] = module
            spec.loader.exec_module(module)
            return module


        def test_loads_first():
            assert load().VALUE == 1


        def test_loads_again():
            assert load().VALUE == 1


        def test_after():
            pass
        """,
}


def test_a_module_imported_again_from_its_file_says_so(tmp_path: Path) -> None:
    """The first import is no pollution; a second one from the same file
    replaces the module the rest of the run sees, and the message says how."""
    root = _project(tmp_path, REIMPORTING)
    assert _pytest(root, "--mockpolicy-record").returncode == 0
    blamed = {(p["polluter"].split("::")[-1], p["name"], p["after"]) for p in _record(root)["pollution"]}
    assert blamed == {("test_loads_again", "sys.modules['plugin_file']", "a new import of the same file")}


QUIET = {
    "src/app/registry.py": """
        HANDLERS = {"a": 1}
        CACHE = None


        def warm():
            global CACHE
            CACHE = {"warm": True}


        def load_overlay():
            from app import overlay  # imported when first needed
            return overlay
        """,
    "src/app/fast_queue.py": """
        QUEUE = "fast"
        """,
    "src/app/queue.py": """
        import sys

        from app import fast_queue

        sys.modules[__name__] = fast_queue  # the fast version in its place (gevent.queue's _gevent_cqueue)
        """,
    "src/app/overlay.py": """
        import sys
        import types

        # an entry of its own, set as it is first imported (zipp 4.1.2's compat.overlay)
        sys.modules[__name__ + ".zipfile"] = types.SimpleNamespace()
        """,
    "tests/test_quiet.py": """
        import sys
        import types

        import pytest

        from app import mail, registry


        @pytest.fixture
        def saved_handlers():
            saved = dict(registry.HANDLERS)
            yield
            registry.HANDLERS = saved


        def test_restored_by_a_copy(saved_handlers):
            registry.HANDLERS = {**registry.HANDLERS, "b": 2}


        def test_lazy_set_up():
            registry.warm()


        def test_first_import_with_its_entries():
            registry.load_overlay()


        def test_first_import_putting_another_module_in_its_place():
            import app.queue  # noqa: F401


        def test_entry_under_a_module_imported_before():
            sys.modules["app.registry.extra"] = types.SimpleNamespace()


        def test_del_undoes_an_add():
            mail.EXTRA = 1
            del mail.EXTRA


        def test_pollutes():
            mail.RETRIES = 4



        def test_puts_it_back():
            mail.RETRIES = 3


        def test_after():
            pass
        """,
}


def test_what_is_not_pollution(tmp_path: Path) -> None:
    root = _project(tmp_path, QUIET)
    _pytest(root, "--mockpolicy-record")
    data = _record(root)
    assert [(p["polluter"].split("::")[-1], p["name"], p["before"], p["after"], p["later"]) for p in data["pollution"]] == [
        ("test_entry_under_a_module_imported_before", "sys.modules['app.registry.extra']", "missing",
         "a types.SimpleNamespace object", 4),
        ("test_pollutes", "app.mail.RETRIES", "3", "4", 1),
    ]
    left = {test["scope"]: test["left"] for test in data["tests"]}
    assert left["test_lazy_set_up"] == ["attribute app.registry.CACHE"]  # recorded, not blamed
    assert "sys.modules sys.modules['app.overlay.zipfile']" in left["test_first_import_with_its_entries"]
    assert "sys.modules sys.modules['app.queue']" in left["test_first_import_putting_another_module_in_its_place"]
    assert left["test_del_undoes_an_add"] == left["test_restored_by_a_copy"] == []


LIBRARY_IMPORT_EFFECTS = {
    "remade/__init__.py": """
        import sys
        import types

        # the module object replaced by a new one as it is imported (kombu's __init__)
        remade = types.ModuleType(__name__)
        remade.__dict__.update({"__file__": __file__, "VERSION": "1"})
        sys.modules[__name__] = remade
        """,
    "aliasing.py": """
        import _thread
        import sys

        sys.modules["__original_module__thread"] = _thread  # eventlet's patcher keeps the originals so
        """,
}


def test_what_a_library_does_to_sys_modules_as_it_is_imported_is_no_pollution(tmp_path: Path) -> None:
    """An installed library may leave its own modules in ``sys.modules`` under
    names of its making as it is first imported; a test importing it left
    nothing behind. The same done with a module the suite loads from its own
    files is blamed."""
    library = write_tree(tmp_path / "site", LIBRARY_IMPORT_EFFECTS)
    root = _project(tmp_path / "project", {
        "tests/fake_settings.py": "DEBUG = True\n",
        "tests/test_imports.py": """
            import sys


            def test_imports_libraries():
                import aliasing  # noqa: F401
                import remade  # noqa: F401


            def test_puts_a_module_of_its_own_in_place():
                from tests import fake_settings
                sys.modules["app.settings"] = fake_settings


            def test_after():
                pass
            """,
    })
    run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--mockpolicy-record"], cwd=root,
        env={"PYTHONPATH": f"src{os.pathsep}{library}"})
    assert [(p["polluter"].split("::")[-1], p["name"]) for p in _record(root)["pollution"]] == [
        ("test_puts_a_module_of_its_own_in_place", "sys.modules['app.settings']"),
    ]


def test_mocks_record_what_they_replaced_and_whether_called(tmp_path: Path) -> None:
    root = _project(tmp_path, MOCKING)
    result = _pytest(root, "--mockpolicy-record=out/record.json")
    assert result.returncode == 0, result.stdout
    mocks = {(m["path"].rpartition("/")[2], m["line"], m["kind"], m["api"], m["module"], m["qualname"], m["what"], m["called"])
             for m in _record(root, "out/record.json")["mocks"]}
    assert mocks == {
        ("test_mocks.py", 9, "patch", "unittest", "app.mail", "fetch", "function", True),
        ("test_mocks.py", 15, "setattr", "monkeypatch", "app.mail", "fetch", "function", False),
        ("test_mocks.py", 16, "patch.object", "unittest", "app.mail", "Mailer.send", "function", False),
        ("test_mocks.py", 21, "mock", "unittest", "app.mail", "Mailer", "class", True),
        ("test_mocks.py", 22, "patch.multiple", "unittest", "builtins", "int", "value", None),
        ("test_mocks.py", 22, "patch.multiple", "unittest", "app.mail", "fetch", "function", False),
        ("test_mocks.py", 27, "patch.dict", "unittest", "os", "_Environ", "instance", None),
        # the instance's own __dict__ lacked it: what it replaced is its class's method (pytest 9 records nothing)
        ("test_mocks.py", 32, "setattr", "monkeypatch", "app.mail", "Mailer.send", "function", None),
        ("test_mocks.py", 33, "setitem", "monkeypatch", None, None, "missing", None),
        ("test_unittest_style.py", 9, "patch.object", "unittest", "app.mail", "fetch", "function", True),
    }
    starts = _record(root, "out/record.json")["starts"]
    assert starts == [{"path": "tests/test_unittest_style.py", "line": 10, "runs": 1, "stopped_safely": 1}]


UNITTEST_CLASSES = {
    "tests/test_classes.py": """
        import os
        import unittest
        from unittest import mock

        from app import mail


        class PatchedForTheClass(unittest.TestCase):
            @classmethod
            def setUpClass(cls):
                cls.patcher = mock.patch.object(mail, "RETRIES", 7)
                cls.patcher.start()

            @classmethod
            def tearDownClass(cls):
                cls.patcher.stop()

            def test_one(self):
                self.assertEqual(mail.RETRIES, 7)

            def test_two(self):
                self.assertEqual(mail.RETRIES, 7)


        class Leaky(unittest.TestCase):
            def setUp(self):
                os.environ["APP_FROM_SETUP"] = "1"

            def test_three(self):
                self.assertEqual(mail.RETRIES, 3)


        class After(unittest.TestCase):
            def test_four(self):
                self.assertEqual(mail.RETRIES, 3)
        """,
}


def test_unittest_classes(tmp_path: Path) -> None:
    root = _project(tmp_path, UNITTEST_CLASSES)
    result = _pytest(root, "--mockpolicy-record")
    assert result.returncode == 0, result.stdout
    data = _record(root)
    assert [(p["polluter"], p["scope"], p["name"], p["later"]) for p in data["pollution"]] == [
        ("tests/test_classes.py::Leaky::test_three", "Leaky.test_three", "os.environ['APP_FROM_SETUP']", 1),
    ]
    assert {test["scope"]: test["outcome"] for test in data["tests"]} == {
        "PatchedForTheClass.test_one": "passed", "PatchedForTheClass.test_two": "passed",
        "Leaky.test_three": "passed", "After.test_four": "passed",
    }


def test_unittest_mock_is_left_as_it_was(tmp_path: Path) -> None:
    root = _project(tmp_path, MOCKING)
    script = root / "run.py"
    script.write_text(
        "import sys, unittest.mock as m, pytest, _pytest.monkeypatch as mp, os\n"
        "before = [m._patch.__enter__, m._patch.start, m.NonCallableMock._mock_add_spec, mp.MonkeyPatch.setattr,"
        " type(os.environ).__setitem__]\n"
        "status = pytest.main(['-q', '-p', 'no:cacheprovider', 'tests', '--mockpolicy-record'])\n"
        "after = [m._patch.__enter__, m._patch.start, m.NonCallableMock._mock_add_spec, mp.MonkeyPatch.setattr,"
        " type(os.environ).__setitem__]\n"
        "print('SAME' if all(a is b for a, b in zip(before, after)) else 'CHANGED', int(status))\n",
        encoding="utf-8",
    )
    result = run([sys.executable, str(script)], cwd=root, env={"PYTHONPATH": "src"})
    assert result.stdout.strip().endswith("SAME 0"), result.stdout + result.stderr


@pytest.mark.slow
def test_xdist_workers_records_are_merged(tmp_path: Path) -> None:
    root = _project(tmp_path, POLLUTING, MOCKING)
    result = _pytest(root, "-n", "2", "--mockpolicy-record")
    data = _record(root)
    assert sorted(data["processes"]) == ["gw0", "gw1"], result.stdout
    assert len(data["tests"]) == 12
    assert {p["polluter"].split("::")[-1] for p in data["pollution"]} >= {"test_leaks_environ", "test_leaks_patch"}
    assert {p["process"] for p in data["pollution"]} <= {"gw0", "gw1"}
    assert "pollution(s) recorded in .mockpolicy/runtime.json" in result.stdout


def test_record_setting_in_pyproject(tmp_path: Path) -> None:
    root = _project(tmp_path, POLLUTING)
    with (root / "pyproject.toml").open("a", encoding="utf-8") as handle:
        handle.write('\n[tool.mockpolicy]\nrecord = "records/run.json"\n')
    _pytest(root)
    assert len(_record(root, "records/run.json")["tests"]) == 6


@pytest.mark.parametrize(("setting", "problem"), [
    ("3", "record must be true, false or a path (a string)"),
    ('"../elsewhere.json"', "record must be a path inside the project, relative to it"),
])
def test_a_bad_record_setting_is_one_sentence(tmp_path: Path, setting: str, problem: str) -> None:
    root = _project(tmp_path, POLLUTING)
    with (root / "pyproject.toml").open("a", encoding="utf-8") as handle:
        handle.write(f"\n[tool.mockpolicy]\nrecord = {setting}\n")
    checked = mockpolicy_in_process("check", cwd=root)
    assert checked.returncode == 2 and problem in checked.stderr and checked.stderr.count("\n") == 1
    tested = _pytest(root)  # the suite still runs, unrecorded, with a warning
    assert tested.returncode == 0 and "mockpolicy: not recording:" in tested.stdout and problem in tested.stdout
    assert not (root / ".mockpolicy").exists()


def test_a_test_path_taken_for_the_record_path_is_refused(tmp_path: Path) -> None:
    root = _project(tmp_path, POLLUTING)
    result = _pytest(root, "--mockpolicy-record", "tests")
    assert result.returncode == 4
    assert "--mockpolicy-record took 'tests' as the record's path; write --mockpolicy-record=PATH" in result.stderr


MERGED = {
    "tests/__init__.py": "",
    "tests/support.py": """
        import os


        def put_back(saved):
            os.environ.clear()
            os.environ.update(saved)
        """,
    "tests/conftest.py": """
        import os
        from unittest import mock

        import pytest

        from app import mail
        from tests.support import put_back


        @pytest.fixture(autouse=True)
        def clean_state():
            saved_environ = dict(os.environ)
            saved_registry = mail.REGISTRY
            yield
            mock.patch.stopall()
            put_back(saved_environ)
            mail.REGISTRY = saved_registry
        """,
    "tests/test_mail.py": """
        import os
        from unittest import mock
        from unittest.mock import patch

        from app import mail


        def test_runtime_target():
            with patch.object(mail.REGISTRY.get("email"), "send", return_value="ok") as send:
                assert mail.REGISTRY["email"].send("a") == "ok"
            send.assert_called_once()


        def test_started_and_stopped_by_the_conftest():
            patcher = patch("app.mail.fetch", return_value="canned")
            patcher.start()
            assert mail.notify(True) == "canned"


        def test_environ_put_back_by_the_conftest():
            os.environ["APP_MODE"] = "test"
            assert os.environ["APP_MODE"] == "test"


        def test_registry_put_back_by_the_conftest():
            mail.REGISTRY = {}
            assert not mail.REGISTRY


        class TestQuietly:  # a class of its own: the module's other mocks of fetch are not its siblings
            @patch("app.mail.fetch", return_value="fresh", autospec=True)
            def test_never_calls_its_mock(self, fetch):
                assert mail.notify_if(False, True) == "off"


        def test_leaves_a_mock_behind():
            mail.fetch = mock.Mock(return_value="x")
        """,
}


def _findings(root: Path, *args: str) -> set[tuple[int, str]]:
    """The findings of tests/test_mail.py, but unspecced-mock."""
    result = mockpolicy_in_process("check", "--no-baseline", "--format", "json", *args, cwd=root)
    assert result.returncode in (0, 1), result.stderr
    return {(f["line"], f["symbol"]) for f in json.loads(result.stdout)
            if f["symbol"] != "unspecced-mock" and f["path"] == "tests/test_mail.py"}


def test_check_merges_the_record(tmp_path: Path) -> None:
    root = _project(tmp_path, MERGED)
    static = _findings(root)
    assert static == {  # the conftest's mail.REGISTRY = saved_registry after its yield is read statically too
        (15, "first-party-mock"), (16, "leaked-patcher"), (21, "unrestored-environ-mutation"),
        (31, "first-party-mock"), (31, "undocumented-partial-mock"), (37, "unrestored-attribute-assignment"),
        (37, "first-party-mock"),  # a mock assigned over the project's function
    }
    assert _pytest(root, "--mockpolicy-record").returncode == 0
    merged = _findings(root, "--runtime", ".mockpolicy/runtime.json")
    assert merged == (static | {(9, "first-party-mock"), (36, "test-pollution")}) - {
        (16, "leaked-patcher"),  # stopped by the conftest's teardown
        (21, "unrestored-environ-mutation"),  # put back by the conftest, through a helper the engine does not follow
        (31, "undocumented-partial-mock"),  # never called
    }
    text = mockpolicy_in_process("check", "--no-baseline", "--runtime", ".mockpolicy/runtime.json", cwd=root).stdout
    assert ("tests/test_mail.py:9:9: first-party-mock 'mail.REGISTRY.get('email').send' replaced the first-party "
            "function app.mail.Mailer.send (seen at run time)") in text
    assert ("tests/test_mail.py:36:0: test-pollution This test left state behind after its teardown, seen at run "
            "time: app.mail.fetch changed from function app.mail.fetch to <Mock> (0 later tests ran with it).") in text


FAKES_IN_THE_PACKAGE = {
    "src/app/tests/__init__.py": "",
    "src/app/tests/fakes.py": """
        def canned_reply():
            return "canned"


        class FakeMailer:
            def send(self, to):
                return canned_reply()
        """,
    "tests/test_fakes.py": """
        from unittest import mock

        from app.tests import fakes


        @mock.patch("app.tests.fakes.canned_reply", return_value="other")
        def test_fake_changed(reply):
            assert fakes.FakeMailer().send("a") == "other"
        """,
}


def test_the_runtime_record_judges_a_fake_of_the_tests_as_the_static_rule_does(tmp_path: Path) -> None:
    """A patch of the tests' own fake, shipped inside the package (python-cinderclient's
    ``cinderclient/tests/unit/fakes.py``), is no first-party mock, at run time either."""
    root = _project(tmp_path, FAKES_IN_THE_PACKAGE)
    assert _pytest(root, "--mockpolicy-record").returncode == 0
    mocked = [m for m in _record(root)["mocks"] if m["path"] == "tests/test_fakes.py"]
    assert [(m["line"], m["module"]) for m in mocked] == [(6, "app.tests.fakes")]
    result = mockpolicy_in_process("check", "--no-baseline", "--runtime", ".mockpolicy/runtime.json",
                                   "--select", "first-party-mock", "tests/test_fakes.py", cwd=root)
    assert result.returncode == 0, result.stdout


HAND_WRITTEN_SPIES = {
    "src/app/servers.py": """
        class ServerManager:
            def boot(self, name):
                return {"name": name}

            def create(self, name):
                return self.boot(name)


        MANAGERS = dict(servers=ServerManager)  # filled by a call: which class, only the run knows


        def make(kind):
            return MANAGERS[kind]()
        """,
    "tests/test_servers.py": """
        from unittest import mock

        from app import servers


        def test_spy_on_an_object_known_statically():
            manager = servers.ServerManager()
            old_boot = manager.boot

            def checked_boot(name):
                assert name == "vm"
                return old_boot(name)

            with mock.patch.object(manager, "boot", checked_boot):
                assert manager.create("vm") == {"name": "vm"}


        def test_spy_on_an_object_chosen_at_run_time():
            manager = servers.make("servers")
            old_boot = manager.boot

            def checked_boot(name):
                assert name == "vm"
                return old_boot(name)

            with mock.patch.object(manager, "boot", checked_boot):
                assert manager.create("vm") == {"name": "vm"}


        def test_stand_in_on_an_object_chosen_at_run_time():
            manager = servers.make("servers")

            def canned_boot(name):
                return {"name": name}

            with mock.patch.object(manager, "boot", canned_boot):
                assert manager.create("vm") == {"name": "vm"}
        """,
}


def test_the_runtime_record_leaves_hand_written_spies_out_as_the_static_rule_does(tmp_path: Path) -> None:
    """A function of the test that checks its arguments and calls the original
    it saved is a spy, not a stand-in, also where only the run knows which
    object's method it replaced (python-novaclient's ``wrapped_boot``); a
    function answering on its own is a stand-in there."""
    root = _project(tmp_path, HAND_WRITTEN_SPIES)
    assert _pytest(root, "--mockpolicy-record").returncode == 0
    mocked = sorted((m["line"], m["module"], m["qualname"]) for m in _record(root)["mocks"] if m["path"] == "tests/test_servers.py")
    assert mocked == [(14, "app.servers", "ServerManager.boot"), (26, "app.servers", "ServerManager.boot"),
                      (36, "app.servers", "ServerManager.boot")]
    result = mockpolicy_in_process("check", "--no-baseline", "--runtime", ".mockpolicy/runtime.json",
                                   "--select", "first-party-mock", "--format", "json", "tests/test_servers.py", cwd=root)
    assert [(f["line"], f["message"].partition(" (")[0]) for f in json.loads(result.stdout)] == [
        (36, "'manager.boot' replaced the first-party function app.servers.ServerManager.boot"),  # as the test spells it
    ]


TAKEN_BACK_IF_PASSING = {
    "tests/test_taken_back.py": """
        import os

        from app import mail


        def test_sets_then_deletes():
            os.environ["APP_RELAX"] = "1"
            assert mail.notify(True) == "fresh"
            del os.environ["APP_RELAX"]


        def test_sets_in_a_finally():
            os.environ["APP_RELAX"] = "1"
            try:
                assert mail.notify(True) == "fresh"
            finally:
                os.environ.pop("APP_RELAX")
        """,
}


def test_a_run_that_passed_keeps_a_change_taken_back_only_when_passing(tmp_path: Path) -> None:
    """Every run put the variable back, but only because the test passed: the
    record cannot show what a failure leaves, so the static finding stays."""
    root = _project(tmp_path, TAKEN_BACK_IF_PASSING)
    assert _pytest(root, "--mockpolicy-record").returncode == 0
    writes = {(w["line"], w["runs"], w["restored"]) for w in _record(root)["environ_writes"]}
    assert writes == {(7, 1, 1), (9, 1, 1), (13, 1, 1), (17, 1, 1)}
    result = mockpolicy_in_process("check", "--no-baseline", "--runtime", ".mockpolicy/runtime.json",
                                   "--select", "unrestored-environ-mutation", "--format", "json", cwd=root)
    assert [(f["line"], "only if the test passes" in f["message"]) for f in json.loads(result.stdout)] == [(7, True)]


def test_review_reports_the_pollution_a_change_adds(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "tests").mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "app")
    git(root, "checkout", "-qb", "feature")
    write_tree(root, POLLUTING)
    git(root, "add", "tests")
    git(root, "commit", "-qm", "tests that pollute")
    _pytest(root, "--mockpolicy-record")
    result = mockpolicy_in_process("review", "--base", "main", "--format", "json", "--runtime", ".mockpolicy/runtime.json",
                                   cwd=root)
    polluting = {(f["line"], f["scope"]) for f in json.loads(result.stdout) if f["symbol"] == "test-pollution"}
    assert polluting == {(17, "sloppy"), (26, "test_leaks_environ"), (30, "test_leaks_patch"), (34, "test_leaves_mock")}


def test_a_stale_or_damaged_record_is_refused(tmp_path: Path) -> None:
    root = _project(tmp_path, MERGED)
    _pytest(root, "--mockpolicy-record")
    with (root / "tests" / "test_mail.py").open("a", encoding="utf-8") as handle:
        handle.write("\n\ndef test_new():\n    pass\n")
    stale = mockpolicy("check", "--runtime", ".mockpolicy/runtime.json", cwd=root)
    assert (stale.returncode, stale.stdout) == (2, "")
    assert stale.stderr == (
        "mockpolicy: error: .mockpolicy/runtime.json is older than tests/test_mail.py, which changed after the "
        "record was made; record it again with `pytest --mockpolicy-record`.\n"
    )
    (root / "broken.json").write_text('{"format": "mockpolicy-runtime", "version": 1}', encoding="utf-8")
    damaged = mockpolicy_in_process("check", "--runtime", "broken.json", cwd=root)
    assert damaged.returncode == 2
    assert damaged.stderr.count("\n") == 1 and "broken.json is a damaged mockpolicy runtime record" in damaged.stderr
    missing = mockpolicy_in_process("check", "--runtime", "nowhere.json", cwd=root)
    assert "nowhere.json does not exist; record one with `pytest --mockpolicy-record`." in missing.stderr


def test_baseline_keeps_runtime_entries_a_run_without_the_record_cannot_judge(tmp_path: Path) -> None:
    root = _project(tmp_path, MERGED)
    _pytest(root, "--mockpolicy-record")
    assert mockpolicy_in_process("baseline", "--runtime", ".mockpolicy/runtime.json", cwd=root).returncode == 0
    assert mockpolicy_in_process("check", "--runtime", ".mockpolicy/runtime.json", cwd=root).returncode == 0
    assert mockpolicy_in_process("baseline", "--force", cwd=root).returncode == 0
    entries = (root / "baselines" / "mockpolicy.json").read_text(encoding="utf-8")
    assert "test-pollution" in entries


def test_record_round_trip_and_version() -> None:
    made = record.Record(
        12.5, "/p", ["app"],
        tests=[record.RanTest("t.py::test_a", "t.py", "test_a", 3, "passed", "main", ["environ os.environ['X']"])],
        pollution=[record.Pollution("t.py::test_a", "t.py", "test_a", 3, "environ", "os.environ['X']", "unset", "set",
                                    2, "main")],
        mocks=[record.MockUse("t.py", 4, "patch", "unittest", "app.f", "app", "f", "function", None, 1)],
        files={"t.py": "0" * 64}, processes=["main"],
    )
    assert record.loads(record.dumps(made), "r.json") == made
    newer = json.loads(record.dumps(made)) | {"version": record.VERSION + 1}
    with pytest.raises(record.RecordError, match="is a version 2 runtime record and this mockpolicy reads version 1"):
        record.loads(json.dumps(newer), "r.json")
