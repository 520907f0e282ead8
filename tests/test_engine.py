"""The engine in-process, on temporary projects: families and their
pre-filters, sessions and what they remember, and the one source reader."""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import mockpolicy, write_tree

from mockpolicy.analysis import Analysis, Family
from mockpolicy.bodies import LazyBody
from mockpolicy.cache import SummaryCache
from mockpolicy.checks import FAMILIES
from mockpolicy.engine import Engine, Session
from mockpolicy.findings import Finding
from mockpolicy.functions import LEAVES, child_nodes
from mockpolicy.helpers import helper_words
from mockpolicy.index import SummaryStore, calls_record, module_functions, summarize
from mockpolicy.project import Project, load_project
from mockpolicy.rules import ANALYSIS_ERROR, FIRST_PARTY_MOCK
from mockpolicy.source import SourceError, decode_source, read_source

BAD_MOCK = b"""from unittest import mock


def test_claim():
    with mock.patch("app.jobs.Runner.claim", autospec=True):
        pass
"""


def symbols(findings: list[Finding]) -> list[tuple[str, int]]:
    return [(f.symbol, f.line) for f in findings]


def test_a_buffer_is_analysed_whatever_is_on_disk(app_project: Path) -> None:
    engine = Session().engine_for(app_project / "tests" / "test_new.py")
    path = str(app_project / "tests" / "test_new.py")
    assert not Path(path).exists()
    assert symbols(engine.analyse_source(path, b"\n\n" + BAD_MOCK)) == [(FIRST_PARTY_MOCK.symbol, 7)]


def test_a_family_runs_only_where_its_prefilter_matches(app_project: Path) -> None:
    seen: list[str] = []

    def record(analysis: Analysis) -> Iterator[Finding]:
        seen.append(Path(analysis.path).name)
        return iter(())

    family = Family("recorder", (), record, re.compile(rb"environ"))
    engine = Engine(load_project(app_project), families=[family])
    tests = app_project / "tests"
    assert engine.analyse_source(str(tests / "test_a.py"), b"import os\nos.environ['X'] = '1'\n") == []
    assert engine.analyse_source(str(tests / "test_b.py"), b"from unittest import mock\n") == []
    # A file no family wants is not even parsed: its syntax error is not reported.
    assert engine.analyse_source(str(tests / "test_c.py"), b"def broken(:\n") == []
    assert seen == ["test_a.py"]
    [error] = engine.analyse_source(str(tests / "test_d.py"), b"environ = (\n")
    assert error.symbol == ANALYSIS_ERROR.symbol and "cannot parse" in error.message


def test_no_family_is_silenced_by_another_familys_prefilter(app_project: Path) -> None:
    """Each family's own pre-filter decides; the mock words gate only the mock families."""
    engine = Engine(load_project(app_project))
    source = b"import os, sys\n\ndef test_x():\n    os.environ['A'] = '1'\n    sys.modules['m'] = None\n"
    found = symbols(engine.analyse_source(str(app_project / "tests" / "test_x.py"), source))
    assert found == [("unrestored-environ-mutation", 4), ("unrestored-sys-modules-mutation", 5)]
    hygiene = next(f for f in FAMILIES if f.name == "hygiene")
    assert hygiene.wants(b"settings.DEBUG = True") and hygiene.wants(b"obj . attr += 1")
    assert hygiene.wants(b"settings.LIMIT: int = 3") and hygiene.wants(b"pkg.mod.NAME = 1")
    assert not hygiene.wants(b"if settings.DEBUG == True: pass")
    assert not hygiene.wants(b"self.client = Client()\ncls.shared = 1\n# a sentence ends.\nvalue = 2")


def test_an_internal_error_in_a_family_is_one_finding_not_an_exception(app_project: Path) -> None:
    def broken(analysis: Analysis) -> Iterator[Finding]:
        raise KeyError("boom")

    engine = Engine(load_project(app_project), families=[Family("broken", (), broken, re.compile(rb"mock"))])
    [error] = engine.analyse_source(str(app_project / "tests" / "test_a.py"), BAD_MOCK)
    assert error.symbol == ANALYSIS_ERROR.symbol
    assert "internal error" in error.message and "KeyError" in error.message


