"""The mocking vocabulary: how tests spell ``unittest.mock``, pytest's
``monkeypatch`` and fixtures, and pytest-mock's ``mocker``, and where the
arguments of each mocking call sit.

This is the one module that knows those libraries' names; the rules read them
from here. Nothing is imported from the libraries (tests are analysed, never
run): ``tests/test_vocabulary.py`` holds the table against their real
signatures. This module imports nothing from mockpolicy.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

Api = Literal["unittest", "mocker", "monkeypatch"]
"""What a mock is made through: ``unittest.mock`` (or its ``mock`` backport),
a pytest-mock ``mocker`` fixture, or pytest's ``monkeypatch``."""

SiteKind = Literal[
    "patch", "patch.object", "patch.multiple", "patch.dict", "mock", "autospec",
    "setattr", "delattr", "setitem", "delitem", "setenv", "delenv",
]
"""What a mocking call does: one of the ``patch`` forms, builds a double
(``mock``: a Mock class; ``autospec``: ``create_autospec``), or one of the
``monkeypatch`` methods."""

Role = Literal["target", "attribute", "new", "spec", "autospec"]
"""A parameter of a mocking call, by what it means (see ``Callee``)."""

MOCK_MODULE = "unittest.mock"
MOCK_BACKPORT = "mock"  # the PyPI backport, the same API under another name
MOCKER_ROOT: Api = "mocker"  # canonical names of calls through any mocker fixture start with this
MONKEYPATCH_ROOT: Api = "monkeypatch"  # ... and through a MonkeyPatch object with this

MOCK_CLASSES = frozenset(
    {"Mock", "MagicMock", "NonCallableMock", "NonCallableMagicMock", "AsyncMock", "PropertyMock"}
)
NON_CALLABLE_MOCKS = frozenset({"NonCallableMock", "NonCallableMagicMock"})  # calling one fails the test
NEW_CALLABLE = "new_callable"  # patch(..., new_callable=NonCallableMock)
VALUE_MOCK_CLASSES = frozenset({"PropertyMock"})  # stands for a property's value, not for an object


@dataclass(frozen=True)
class Param:
    """A parameter of a mocking callable: its index among the positional
    arguments (``self`` not counted) and its keyword name."""

    position: int
    keyword: str

    def of(self, call: ast.Call) -> ast.expr | None:
        """What ``call`` passes for this parameter: the positional argument when
        no ``*args`` comes at or before it, else the keyword's value; None if neither."""
        args = call.args
        if len(args) > self.position and not any(isinstance(a, ast.Starred) for a in args[: self.position + 1]):
            return args[self.position]
        for keyword in call.keywords:
            if keyword.arg == self.keyword:
                return keyword.value
        return None


@dataclass(frozen=True)
class Callee:
    """One mocking callable under its canonical name (``unittest.mock.patch.object``,
    ``mocker.patch``, ``monkeypatch.setattr``), and where its arguments sit.

    ``target`` is the object changed (for ``patch.dict``/``setitem``/``delitem``:
    the dict), ``attribute`` the name replaced on it, ``new`` the replacement
    (``patch.dict``: the values put in); a role the callable lacks is None.
    ``own_keywords`` are the keywords ``patch.multiple`` takes itself: any other
    names an attribute to replace. ``allow_missing`` is the ``(keyword, value)``
    that lets a missing target pass silently. ``patcher``: the call returns a
    patcher (``start``/``stop``) rather than the mock. ``site``: the call replaces
    an object or builds a double for one; ``delitem``/``setenv``/``delenv`` change
    entries and put no stand-in in place of any object.
    """

    name: str
    kind: SiteKind
    target: Param | None = None
    attribute: Param | None = None
    new: Param | None = None
    spec: Param | None = None
    autospec: Param | None = None
    own_keywords: frozenset[str] = frozenset()
    allow_missing: tuple[str, bool] | None = None
    patcher: bool = False
    site: bool = True
    sets_missing: bool = False  # a missing last name is set, never an error (fixtures.MonkeyPatch)

    @property
    def api(self) -> Api:
        if self.name.startswith(MOCKER_ROOT + "."):
            return "mocker"
        if self.name.startswith(MONKEYPATCH_ROOT + "."):
            return "monkeypatch"
        return "unittest"

    def parameter(self, role: Role) -> Param | None:
        """The parameter that plays ``role``, or None when the callable has none."""
        return {
            "target": self.target, "attribute": self.attribute, "new": self.new,
            "spec": self.spec, "autospec": self.autospec,
        }[role]

    def argument(self, call: ast.Call, role: Role) -> ast.expr | None:
        """What ``call`` passes for ``role`` (see ``Param.of``); None if nothing."""
        param = self.parameter(role)
        return param.of(call) if param is not None else None

    def missing_allowed_by(self, call: ast.Call) -> str | None:
        """``keyword=value`` (``create=True``, ``raising=False``) when ``call`` lets a
        missing target pass silently (or what always does so), else None."""
        if self.sets_missing:
            return "MonkeyPatch (it sets a missing name)"
        if self.allow_missing is None:
            return None
        keyword, value = self.allow_missing
        given = next((kw.value for kw in call.keywords if kw.arg == keyword), None)
        return f"{keyword}={value}" if isinstance(given, ast.Constant) and given.value is value else None


