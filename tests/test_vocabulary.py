"""The mocking vocabulary against the libraries it describes: every position,
keyword and name in ``mockpolicy.vocabulary`` is read from the real
``unittest.mock``, pytest and (when installed) pytest-mock, so the table
cannot drift from them."""

from __future__ import annotations

import ast
import contextlib
import importlib
import inspect
import sys
import unittest
import unittest.mock
from collections.abc import Callable
from typing import Any, get_args

import pytest

from mockpolicy import vocabulary
from mockpolicy.vocabulary import CALLEES, Callee, Role

ROLES: tuple[Role, ...] = get_args(Role)


def _parameters(function: Callable[..., Any]) -> list[inspect.Parameter]:
    """``function``'s parameters, ``self`` left out."""
    parameters = list(inspect.signature(function).parameters.values())
    return parameters[1:] if parameters and parameters[0].name == "self" else parameters


def _mock_class_init(cls: type) -> Callable[..., Any]:
    """The ``__init__`` in ``cls``'s MRO that declares the mock's own parameters
    (MagicMock and friends take ``*args, **kw`` and pass them on)."""
    for klass in cls.__mro__:
        init = vars(klass).get("__init__")
        if init is not None and "spec" in inspect.signature(init).parameters:
            return init  # type: ignore[no-any-return]
    raise AssertionError(f"{cls.__name__} declares no spec parameter")


def _assert_matches(callee: Callee, function: Callable[..., Any]) -> None:
    """Each role of ``callee`` sits where ``function`` declares it."""
    parameters = _parameters(function)
    for role in ROLES:
        param = callee.parameter(role)
        if param is None:
            continue
        assert param.position < len(parameters), (callee.name, role)
        real = parameters[param.position]
        assert (real.name, real.kind) == (param.keyword, inspect.Parameter.POSITIONAL_OR_KEYWORD), (callee.name, role)
    named = {p.name: p for p in parameters if p.kind is not inspect.Parameter.VAR_KEYWORD}
    if callee.own_keywords:
        positional = {n for n, p in named.items() if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD}
        assert callee.own_keywords == positional, callee.name
    if callee.allow_missing is not None:
        keyword, value = callee.allow_missing
        assert named[keyword].default is (not value), callee.name  # the option is off by default


def _unittest_object(name: str) -> Callable[..., Any]:
    """The callable a canonical ``unittest.mock`` name denotes; for a Mock class, its ``__init__``."""
    found: Any = unittest.mock
    for part in name.removeprefix("unittest.mock.").split("."):
        found = getattr(found, part)
    if name.rpartition(".")[2] in vocabulary.MOCK_CLASSES:
        return _mock_class_init(found)
    return found  # type: ignore[no-any-return]


def test_every_kind_has_a_callee_and_every_callee_a_kind() -> None:
    assert {callee.kind for callee in CALLEES.values()} == set(get_args(vocabulary.SiteKind))
    assert all(name == callee.name for name, callee in CALLEES.items())
    assert set(vocabulary.SITE_CALLEES) < set(CALLEES)


@pytest.mark.parametrize("name", sorted(n for n in CALLEES if n.startswith("unittest.mock.")))
def test_unittest_mock_signatures(name: str) -> None:
    _assert_matches(CALLEES[name], _unittest_object(name))


@pytest.mark.parametrize("name", sorted(n for n in CALLEES if n.startswith("monkeypatch.")))
def test_monkeypatch_signatures(name: str) -> None:
    _assert_matches(CALLEES[name], getattr(pytest.MonkeyPatch, name.partition(".")[2]))


def test_mocker_forms_mirror_unittest_mock() -> None:
    mocker = {n.partition(".")[2]: c for n, c in CALLEES.items() if c.api == "mocker"}
    unittest_forms = {
        n.removeprefix("unittest.mock."): c for n, c in CALLEES.items() if n.startswith("unittest.mock.")
    }
    assert mocker.keys() == unittest_forms.keys()
    for name, callee in mocker.items():
        twin = unittest_forms[name]
        assert (callee.kind, callee.target, callee.attribute, callee.new, callee.spec, callee.autospec) == (
            twin.kind, twin.target, twin.attribute, twin.new, twin.spec, twin.autospec
        )
        assert not callee.patcher and twin.patcher == twin.kind.startswith("patch")  # mocker returns the mock


