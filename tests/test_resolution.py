"""How targets are resolved, end to end: each scenario writes a project, marks
the lines that must be reported with ``# [symbol]``, and runs ``mockpolicy
check`` on it (``mockpolicy.cli.main``, in this process)."""

from __future__ import annotations

import json
import os
import re
import textwrap
from pathlib import Path

import pytest
from conftest import mockpolicy, mockpolicy_in_process, write_tree

APP = {
    "pyproject.toml": "[project]\nname = 'app'\n[tool.mockpolicy]\nrequire-spec = 'off'\n",
    "src/app/__init__.py": "",
    "src/app/store.py": """
        import contextlib
        import functools
        import logging
        import threading

        LOG = logging.getLogger(__name__)


        class Store:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return False

            def save(self, key):
                return key

            @property
            def backend(self):
                return Backend()

            @functools.cached_property
            def slow(self):
                return 1


        class Backend:
            def write(self, key):
                return key


        def make_store():
            store = Store()
            return store


        def make_pair():
            return Store(), LOG


        @contextlib.contextmanager
        def opened():
            store = make_store()
            yield store


        def _flush(store, key):
            return store.save(key)


        flush = functools.partial(_flush, None)


        def audited(func):
            @functools.wraps(func)
            def wrapper(*args):
                return func(*args)
            return wrapper


        @audited
        def archive(key):
            return key


        class Worker(threading.Thread):
            pass


        def build(name, *args):
            return symbol_by_name(name)(*args)


        class Hub:
            store_cls = "app.store:Store"

            def __init__(self, store_cls=None):
                self.store_cls = store_cls or self.store_cls

            @property
            def store(self):
                return build(self.store_cls)

            def sender(self):
                def send(key):
                    return key
                return send
        """,
    "src/app/loading.py": """
        from importlib import import_module

        from kombu.utils.imports import symbol_by_name
        """,
}
APP["src/app/store.py"] = APP["src/app/store.py"].replace(
    "import threading\n", "import threading\n\n        from app.loading import symbol_by_name\n", 1
)


Found = list[tuple[str, int, str]]


# The rules whose verdict is what a target resolves to; the scenarios mark only these.
RESOLVED_BY = frozenset({"first-party-mock", "mock-analysis-error"})


def check(tmp_path: Path, tests: dict[str, str]) -> tuple[Found, Found]:
    """(expected, reported) as sorted (file, line, symbol) for the marked test files."""
    write_tree(tmp_path, {**APP, **tests})
    expected = []
    for name, text in tests.items():
        for number, line in enumerate(textwrap.dedent(text).lstrip("\n").splitlines(), start=1):
            for markers in re.findall(r"# \[([a-z,-]+)\]", line):
                expected += [(name, number, marker) for marker in markers.split(",")]
    result = mockpolicy_in_process("check", "--format", "json", cwd=tmp_path)
    assert result.returncode in (0, 1), result.stderr
    reported = [(f["path"], f["line"], f["symbol"]) for f in json.loads(result.stdout) if f["symbol"] in RESOLVED_BY]
    return sorted(expected), sorted(reported)