# The names ``unittest.mock``'s patchers create on a module that lacks them,
# without ``create=True``: the public builtins (a module-level ``open`` shadows
# the builtin the module calls). pytest's monkeypatch creates nothing.
CREATED_ON_MODULES = frozenset(name for name in dir(builtins) if not name.startswith("_"))
CREATES_BUILTINS_ON_MODULES: frozenset[Api] = frozenset({"unittest", "mocker"})

_CREATE = ("create", True)
_NOT_RAISING = ("raising", False)


def _mock_forms(root: str) -> list[Callee]:
    """``unittest.mock``'s patchers and doubles as called through ``root``
    (``unittest.mock`` itself, or a mocker fixture, whose forms take the same arguments)."""
    patcher = root == MOCK_MODULE
    return [
        Callee(f"{root}.patch", "patch", target=Param(0, "target"), new=Param(1, "new"),
               spec=Param(2, "spec"), autospec=Param(5, "autospec"), allow_missing=_CREATE, patcher=patcher),
        Callee(f"{root}.patch.object", "patch.object", target=Param(0, "target"), attribute=Param(1, "attribute"),
               new=Param(2, "new"), spec=Param(3, "spec"), autospec=Param(6, "autospec"),
               allow_missing=_CREATE, patcher=patcher),
        Callee(f"{root}.patch.multiple", "patch.multiple", target=Param(0, "target"), spec=Param(1, "spec"),
               autospec=Param(4, "autospec"), allow_missing=_CREATE, patcher=patcher,
               own_keywords=frozenset({"target", "spec", "create", "spec_set", "autospec", "new_callable"})),
        Callee(f"{root}.patch.dict", "patch.dict", target=Param(0, "in_dict"), new=Param(1, "values"),
               patcher=patcher),
        Callee(f"{root}.create_autospec", "autospec", spec=Param(0, "spec")),
        *(Callee(f"{root}.{name}", "mock", spec=Param(0, "spec")) for name in sorted(MOCK_CLASSES)),
    ]


_MONKEYPATCH_FORMS = [
    Callee("monkeypatch.setattr", "setattr", target=Param(0, "target"), attribute=Param(1, "name"),
           new=Param(2, "value"), allow_missing=_NOT_RAISING),
    Callee("monkeypatch.delattr", "delattr", target=Param(0, "target"), attribute=Param(1, "name"),
           allow_missing=_NOT_RAISING),
    Callee("monkeypatch.setitem", "setitem", target=Param(0, "dic"), attribute=Param(1, "name"),
           new=Param(2, "value")),
    Callee("monkeypatch.delitem", "delitem", target=Param(0, "dic"), attribute=Param(1, "name"),
           allow_missing=_NOT_RAISING, site=False),
    Callee("monkeypatch.setenv", "setenv", attribute=Param(0, "name"), new=Param(1, "value"), site=False),
    Callee("monkeypatch.delenv", "delenv", attribute=Param(0, "name"), allow_missing=_NOT_RAISING, site=False),
]

_KEYWORD_ONLY = 1_000  # the position of a parameter passed only by keyword (``**kwargs`` handed on)