def test_mocker_signatures(request: pytest.FixtureRequest) -> None:
    pytest_mock = pytest.importorskip("pytest_mock")
    mocker = request.getfixturevalue("mocker")
    methods = {"patch": mocker.patch, "patch.object": mocker.patch.object, "patch.multiple": mocker.patch.multiple,
               "patch.dict": mocker.patch.dict, "create_autospec": mocker.create_autospec}
    for name, method in methods.items():
        _assert_matches(CALLEES[f"mocker.{name}"], method)
    for cls in vocabulary.MOCK_CLASSES:
        assert getattr(mocker, cls) is getattr(unittest.mock, cls)
    for fixture in vocabulary.MOCKER_FIXTURES:
        assert hasattr(pytest_mock, fixture)
    assert pytest_mock.MockerFixture.__name__.endswith(vocabulary.MOCKER_ANNOTATION)
    assert hasattr(pytest_mock.MockerFixture, vocabulary.PATCHER_STOP_ALL)


def test_mock_names() -> None:
    assert vocabulary.VALUE_MOCK_CLASSES < vocabulary.MOCK_CLASSES
    for cls in vocabulary.MOCK_CLASSES:
        assert isinstance(getattr(unittest.mock, cls), type)
    double = unittest.mock.AsyncMock(spec_set=[])  # answers only its own attributes
    own = vocabulary.ASSERT_METHODS | vocabulary.CONFIGURING_METHODS | set(vocabulary.BEHAVIOUR_ATTRIBUTES)
    for name in own | (vocabulary.CALL_ATTRIBUTES - {"awaited"}):  # awaited: asynctest's spelling
        getattr(double, name)
    assert not hasattr(unittest.mock.AsyncMock, "awaited")
    assert vocabulary.MOCK_USE_ATTRIBUTES >= vocabulary.ASSERT_METHODS | vocabulary.CALL_ATTRIBUTES
    assert hasattr(unittest.mock, vocabulary.PATCH_DEFAULT)
    patcher = type(unittest.mock.patch("os.getcwd", autospec=True))  # made, never started
    assert callable(getattr(patcher, vocabulary.PATCHER_START)) and callable(getattr(patcher, vocabulary.PATCHER_STOP))
    assert callable(getattr(unittest.mock.patch, vocabulary.PATCHER_STOP_ALL))


def test_keywords() -> None:
    patch = {p.name for p in _parameters(unittest.mock.patch)}
    assert vocabulary.SPECCING_KEYWORDS <= patch
    shaping: set[str] = set()
    for function in (*(_mock_class_init(getattr(unittest.mock, c)) for c in vocabulary.MOCK_CLASSES),
                     unittest.mock.create_autospec):
        shaping |= {p.name for p in _parameters(function)}
    assert vocabulary.SPEC_ONLY_KEYWORDS <= shaping


def test_monkeypatch_names() -> None:
    assert pytest.MonkeyPatch.__name__ == vocabulary.MONKEYPATCH_ANNOTATION
    assert callable(importlib.import_module("_pytest.monkeypatch").monkeypatch)  # the fixture
    assert vocabulary.MONKEYPATCH_FIXTURE == "monkeypatch"
    for dotted in vocabulary.MONKEYPATCH_FACTORIES:
        if dotted.startswith(vocabulary.MONKEYPATCH_ROOT + "."):  # a method of the fixture's MonkeyPatch
            assert callable(getattr(pytest.MonkeyPatch, dotted.partition(".")[2])), dotted
            continue
        module, _, rest = dotted.partition(".MonkeyPatch")
        found = importlib.import_module(module).MonkeyPatch
        assert callable(getattr(found, rest.lstrip(".")) if rest else found), dotted