def test_a_new_session_sees_edits_an_old_one_does_not_need_to(app_project: Path) -> None:
    test_file = app_project / "tests" / "test_jobs.py"
    write_tree(app_project, {"tests/test_jobs.py": BAD_MOCK.decode()})
    before = Session().engine_for(test_file).analyse_file(test_file)
    assert symbols(before) == [(FIRST_PARTY_MOCK.symbol, 5)]
    jobs = app_project / "src" / "app" / "jobs.py"
    jobs.write_text(jobs.read_text().replace("def claim(", "def take("))
    after = Session().engine_for(test_file).analyse_file(test_file)
    assert ("mock-target-not-found", 5) in symbols(after)


def test_sessions_share_one_engine_per_project_root(app_project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    session = Session()
    first = session.engine_for(app_project / "tests" / "test_a.py")
    assert session.engine_for(app_project / "src" / "app" / "jobs.py") is first
    other = tmp_path_factory.mktemp("other")
    (other / "pyproject.toml").write_text("[project]\nname = 'other'\n")
    assert session.engine_for(other / "test_x.py") is not first
    assert Session().engine_for(app_project / "tests" / "test_a.py") is not first


def test_read_source_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "test_fifo.py"
    os.mkfifo(fifo)
    with pytest.raises(SourceError, match=r"test_fifo\.py: not a regular file\."):
        read_source(fifo)  # returns at once: the open does not wait for a writer
    device = tmp_path / "test_zero.py"
    device.symlink_to("/dev/zero")
    with pytest.raises(SourceError, match="not a regular file"):
        read_source(device)
    with pytest.raises(SourceError, match=r"test_missing\.py: No such file"):
        read_source(tmp_path / "test_missing.py")


def test_read_source_caps_the_size(tmp_path: Path) -> None:
    big = tmp_path / "test_big.py"
    big.write_bytes(b"x = 1\n" * 200)
    assert read_source(big, limit=1200) == b"x = 1\n" * 200
    with pytest.raises(SourceError, match=r"test_big\.py: larger than"):
        read_source(big, limit=1199)


def test_decode_source_follows_bom_and_coding_declarations() -> None:
    assert decode_source(b"# -*- coding: latin-1 -*-\nname = '\xe9'\n").endswith("'\u00e9'\n")
    assert decode_source(b"\xef\xbb\xbfx = 1\n") == "x = 1\n"
    with pytest.raises(UnicodeDecodeError):
        decode_source(b"name = '\xe9'\n")


def test_an_unreadable_file_is_one_finding(app_project: Path) -> None:
    fifo = app_project / "tests" / "test_fifo.py"
    os.mkfifo(fifo)
    [error] = Session().engine_for(fifo).analyse_file(fifo)
    assert error.symbol == ANALYSIS_ERROR.symbol and error.message.endswith("not a regular file.")


def test_a_lean_engine_finds_exactly_what_a_normal_one_finds() -> None:
    from conftest import REPO

    projects = [REPO / "examples" / "shop", REPO / "tests" / "functional_project"]
    files = [path for project in projects for path in sorted(project.rglob("*.py")) if "src" not in path.parts]
    normal, lean = Session(), Session(lean=True)
    compared = 0
    for path in files:
        found = normal.engine_for(path).analyse_file(path)
        assert lean.engine_for(path).analyse_file(path) == found, path
        compared += len(found)
    assert compared > 100
    deferred = [info for info in lean.engine_for(files[0]).index._modules.values() if info is not None]
    assert deferred  # the lean engine indexed modules (with deferred bodies) to get there


@pytest.mark.parametrize("lean", [False, True], ids=["normal", "lean"])
def test_what_an_engine_remembers_from_other_files_never_changes_a_files_findings(lean: bool) -> None:
    """Each file's findings from one long-lived engine, in either order, are
    those of a fresh engine: what it remembers per engine (the callers of a
    mocked function, what a function's calls of a name resolve to, which
    functions a function returns the result of) holds for every file."""
    from conftest import REPO

    projects = [REPO / "examples" / "shop", REPO / "tests" / "functional_project"]
    files = [path for project in projects for path in sorted(project.rglob("*.py")) if "src" not in path.parts]
    alone = {path: Session(lean=lean).engine_for(path).analyse_file(path) for path in files}
    for order in (files, files[::-1]):
        session = Session(lean=lean)
        for path in order:
            assert session.engine_for(path).analyse_file(path) == alone[path], path
    assert sum(len(found) for found in alone.values()) > 100
    assert any(finding.symbol == "undocumented-partial-mock" for found in alone.values() for finding in found)


@pytest.mark.parametrize("lean", [False, True], ids=["normal", "lean"])
def test_an_engine_reading_module_summaries_finds_exactly_what_a_full_parse_finds(
    tmp_path: Path, lean: bool
) -> None:
    """Each file analysed by a fresh engine of a session whose store holds the
    summaries an earlier engine kept (modules read from their skeletons)."""
    from conftest import REPO

    projects = [REPO / "examples" / "shop", REPO / "tests" / "functional_project"]
    files = [path for project in projects for path in sorted(project.rglob("*.py")) if "src" not in path.parts]
    stores = {project: SummaryCache(tmp_path / project.name) for project in projects}

    def store_for(project: Project) -> SummaryStore | None:
        return stores.get(project.root)

    normal = Session()
    compared = 0
    for path in files:
        found = normal.engine_for(path).analyse_file(path)
        Session(lean=lean, store_for=store_for).engine_for(path).analyse_file(path)  # fills the store
        assert Session(lean=lean, store_for=store_for).engine_for(path).analyse_file(path) == found, path
        compared += len(found)
    assert compared > 100
    kept = [path for store in stores.values() for path in (store.directory / "summaries").glob("*.json")]
    assert len(kept) > 50


def test_a_lean_index_reads_which_functions_call_which_names_before_it_drops_the_bodies(app_project: Path) -> None:
    """The search for callers then parses only the bodies that call the name it looks for."""
    engine = Engine(load_project(app_project), lean=True)
    info = engine.index.get("app.jobs")
    assert info is not None and info.path is not None
    whole = summarize("app.jobs", info.path, False, ast.parse(info.path.read_bytes()))
    assert info.calls == calls_record(whole) == {"sleep": [1], "claim": [0], "Runner": [0]}
    assert [name for name, _, _ in module_functions(info)] == ["app.jobs.run", "app.jobs.Runner.claim"]
    assert all(isinstance(node.body, LazyBody) and not node.body.loaded for _, node, _ in module_functions(info))


ENVIRON_AND_MOCK = BAD_MOCK + b"""

def test_env():
    import os
    os.environ["APP_MODE"] = "x"
"""
REASONLESS = b"""from unittest import mock


def test_claim():
    # mock-boundary:
    with mock.patch("app.jobs.Runner.claim", autospec=True):
        pass
"""


def test_only_the_families_of_the_rules_asked_for_run(app_project: Path) -> None:
    engine = Session().engine_for(app_project / "tests" / "test_new.py")
    path = str(app_project / "tests" / "test_new.py")
    everything = symbols(engine.analyse_source(path, ENVIRON_AND_MOCK))
    assert everything == [(FIRST_PARTY_MOCK.symbol, 5), ("unrestored-environ-mutation", 11)]
    assert symbols(engine.analyse_source(path, ENVIRON_AND_MOCK, {"unrestored-environ-mutation"})) == [
        ("unrestored-environ-mutation", 11)
    ]
    assert engine.analyse_source(path, ENVIRON_AND_MOCK, set()) == []
    # The reason-less annotation is noted by the first-party family: asking for
    # its rule alone runs the families that note it.
    assert ("mock-annotation-without-reason", 6) in symbols(
        engine.analyse_source(path, REASONLESS, {"mock-annotation-without-reason"})
    )


LOCAL_AND_CLASS_BODY_NAMES = b"""from unittest import mock

from app import jobs


class TestRunner:
    RUNNER = jobs.Runner
    CLAIM = RUNNER.claim

    @mock.patch.object(RUNNER, "claim")
    def test_class_body_alias(self, claim):
        jobs.run()


def test_local_subclass():
    class Fast(jobs.Runner):
        pass

    with mock.patch.object(Fast, "claim", return_value="x"):
        Fast().claim()
"""


def test_analysis_leaves_no_reference_cycles_behind(app_project: Path) -> None:
    """The CLI runs without the cyclic garbage collector: what a file's
    analysis leaves unreachable must be freed by reference counting alone
    (names read in class bodies and local classes included)."""
    import gc

    from conftest import REPO

    (app_project / "tests" / "test_names.py").write_bytes(LOCAL_AND_CLASS_BODY_NAMES)
    projects = [REPO / "examples" / "shop", REPO / "tests" / "functional_project"]
    files = [path for project in projects for path in sorted(project.rglob("*.py")) if "src" not in path.parts]
    files.append(app_project / "tests" / "test_names.py")
    session = Session()
    for path in files:  # the first pass fills what the engine keeps for the run
        session.engine_for(path).analyse_file(path)
    enabled = gc.isenabled()
    gc.disable()
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for path in files:
            session.engine_for(path).analyse_file(path)
        gc.collect()
        ours = [
            type(found).__name__ for found in gc.garbage
            if type(found).__module__.startswith(("mockpolicy", "ast", "_ast"))
            or getattr(found, "__module__", "").startswith("mockpolicy")
        ]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()
    assert ours == []


def test_tests_import_from_their_folder_as_pytest_puts_it_on_sys_path(app_project: Path) -> None:
    """``tests/`` has no ``__init__.py``: pytest's default import mode puts it on
    ``sys.path``, so ``from conftest import ...`` and ``from support import ...``
    name its modules, and their patching helpers are mock sites."""
    write_tree(app_project, {
        "pyproject.toml": '[project]\nname = "app"\nversion = "0"\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
        "tests/conftest.py": """
            def patch_claim(mocker):
                return mocker.patch.object(jobs_module(), "Runner")


            def claim_patched(mocker, owner):
                return mocker.patch.object(owner, "claim")


            def jobs_module():
                from app import jobs
                return jobs
            """,
        "tests/support/__init__.py": "",
        "tests/support/patching.py": """
            def claim_patched(mocker, owner):
                return mocker.patch.object(owner, "claim")
            """,
        "tests/test_helpers.py": """
            from app.jobs import Runner
            from conftest import claim_patched
            from support import patching


            def test_claim(mocker):
                claim_patched(mocker, Runner)
                patching.claim_patched(mocker, Runner)
                assert Runner().claim()
            """,
    })
    path = app_project / "tests" / "test_helpers.py"
    engine = Session().engine_for(path)
    assert symbols([f for f in engine.analyse_file(path) if f.symbol == FIRST_PARTY_MOCK.symbol]) == [
        (FIRST_PARTY_MOCK.symbol, 7), (FIRST_PARTY_MOCK.symbol, 8),
    ]


def test_a_file_calling_a_helper_of_the_tests_is_analysed_without_mocking_words(app_project: Path) -> None:
    write_tree(app_project, {
        "tests/base.py": """
            from unittest import mock


            class ServiceTest:
                def check_call(self, function, target):
                    patcher = mock.patch(target, autospec=True)
                    replaced = patcher.start()
                    self.addCleanup(patcher.stop)
                    function()
                    return replaced

                def wraps_check(self, function, target):
                    return self.check_call(function, target)
            """,
    })
    engine = Engine(load_project(app_project))
    tests = app_project / "tests"
    plain = b"from tests import base\n\n\nclass TestRun(base.ServiceTest):\n    def test_run(self):\n"
    called = plain + b"        self.check_call(print, 'app.jobs.run')\n"
    wrapped = plain + b"        self.wraps_check(print, 'app.jobs.run')\n"
    assert symbols(engine.analyse_source(str(tests / "test_called.py"), called)) == [(FIRST_PARTY_MOCK.symbol, 6)]
    assert symbols(engine.analyse_source(str(tests / "test_wrapped.py"), wrapped)) == [(FIRST_PARTY_MOCK.symbol, 6)]
    assert {"check_call", "wraps_check"} <= engine.helper_words()
    # no mocking word and no helper called: not even parsed
    assert engine.analyse_source(str(tests / "test_other.py"), plain + b"        print(:\n") == []


def test_helper_words_are_read_from_the_text_of_each_def() -> None:
    source = b'''
def swap(target):
    def inner():
        return 1
    return mock.patch(target)


def plain():
    return 2


def wrapper(target):
    return swap(target)


def test_uses_patch():
    mock.patch("x")


def setUp(self):
    mock.patch("y")
'''
    # inner's patch is in swap's body too; wrapper calls a helper; tests and set-ups are no helpers
    assert helper_words([source, b"def elsewhere():\n    return mock\n"], frozenset({"pkg.Base.declared"})) == {
        "swap", "inner", "wrapper", "elsewhere", "declared",
    }


def test_create_true_is_judged_by_subclasses_named_in_class_headers(app_project: Path) -> None:
    """The subclass search reads the modules whose class statements name the
    class (through a call in the bases, or an import under another name); a
    module that only mentions it holds no host."""
    write_tree(app_project, {
        "src/app/mixins.py": """
            class Mixin:
                def audit(self):
                    return self.client.send(self.sink)
            """,
        "src/app/renamed.py": """
            from app.mixins import Mixin as Base

            class Host(Base):
                client = None
            """,
        "src/app/wrapped.py": """
            from app.mixins import Mixin

            def with_meta(meta, base):
                return base

            class Sinking(with_meta(type, Mixin)):
                sink = None
            """,
        "src/app/mentions.py": """
            from app.mixins import Mixin

            class Plain:
                kind = Mixin
                logger = None
            """,
    })
    test = app_project / "tests" / "test_mixin.py"
    source = b"""from unittest import mock

from app.mixins import Mixin


def test_hosts():
    with mock.patch.object(Mixin, "client", create=True, new=None):
        pass
    with mock.patch.object(Mixin, "sink", create=True, new=None):
        pass
    with mock.patch.object(Mixin, "logger", create=True, new=None):
        pass
"""
    findings = Session().engine_for(test).analyse_source(str(test), source)
    assert [(f.symbol, f.line) for f in findings if f.symbol == "mock-target-not-found"] == [("mock-target-not-found", 11)]


CHILD_NODE_SAMPLE = '''
import os as system, sys
from . import sibling
@decorate(1)
async def run(a, /, b: int = 2, *rest, c=None, d, **options) -> dict[str, int]:
    """A docstring."""
    global counter
    merged = {**options, "b": b, f"{a!r:>{b}}": [x async for x in rest if x is not None]}
    match merged:
        case {"b": 1, **other} | [1, *_]:
            pass
        case Point(x=0, y=y) if y > -1:
            return not y
    try:
        async with lock() as (left, right):
            del left[1:2, ::3]
    except (ValueError, TypeError) as error:
        raise RuntimeError from error
    finally:
        lambda q=1, *, r: (yield q)
    return await (a @ b if a < b <= c else ~a)
'''


def test_child_nodes_are_those_ast_gives_less_contexts_and_operators() -> None:
    tree = ast.parse(CHILD_NODE_SAMPLE)
    for node in ast.walk(tree):
        expected = [child for child in ast.iter_child_nodes(node) if not isinstance(child, LEAVES)]
        assert [id(child) for child in child_nodes(node)] == [id(child) for child in expected], ast.dump(node)[:80]


UNNAMED_FAILURE_FILES = {
    "pyproject.toml": '[project]\nname = "app"\nversion = "0"\n',
    "src/app/__init__.py": "",
    "src/app/gates.py": """
        class Refused(Exception): pass
        class Busy(Exception): pass
        class Broken(Exception): pass
        class Late(Exception): pass


        def submit(order):
            if order == "x":
                raise Refused()
            if order == "y":
                raise Busy()
            if order == "z":
                raise Broken()
            if order == "w":
                raise Late()


        def place(order):
            try:
                submit(order)
            except Refused:
                return "refused"
            except Busy:
                return "busy"
            except Broken:
                return "broken"
            except Late:
                return "late"
            return "ok"
        """,
    "tests/test_gates.py": """
        from unittest import mock

        from app import gates


        class TestPlace:
            def test_ok(self):
                with mock.patch("app.gates.submit", autospec=True):
                    assert gates.place("a") == "ok"

            def test_refused(self):
                with mock.patch("app.gates.submit", autospec=True, side_effect=gates.Refused()):
                    assert gates.place("a") == "refused"

            def test_failing_somehow(self):
                def fail(order):
                    raise FAILURES[order]

                with mock.patch("app.gates.submit", fail):
                    gates.place("a")


        FAILURES = {"a": gates.Busy()}
        """,
}


def test_findings_do_not_depend_on_the_hash_seed(tmp_path: Path) -> None:
    """A sibling's fake raising an exception not known by name stands for one
    of the target's exceptions not raised by name elsewhere, the first by name
    (Broken), under every hash seed: once the pick followed set order, and
    nova's run lost or kept a finding from one run to the next."""
    project = write_tree(tmp_path, UNNAMED_FAILURE_FILES)
    outputs = {
        mockpolicy("check", "--no-cache", "--select", "undocumented-partial-mock", "tests", cwd=project,
                   env={"PYTHONHASHSEED": str(seed)}).stdout
        for seed in range(4)
    }
    assert len(outputs) == 1, outputs
    finding = outputs.pop()
    assert "never takes `app.gates.place: except Busy`" in finding and "`app.gates.place: except Late`" in finding
    assert "except Broken" not in finding and "except Refused" not in finding


def test_targets_other_distributions_install_are_not_missing(tmp_path: Path) -> None:
    """A module of a pkgutil-style namespace the project shares (``azure.core``),
    and a submodule of the project's package that its own code imports but
    another distribution installs (``azure.identity.broker``), are not
    reported missing; a misspelt submodule is."""
    write_tree(tmp_path, {
        "pyproject.toml": "[project]\nname = 'azure-identity'\n",
        "azure/__init__.py": "__path__ = __import__('pkgutil').extend_path(__path__, __name__)\n",
        "azure/identity/__init__.py": "",
        "azure/identity/client.py": "from azure.core.policies import DecodePolicy\n",
        "azure/identity/utils.py": (
            "def broker():\n    try:\n        from azure.identity.broker import Credential\n"
            "    except ImportError:\n        return None\n    return Credential\n"
        ),
        "tests/__init__.py": "",
    })
    test = tmp_path / "tests" / "test_x.py"
    source = (
        b"from unittest import mock\n\n\n"
        b"def test_x():\n"
        b"    with mock.patch('azure.identity.client.DecodePolicy', autospec=True):\n"
        b"        pass\n"
        b"    with mock.patch('azure.core.policies.DecodePolicy.decode', autospec=True):\n"
        b"        pass\n"
        b"    with mock.patch('azure.identity.broker.Credential', autospec=True):\n"
        b"        pass\n"
        b"    with mock.patch('azure.identity.brokr.Credential', autospec=True):\n"
        b"        pass\n"
    )
    findings = Session().engine_for(test).analyse_source(str(test), source)
    assert [(f.symbol, f.line) for f in findings if f.symbol == "mock-target-not-found"] == [("mock-target-not-found", 11)]