def _fixtures_forms(module: str) -> list[Callee]:
    """The ``fixtures`` package's mock fixtures (``self.useFixture(fixtures.MockPatch(...))``),
    which hand their keywords to ``mock.patch`` and stop the patch at clean-up, and
    its ``MonkeyPatch``, which sets a dotted name and puts it back at clean-up."""
    spec, autospec = Param(_KEYWORD_ONLY, "spec"), Param(_KEYWORD_ONLY, "autospec")
    return [
        Callee(f"{module}.MockPatch", "patch", target=Param(0, "obj"), new=Param(1, "new"),
               spec=spec, autospec=autospec, allow_missing=_CREATE),
        Callee(f"{module}.MockPatchObject", "patch.object", target=Param(0, "obj"), attribute=Param(1, "attr"),
               new=Param(2, "new"), spec=spec, autospec=autospec, allow_missing=_CREATE),
        Callee(f"{module}.MockPatchMultiple", "patch.multiple", target=Param(0, "obj"), spec=spec,
               autospec=autospec, allow_missing=_CREATE,
               own_keywords=frozenset({"obj", "spec", "create", "spec_set", "autospec", "new_callable"})),
        # MonkeyPatch("pkg.mod.name", value) sets a dotted name, as monkeypatch.setattr's dotted form does
        Callee(f"{module}.MonkeyPatch", "setattr", target=Param(0, "name"),
               attribute=Param(_KEYWORD_ONLY, "attribute"), new=Param(1, "new_value"), sets_missing=True),
    ]


def _test_case_patch(name: str) -> Callee:
    """A test case's ``patch(obj, attribute, value)`` (testtools', Twisted
    trial's): it sets the attribute for the test and puts it back at clean-up,
    as ``monkeypatch.setattr`` does; a missing attribute is an error."""
    return Callee(name, "setattr", target=Param(0, "obj"), attribute=Param(1, "attribute"), new=Param(2, "value"))


TEST_CASE_PATCHERS: Mapping[str, Callee] = {
    callee.name: callee
    for callee in map(_test_case_patch, (
        "twisted.trial.unittest.TestCase.patch", "twisted.trial.unittest.SynchronousTestCase.patch",
        "twisted.trial._synctest.SynchronousTestCase.patch", "twisted.trial._asynctest.TestCase.patch",
        "testtools.TestCase.patch", "testtools.testcase.TestCase.patch", "oslotest.base.BaseTestCase.patch",
    ))
}
"""Test-case methods of testing libraries that monkeypatch, as ``self.patch``
resolves them (by the library's public spelling of the class)."""


CALLEES: Mapping[str, Callee] = {
    callee.name: callee
    for callee in (
        *_mock_forms(MOCK_MODULE), *_mock_forms(MOCKER_ROOT), *_MONKEYPATCH_FORMS,
        *_fixtures_forms("fixtures"), *_fixtures_forms("fixtures._fixtures.mockpatch"),
        *TEST_CASE_PATCHERS.values(),
    )
}
"""Every mocking callable, by canonical name."""

SITE_CALLEES: Mapping[str, Callee] = {name: callee for name, callee in CALLEES.items() if callee.site}
"""The callables whose calls are mock sites."""


def canonical(dotted: str) -> str:
    """``dotted`` with the ``mock`` backport spelled ``unittest.mock``."""
    if dotted == MOCK_BACKPORT or dotted.startswith(MOCK_BACKPORT + "."):
        return "unittest." + dotted
    return dotted


# -- keywords -----------------------------------------------------------------

# patch keywords that give the replacement or its spec: without any of them the
# target is replaced by a MagicMock with no spec.
SPECCING_KEYWORDS = frozenset({"autospec", "spec", "spec_set", "new", "new_callable"})
# Keywords of a Mock class or create_autospec that shape the double without
# configuring its behaviour.
SPEC_ONLY_KEYWORDS = frozenset({"spec", "spec_set", "name", "unsafe", "instance", "_name"})
PATCH_DEFAULT = "DEFAULT"  # patch.multiple(x, name=DEFAULT) replaces x.name by a MagicMock

# -- mocks, patchers and the fixtures that make them --------------------------