SCENARIOS = {
    "factory-and-with": """
        from unittest import mock
        from app import store as store_module
        from app.store import Store, make_store, make_pair, opened


        def test_factory():
            store = make_store()
            with mock.patch.object(store, "save"):  # [first-party-mock]
                pass


        def test_context_managers():
            with opened() as store, Store() as other:
                with mock.patch.object(store, "save"), mock.patch.object(other, "save"):  # [first-party-mock,first-party-mock]
                    pass


        def test_tuple_unpacking():
            store, log = make_pair()
            with mock.patch.object(store, "save"), mock.patch.object(log, "info"):  # [first-party-mock]
                pass


        def test_property_result_and_cached_property():
            store = Store()
            with mock.patch.object(store.backend, "write"):  # [first-party-mock]
                pass
            with mock.patch.object(Store, "slow"), mock.patch.object(Store, "backend"):  # [first-party-mock]
                pass


        def test_partial_and_wrapped():
            with mock.patch("app.store.flush"), mock.patch("app.store.archive"):  # [first-party-mock,first-party-mock]
                pass


        def test_inherited_from_the_stdlib():
            with mock.patch.object(store_module.Worker, "start"):
                pass
        """,
    "arguments-and-dynamic-imports": """
        from unittest import mock
        from app.store import Hub


        def test_property_building_a_class_named_by_a_string():
            hub = Hub()
            with mock.patch.object(hub.store, "save"):  # [first-party-mock]
                pass


        def test_object_made_by_a_dynamic_import():
            from oslo_utils import importutils
            made = importutils.import_object("app.store.Store")
            with mock.patch.object(made.backend, "write"):  # [first-party-mock]
                pass


        def test_closure_and_class_of_an_instance():
            hub = Hub()
            with mock.patch.object(hub.__class__, "sender"), mock.patch("app.store.Hub.sender"):  # [first-party-mock,first-party-mock]
                pass


        def test_local_subclass():
            from app.store import Store

            class Quiet(Store):
                pass

            def sender():
                return Store().save

            with mock.patch.object(Quiet(), "save"), mock.patch.object(sender(), "__call__"):  # [first-party-mock]
                pass
        """,
    "fixtures": """
        import pytest
        from unittest import mock
        from app.store import Store


        @pytest.fixture
        def store():
            return Store()


        @pytest.fixture
        def opened_store(store):
            yield store


        def test_fixture_value(store, opened_store, monkeypatch):
            monkeypatch.setattr(store, "save", lambda key: key)  # [first-party-mock]
            with mock.patch.object(opened_store, "save"):  # [first-party-mock]
                pass


        def test_unknown_fixture(tmp_path, somewhere):
            with mock.patch.object(somewhere, "save"):
                pass
        """,
}


@pytest.mark.parametrize("scenario", SCENARIOS, ids=list(SCENARIOS))
def test_scenario(tmp_path: Path, scenario: str) -> None:
    expected, reported = check(tmp_path, {"tests/test_scenario.py": SCENARIOS[scenario]})
    assert reported == expected


def test_conftest_fixtures_and_request_instance(tmp_path: Path) -> None:
    expected, reported = check(tmp_path, {
        "tests/conftest.py": """
            import pytest
            from app.store import Store, make_store


            @pytest.fixture
            def shared_store():
                return make_store()


            @pytest.fixture(autouse=True)
            def shortcuts(request, shared_store):
                if request.instance:
                    request.instance.store = shared_store
                yield
            """,
        "tests/unit/test_deep.py": """
            from unittest import mock


            def test_from_conftest(shared_store):
                with mock.patch.object(shared_store, "save"):  # [first-party-mock]
                    pass


            class TestShortcuts:
                def test_instance_attribute(self):
                    with mock.patch.object(self.store, "save"):  # [first-party-mock]
                        pass

                def test_not_set_by_any_fixture(self):
                    with mock.patch.object(self.other, "save"):
                        pass
            """,
    })
    assert reported == expected


def test_environ_of_a_mock_an_overridden_fixture_put_in(tmp_path: Path) -> None:
    """``tools.os.environ`` is a mock's dict when the fixture the test gets, or
    one it overrides by asking for its own name, put a mock in ``tools.os``."""
    write_tree(tmp_path, {
        **APP,
        "src/app/tools.py": """
            import os


            class ToolCache:
                os = os
            """,
        "tests/conftest.py": """
            import os
            from unittest import mock

            import pytest
            from app.tools import ToolCache


            @pytest.fixture
            def tools():
                made = ToolCache()
                made.os = mock.MagicMock(spec_set=os)
                made.os.environ = {}
                return made


            @pytest.fixture
            def real_tools():
                return ToolCache()
            """,
        "tests/unit/conftest.py": """
            import pytest


            @pytest.fixture
            def tools(tools):
                tools.os.environ["HOME"] = "/home/app"
                return tools
            """,
        "tests/unit/test_env.py": """
            def test_mocked(tools):
                tools.os.environ["MODE"] = "test"


            def test_real(real_tools):
                real_tools.os.environ["MODE"] = "test"
            """,
    })
    result = mockpolicy_in_process("check", "--format", "json", "--select", "unrestored-environ-mutation", cwd=tmp_path)
    reported = [(f["path"], f["line"]) for f in json.loads(result.stdout)]
    assert reported == [("tests/unit/test_env.py", 6)]