def test_fixture_decorators() -> None:
    for dotted in vocabulary.FIXTURE_DECORATORS:
        module, _, name = dotted.rpartition(".")
        try:
            found = getattr(importlib.import_module(module), name)
        except ImportError:
            continue  # pytest-asyncio is not a dependency
        assert callable(found), dotted
    tree = ast.parse(
        "@pytest.fixture\ndef a(): pass\n@fixture(name='x')\ndef b(): pass\n"
        "@pytest_asyncio.fixture()\nasync def c(): pass\n@other\n@pytest.mark.x\ndef d(): pass\n"
    )
    definitions = [node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    assert [vocabulary.is_fixture(node.decorator_list) for node in definitions] == [True, True, True, False]


def test_set_up_and_tear_down_names() -> None:
    unittest_names = {"setUp", "setUpClass", "tearDown", "tearDownClass"}
    assert all(hasattr(unittest.TestCase, name) for name in unittest_names)
    assert all(hasattr(unittest.IsolatedAsyncioTestCase, name) for name in ("asyncSetUp", "asyncTearDown"))
    unittest_source = inspect.getsource(importlib.import_module("unittest.suite"))
    assert "'setUpModule'" in unittest_source and "'tearDownModule'" in unittest_source
    pytest_source = inspect.getsource(importlib.import_module("_pytest.python"))
    xunit = {f"{phase}_{scope}" for phase in ("setup", "teardown") for scope in ("module", "function", "class", "method")}
    assert all(f'"{name}"' in pytest_source for name in xunit)
    nose = {"setup", "teardown"}  # nose-style, run by pytest before 8
    django = {"_pre_setup", "_post_teardown"}  # SimpleTestCase's per-test hooks (Django is no dependency here)
    every = unittest_names | {"asyncSetUp", "asyncTearDown", "setUpModule", "tearDownModule"} | xunit | nose | django
    assert vocabulary.SETUP_NAMES | vocabulary.TEARDOWN_NAMES == every
    assert vocabulary.CLASS_SETUP_NAMES < vocabulary.SETUP_NAMES
    assert vocabulary.CLASS_TEARDOWN_NAMES < vocabulary.TEARDOWN_NAMES

    def tear_down(name: str) -> str:
        if name == "_pre_setup":
            return "_post_teardown"
        return name.replace("setUp", "tearDown").replace("SetUp", "TearDown").replace("setup", "teardown")

    assert {tear_down(n) for n in vocabulary.SETUP_NAMES} == vocabulary.TEARDOWN_NAMES
    assert {tear_down(n) for n in vocabulary.CLASS_SETUP_NAMES} == vocabulary.CLASS_TEARDOWN_NAMES


def test_other_test_framework_names() -> None:
    for name in vocabulary.UNITTEST_TEST_CASES:
        module, _, cls = name.rpartition(".")
        assert issubclass(getattr(importlib.import_module(module), cls), unittest.TestCase)
    owners = (unittest.TestCase, pytest.FixtureRequest, contextlib.ExitStack)
    for name in vocabulary.CLEANUP_REGISTRARS:
        if name == "enterContext" and sys.version_info < (3, 11):
            continue
        assert any(hasattr(owner, name) for owner in owners), name
    assert all(callable(getattr(pytest, name)) for name in vocabulary.ASSERTING_CONTEXTS)
    assert unittest.TestLoader.testMethodPrefix == vocabulary.TEST_PREFIX


@pytest.mark.parametrize(
    ("source", "name"),
    [("a.b.c", "c"), ("f", "f"), ("a.b.c(1)", "c"), ("f()", "f"), ("f()()", ""), ("a[0]", ""), ("(lambda: 0)", "")],
)
def test_callee_name(source: str, name: str) -> None:
    assert vocabulary.callee_name(ast.parse(source, mode="eval").body) == name


def test_arguments_by_position_or_keyword() -> None:
    new = CALLEES["unittest.mock.patch.object"].new
    assert new is not None
    call = ast.parse("patch.object(a, 'b', c)", mode="eval").body
    keyword = ast.parse("patch.object(a, 'b', new=c)", mode="eval").body
    starred = ast.parse("patch.object(*args, new=c)", mode="eval").body
    assert isinstance(call, ast.Call) and isinstance(keyword, ast.Call) and isinstance(starred, ast.Call)
    assert [ast.unparse(e) if e is not None else None for e in (new.of(call), new.of(keyword), new.of(starred))] == ["c", "c", "c"]
    assert CALLEES["unittest.mock.patch.dict"].argument(call, "autospec") is None
    setattr_callee = CALLEES["monkeypatch.setattr"]
    raising = ast.parse("monkeypatch.setattr(a, 'b', c, raising=False)", mode="eval").body
    assert isinstance(raising, ast.Call)
    assert setattr_callee.missing_allowed_by(raising) == "raising=False"
    assert setattr_callee.missing_allowed_by(call) is None


def test_the_fixtures_packages_mock_fixtures_take_patchs_arguments() -> None:
    """``fixtures.MockPatch(obj, new=DEFAULT, **kwargs)`` and its kin hand
    ``**kwargs`` to ``mock.patch``: spec and autospec only by keyword."""
    fixtures = pytest.importorskip("fixtures")
    for name in ("MockPatch", "MockPatchObject", "MockPatchMultiple"):
        callee = CALLEES[f"fixtures.{name}"]
        parameters = list(inspect.signature(getattr(fixtures, name)).parameters)
        for role in ("target", "attribute", "new"):
            param = callee.parameter(role)  # type: ignore[arg-type]
            if param is not None:
                assert parameters[param.position] == param.keyword, (name, role)
        assert callee.api == "unittest" and not callee.patcher  # the fixture stops the patch at clean-up