ASSERT_METHODS = frozenset(
    {"assert_called", "assert_called_once", "assert_called_with", "assert_called_once_with",
     "assert_any_call", "assert_has_calls", "assert_not_called", "assert_awaited",
     "assert_awaited_once", "assert_awaited_with", "assert_awaited_once_with", "assert_any_await",
     "assert_has_awaits", "assert_not_awaited"}
)
ASSERTION_OPTIONS = frozenset({"any_order"})  # assert_has_calls(calls, any_order=True): not an argument
# What a mock recorded of its calls ("awaited" is asynctest's CoroutineMock's).
CALL_ATTRIBUTES = frozenset(
    {"called", "call_count", "call_args", "call_args_list", "mock_calls", "method_calls",
     "await_count", "await_args", "await_args_list", "awaited"}
)
# Call assertions that a call was not made: they check a decision of the code.
NEGATIVE_ASSERT_METHODS = frozenset({"assert_not_called", "assert_not_awaited"})
CALL_COUNT_ATTRIBUTES = frozenset({"called", "call_count", "await_count", "awaited"})
ADD_SPEC = "mock_add_spec"  # m.mock_add_spec([...]): the mock gets a spec after it is made
CONFIGURING_METHODS = frozenset({"configure_mock", "attach_mock", ADD_SPEC, "reset_mock"})
MOCK_USE_ATTRIBUTES = ASSERT_METHODS | CALL_ATTRIBUTES | CONFIGURING_METHODS
RETURN_VALUE, SIDE_EFFECT = "return_value", "side_effect"
BEHAVIOUR_ATTRIBUTES = (RETURN_VALUE, SIDE_EFFECT)  # what a mock gives when called
# Names an expected call argument is spelt with that are mock machinery, not a
# value the code under test chose: mock.ANY, mock.sentinel.x, mock.call(...).
MOCK_ROOTS = frozenset({"mock", "unittest", "mocker", "pytest_mock"})
NEUTRAL_MOCK_ATTRIBUTES = frozenset({"ANY", "sentinel", "DEFAULT", "call", RETURN_VALUE, SIDE_EFFECT})

PATCHER_START, PATCHER_STOP, PATCHER_STOP_ALL = "start", "stop", "stopall"

MOCKER_FIXTURES = frozenset({"mocker", "class_mocker", "module_mocker", "package_mocker", "session_mocker"})
MOCKER_ANNOTATION = "MockerFixture"  # a parameter annotated with a name ending so is a mocker
MONKEYPATCH_FIXTURE = "monkeypatch"
MONKEYPATCH_ANNOTATION = "MonkeyPatch"
MONKEYPATCH_FACTORIES = frozenset(
    {"pytest.MonkeyPatch", "pytest.MonkeyPatch.context", "_pytest.monkeypatch.MonkeyPatch",
     "_pytest.monkeypatch.MonkeyPatch.context", f"{MONKEYPATCH_ROOT}.context"}  # monkeypatch.context() too
)

# -- tests, set-up and tear-down ----------------------------------------------