def test_test_case_patch_methods_of_testing_libraries_are_mock_sites(tmp_path: Path) -> None:
    """testtools' and Twisted trial's ``self.patch(obj, "name", value)`` set an
    attribute for one test, as ``monkeypatch.setattr`` does; a project's own
    ``patch`` method is read as any helper is. Twisted's ``requireModule("x")``
    imports ``x``."""
    library = write_tree(tmp_path / "lib", {
        "testtools/__init__.py": """
            class TestCase:
                def patch(self, obj, attribute, value):
                    setattr(obj, attribute, value)
            """,
        "twisted/__init__.py": "",
        "twisted/trial/__init__.py": "",
        "twisted/trial/unittest.py": """
            class TestCase:
                def patch(self, obj, attribute, value):
                    setattr(obj, attribute, value)
            """,
        "twisted/python/__init__.py": "",
        "twisted/python/reflect.py": """
            import importlib


            def requireModule(name, default=None):
                try:
                    return importlib.import_module(name)
                except ImportError:
                    return default
            """,
    })
    project = write_tree(tmp_path / "project", {
        "pyproject.toml": '[project]\nname = "app"\nversion = "0"\n',
        "src/app/__init__.py": "",
        "src/app/jobs.py": "def fetch():\n    return 1\n",
        "tests/__init__.py": "",
        "tests/test_jobs.py": """
            import testtools
            from twisted.python.reflect import requireModule
            from twisted.trial import unittest

            from app import jobs

            required = requireModule("app.jobs")


            class TestTrial(unittest.TestCase):
                def test_fetch(self):
                    self.patch(jobs, "fetch", lambda: 2)


            class TestTesttools(testtools.TestCase):
                def test_fetch(self):
                    self.patch(jobs, "fetch", lambda: 2)


            class TestRequired(unittest.TestCase):
                def test_fetch(self):
                    self.patch(required, "fetch", lambda: 2)  # a module imported by its name


            class Base(testtools.TestCase):
                def patch(self, path):
                    return path


            class TestOwnPatch(Base):
                def test_fetch(self):
                    self.patch("app.jobs.fetch")


            class TestThroughAnAlias(unittest.TestCase):
                def test_fetch(self):
                    testcase = self  # buildbot's spelling
                    testcase.patch(jobs, "fetch", lambda: 2)
            """,
    })
    result = mockpolicy("check", "--no-baseline", "--no-cache", cwd=project, env={"PYTHONPATH": str(library)})
    found = [line.split(" ")[:2] for line in result.stdout.splitlines() if "first-party-mock" in line]
    assert found == [[f"tests/test_jobs.py:{line}:8:", "first-party-mock"] for line in (12, 17, 22, 38)]


def test_the_activated_environment_holds_the_project_libraries(tmp_path: Path) -> None:
    """mockpolicy installed apart (pipx) reads the libraries of the virtual
    environment the shell activated (``VIRTUAL_ENV``), before its own, from
    the folder and its ``.pth`` files, never running that interpreter: an
    attribute of a library class left changed is known as one only when the
    library is seen."""
    environment = tmp_path / "venv"
    packages = environment / "lib" / "python3.11" / "site-packages"
    write_tree(packages, {
        "extlib/__init__.py": "class Runner:\n    def stop(self):\n        return 1\n",
        "editable.pth": f"{tmp_path / 'editable_src'}\nimport os; os.environ['PTH_RAN'] = '1'\n",
    })
    write_tree(tmp_path / "editable_src", {"edlib/__init__.py": "class Loader:\n    def load(self):\n        return 1\n"})
    project = tmp_path / "project"
    write_tree(project, {
        **APP,
        "tests/test_libs.py": """
            from unittest import mock

            import edlib
            import extlib


            def test_library_classes_changed():
                extlib.Runner.stop = mock.Mock()
                edlib.Loader.load = mock.Mock()
            """,
    })

    def changed(env: dict[str, str]) -> list[str]:
        result = mockpolicy_in_process("check", "--no-baseline", "--no-cache", "--select",
                                       "unrestored-attribute-assignment", "--format", "json", cwd=project, env=env)
        return sorted(f["message"].split("'")[1] for f in json.loads(result.stdout))

    assert changed({}) == []  # libraries it cannot see: not known to be classes
    assert changed({"VIRTUAL_ENV": str(environment)}) == ["edlib.Loader.load", "extlib.Runner.stop"]
    assert changed({"VIRTUAL_ENV": str(tmp_path / "nowhere")}) == []
    assert "PTH_RAN" not in os.environ  # a .pth line that runs code is skipped