TEST_PREFIX = "test"  # of test functions and methods (pytest's and unittest's default)
ASSERTION_PREFIXES = ("assert", "fail")  # TestCase.assertEqual, .fail, pytest.fail, ...
ASSERTING_CONTEXTS = frozenset({"raises", "warns"})  # pytest.raises(...), pytest.warns(...)
# fixtures that take a snapshot of sys.modules before the test and restore it after
SYS_MODULES_RESTORING_FIXTURES = frozenset({"pytester", "testdir"})
# context managers that expect an exception from their block
EXPECTING_CONTEXTS = frozenset({"raises", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp"})

UNITTEST_TEST_CASES = frozenset(
    {"unittest.TestCase", "unittest.case.TestCase", "unittest.IsolatedAsyncioTestCase",
     "unittest.async_case.IsolatedAsyncioTestCase"}
)

# Methods of a test class that run before its tests: unittest's, their async
# form, pytest's xunit-style ones, nose's ``setup`` (pytest < 8 ran it), and
# Django's ``SimpleTestCase._pre_setup`` (run before every test: it empties
# ``mail.outbox``).
CLASS_SETUP_NAMES = frozenset(
    {"setUp", "asyncSetUp", "setUpClass", "setup_method", "setup_class", "setup", "_pre_setup"}
)
FIXTURE_SET_UP = "_setUp"  # what a ``fixtures.Fixture`` subclass overrides to set itself up
USE_FIXTURE = "useFixture"  # testtools' ``TestCase.useFixture(fixture)``: sets it up, returns it
SETUP_NAMES = CLASS_SETUP_NAMES | {"setUpModule", "setup_module", "setup_function"}
"""Every set-up method or module-level function name."""

CLASS_TEARDOWN_NAMES = frozenset(
    {"tearDown", "asyncTearDown", "tearDownClass", "teardown_method", "teardown_class", "teardown", "_post_teardown"}
)
TEARDOWN_NAMES = CLASS_TEARDOWN_NAMES | {"tearDownModule", "teardown_module", "teardown_function"}
"""Every tear-down method or module-level function name."""
MODULE_RELOADERS = frozenset({"reload", "reload_module"})  # importlib.reload, imp.reload, six.moves.reload_module
PYTEST_HOOK_PREFIX = "pytest_"  # pytest_configure, pytest_sessionstart: run once for the session, not per test

# Methods that register a callable to run on the way out: TestCase's
# addCleanup/addClassCleanup/enterContext, pytest's request.addfinalizer,
# ExitStack's callback/push.
CLEANUP_REGISTRARS = frozenset({"addCleanup", "addClassCleanup", "addfinalizer", "callback", "push", "enterContext"})

# -- fixtures -----------------------------------------------------------------

FIXTURE_DECORATORS = frozenset({"pytest.fixture", "_pytest.fixtures.fixture", "pytest_asyncio.fixture"})
_FIXTURE_NAMES = frozenset(name.rpartition(".")[2] for name in FIXTURE_DECORATORS)


def callee_name(expr: ast.expr) -> str:
    """The last name of a callee: ``c`` for ``a.b.c`` and for a call ``a.b.c(...)``
    (one call is seen through, so ``@pytest.fixture(scope=...)`` gives ``fixture``);
    ``""`` for anything else (a subscript, a call of a call, a lambda)."""
    if isinstance(expr, ast.Call):
        expr = expr.func
    if isinstance(expr, ast.Attribute):
        return expr.attr
    return expr.id if isinstance(expr, ast.Name) else ""


def fixture_decorator(decorators: list[ast.expr]) -> ast.expr | None:
    """The first of ``decorators`` that makes a pytest fixture, by its last name
    (``@pytest.fixture``, ``@fixture(...)``, ``@pytest_asyncio.fixture``); None if none does."""
    return next((d for d in decorators if callee_name(d) in _FIXTURE_NAMES), None)


def is_fixture(decorators: list[ast.expr]) -> bool:
    """Whether ``decorators`` (a def's ``decorator_list``) make it a pytest fixture."""
    return fixture_decorator(decorators) is not None


# What keeps a mock from shaping the path of the test that makes it
# (``undocumented-partial-mock`` judges only mocks that can).
SPY_KEYWORD = "wraps"  # Mock(wraps=real), patch(..., wraps=real): the real function answers
ANSWERING_KEYWORDS = frozenset({RETURN_VALUE, SIDE_EFFECT})  # ... unless one of these answers instead
NEVER_CALLED_ASSERTIONS = frozenset({"assert_not_called", "assert_not_awaited"})
CALLED_ATTRIBUTES = frozenset({"called", "awaited"})  # assert not m.called
COUNT_ATTRIBUTES = frozenset({"call_count", "await_count"})  # assert m.call_count == 0
ALWAYS_SKIP_MARKERS = frozenset({"skip"})  # @pytest.mark.skip, @unittest.skip(reason)
CONDITIONAL_SKIP_MARKERS = frozenset({"skipif", "skipIf"})  # skipped always when the condition is literally true
SKIP_CALLS = frozenset({"skip", "skipTest"})  # pytest.skip(...), self.skipTest(...) as a test's first statement
PYTESTMARK = "pytestmark"  # a module's marks, applied to every test in it
USEFIXTURES_MARKER = "usefixtures"
AUTOUSE_KEYWORD = "autouse"
FIXTURE_NAME_KEYWORD = "name"
PARAMETRIZE_MARKER = "parametrize"
# Decorators that call a unittest test with its data as positional arguments
# (ddt's data/idata/file_data/named_data, parameterized.expand): the mocks of
# patch decorators under them come after the data, in the last parameters.
POSITIONAL_DATA_DECORATORS = frozenset({"data", "idata", "file_data", "named_data", "expand"})
UNPACK_DECORATOR = "unpack"  # ddt: each tuple spread over parameters, each dict into keywords
EXPAND_DECORATOR = "expand"  # parameterized.expand([...]): each tuple spread over parameters
FIXTURE_PARAMS_KEYWORD = "params"


def parametrized_values(
    function: ast.FunctionDef | ast.AsyncFunctionDef, name: str,
    named_list: Callable[[str], ast.expr | None] | None = None,
) -> list[ast.expr] | None:
    """Every value a ``@pytest.mark.parametrize`` mark (or ddt's ``@data``,
    ``_ddt_values``) of ``function`` gives its
    parameter ``name`` (``pytest.param(v, ...)`` read as ``v``); None when no
    mark names it or its values cannot be listed (not a literal list or tuple,
    nor a name ``named_list`` gives one for: a module-level list of the test
    file, whose rows appended at run time it may not hold)."""
    ddt = _ddt_values(function, name)
    if ddt is not None:
        return ddt
    for decorator in function.decorator_list:
        if callee_name(decorator) != PARAMETRIZE_MARKER or not isinstance(decorator, ast.Call) or len(decorator.args) < 2:
            continue
        names_expr, values = decorator.args[0], decorator.args[1]
        if isinstance(names_expr, ast.Constant) and isinstance(names_expr.value, str):
            names = [n.strip() for n in names_expr.value.split(",") if n.strip()]
        elif isinstance(names_expr, (ast.List, ast.Tuple)):
            names = [str(e.value) for e in names_expr.elts if isinstance(e, ast.Constant)]
        else:
            return None
        if name not in names:
            continue
        if isinstance(values, ast.Name) and named_list is not None:
            values = named_list(values.id) or values
        if not isinstance(values, (ast.List, ast.Tuple)):
            return None
        position = names.index(name)
        found: list[ast.expr] = []
        for item in values.elts:
            if callee_name(item) == "param" and isinstance(item, ast.Call):
                item = item.args[0] if len(names) == 1 and item.args else ast.Tuple(elts=list(item.args), ctx=ast.Load())
            if len(names) > 1:
                if not isinstance(item, (ast.Tuple, ast.List)) or len(item.elts) <= position:
                    return None
                item = item.elts[position]
            found.append(item)
        return found
    return None


DDT_DATA = "data"  # ddt's ``@ddt.data(*values)``: one test per value
DDT_UNPACK = "unpack"  # ``@ddt.unpack``: each value is spread over the parameters


def _ddt_values(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> list[ast.expr] | None:
    """Every value ddt's ``@ddt.data(...)`` gives the test method's parameter
    ``name``: the whole value to its first parameter, or with ``@ddt.unpack``
    the item at the parameter's place of a tuple or list, or the value under
    its name of a dict; None when no such mark applies or a value cannot be
    read (a starred argument, a value of another shape)."""
    marks = {_ddt_mark(d): d for d in function.decorator_list}
    data = marks.get(DDT_DATA)
    if not isinstance(data, ast.Call) or any(isinstance(a, ast.Starred) for a in data.args) or data.keywords:
        return None
    unpack = DDT_UNPACK in marks
    parameters = [a.arg for a in [*function.args.posonlyargs, *function.args.args]][1:]  # after ``self``
    if name not in parameters:
        return None
    position = parameters.index(name)
    found: list[ast.expr] = []
    for item in data.args:
        if not unpack:
            if position != 0:
                return None
            found.append(item)
        elif isinstance(item, (ast.Tuple, ast.List)) and len(item.elts) > position:
            found.append(item.elts[position])
        elif isinstance(item, ast.Dict):
            value = next((v for k, v in zip(item.keys, item.values)
                          if isinstance(k, ast.Constant) and k.value == name), None)
            if value is None:
                return None
            found.append(value)
        else:
            return None
    return found


def _ddt_mark(decorator: ast.expr) -> str:
    """``"data"`` or ``"unpack"`` for ddt's marks as tests spell them
    (``@ddt.data(...)``, ``@data(...)`` imported from ddt), else ``""``."""
    func = decorator.func if isinstance(decorator, ast.Call) else decorator
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "ddt":
        return func.attr if func.attr in (DDT_DATA, DDT_UNPACK) else ""
    if isinstance(func, ast.Name) and func.id in (DDT_DATA, DDT_UNPACK):
        return func.id
    return ""
