"""``unspecced-mock`` and ``mock-target-not-found``: a double must be held to
the real object's shape, and a patch must name something that exists."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import cast

from mockpolicy.analysis import MOCK_WORDS, Analysis, Family
from mockpolicy.deps import Deps
from mockpolicy.findings import Finding
from mockpolicy.resolve import BUILTIN_NAMES
from mockpolicy.rules import MOCK_TARGET_NOT_FOUND, UNSPECCED_MOCK
from mockpolicy.sites import Context, MockSite, Target, never_installed, root_key
from mockpolicy.symbols import Kind
from mockpolicy.telling import fills_itself
from mockpolicy.vocabulary import (
    ADD_SPEC,
    CREATED_ON_MODULES,
    CREATES_BUILTINS_ON_MODULES,
    EXPECTING_CONTEXTS,
    MOCK_CLASSES,
    PATCH_DEFAULT,
    SPECCING_KEYWORDS,
    SPY_KEYWORD,
    VALUE_MOCK_CLASSES,
    SiteKind,
    callee_name,
)

OPEN_MOCK_CLASSES = MOCK_CLASSES - VALUE_MOCK_CLASSES
PATCH_KINDS: frozenset[SiteKind] = frozenset({"patch", "patch.object", "patch.multiple"})


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((kw.value for kw in call.keywords if kw.arg == name), None)


def _is_constant(expr: ast.expr | None, *values: object) -> bool:
    return isinstance(expr, ast.Constant) and any(expr.value is value for value in values)


def _unspecced(site: MockSite) -> str | None:
    """Why ``site`` makes a double without a spec, or None when it has one."""
    call, entry = site.call, site.entry
    if any(keyword.arg is None and _forwarded(site, keyword.value) for keyword in call.keywords):
        return None  # options the caller forwards may carry a spec: it cannot be told here
    if not isinstance(_keyword(call, SPY_KEYWORD), (ast.Constant, type(None))):
        return None  # wraps a real object: its attributes are the real one's, checked as a spec checks them
    if site.kind in PATCH_KINDS:
        if site.kind == "patch.multiple":
            if any(_keyword(call, option) is not None for option in SPECCING_KEYWORDS & entry.own_keywords):
                return None
            defaults = [kw.arg for kw in call.keywords if isinstance(kw.value, (ast.Name, ast.Attribute))
                        and callee_name(kw.value) == PATCH_DEFAULT]
            return f"patch.multiple() makes MagicMocks without a spec for {', '.join(map(str, defaults))}" if defaults else None
        new = entry.new
        assert new is not None
        if len(call.args) > new.position:
            return None
        if _keyword(call, new.keyword) is not None or _keyword(call, "new_callable") is not None:
            return None  # an explicit replacement, not a MagicMock
        given = {kw.arg: kw.value for kw in call.keywords if kw.arg in SPECCING_KEYWORDS}
        if not given:
            return "it is replaced by a MagicMock without a spec"
        if all(_is_constant(value, None, False) for value in given.values()):
            shown = ", ".join(f"{name}={ast.unparse(value)}" for name, value in given.items())
            return f"{shown} is no spec: it is replaced by a MagicMock without one"
        return None
    if site.kind == "mock" and site.callee.rpartition(".")[2] in OPEN_MOCK_CLASSES:
        spec = call.args[0] if call.args else (_keyword(call, "spec") or _keyword(call, "spec_set"))
        name = site.callee.rpartition(".")[2]
        written = callee_name(call.func) or name  # a subclass or an alias is named as the test spells it
        kind = f" (a {name})" if written != name else ""
        if spec is None:
            if _keyword(call, "autospec") is not None:  # ``Mock(autospec=True)``: a child attribute named autospec
                return (f"{written}(autospec=...){kind} has no spec "
                        f"({name} takes no autospec argument: it only sets an attribute of that name)")
            return f"{written}(){kind} has no spec"
        if _is_constant(spec, None):
            return f"{written}(spec=None){kind} has no spec"
    return None


def _forwarded(site: MockSite, expr: ast.expr) -> bool:
    """Whether ``**expr`` passes on the options its function was given (a helper's ``**kwargs``)."""
    node = site.owner.node
    return isinstance(expr, ast.Name) and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
        and node.args.kwarg is not None and node.args.kwarg.arg == expr.id


def _missing_part(analysis: Analysis, target: Target) -> tuple[str, str]:
    """(what lacks the name, the missing name) for a target that does not resolve."""
    owner, _, name = target.text.rpartition(".")
    parts = target.text.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        prefix = ".".join(parts[:cut])
        if analysis.resolver.resolve_dotted(prefix).kind is not Kind.MISSING:
            return prefix, parts[cut]
    return owner, name


def _created_by_mock(analysis: Analysis, site: MockSite, target: Target, owner: str, name: str) -> bool:
    """Whether ``unittest.mock`` itself creates the missing name: a public builtin
    patched on a module (``patch("pkg.mod.open")``) is created as if ``create=True``."""
    if site.api not in CREATES_BUILTINS_ON_MODULES or name not in CREATED_ON_MODULES:
        return False
    if owner != target.text.rpartition(".")[0]:
        return False  # what lacks the name is not the object patched
    base = target.base if target.base is not None else analysis.resolver.resolve_dotted(owner)
    return base.kind is Kind.MODULE


def _provided_by_subclasses(analysis: Analysis, target: Target, owner: str, name: str) -> bool:
    """Whether the class (or the instance's class) lacking ``name`` has a known
    subclass (a mixin's host) that has it."""
    if owner != target.text.rpartition(".")[0]:
        return False
    base = target.base if target.base is not None else analysis.resolver.resolve_dotted(owner)
    if base.kind not in (Kind.CLASS, Kind.INSTANCE) or base.cls is None:
        return False
    return analysis.known_subclasses().provide(base.cls, name, analysis.module.info)


def _typed_only_as_a_base(analysis: Analysis, site: MockSite, target: Target) -> bool:
    """Whether the object patched is known only as of some class, not named as
    the class itself: an instance (``obj`` from ``instantiate(url) ->
    Optional[NotifyBase]``, which returns a ``NotifySlack``) or its
    ``type(obj)``; its real class may be a subclass."""
    base = target.base
    expr = site.entry.argument(site.call, "target")
    if base is None or expr is None or base.cls is None:
        return False
    if base.kind is Kind.INSTANCE:
        return True
    return base.kind is Kind.CLASS and isinstance(expr, ast.Call) and callee_name(expr) == "type"


def _filled_at_run_time(analysis: Analysis, site: MockSite, target: Target) -> bool:
    """Whether the innermost module the target passes through is one its own
    package fills with ``setattr`` at run time (``objects.Node`` for a package
    an object registry adds its classes to)."""
    modules: list[str] = []
    parts = target.text.split(".")
    for cut in range(1, len(parts)):
        value = analysis.resolver.resolve_dotted(".".join(parts[:cut]))
        if value.kind is Kind.MODULE:
            modules.append(value.module)
    if site.call.args and not isinstance(site.call.args[0], ast.Constant):
        scope = analysis.module.scope(site.owner)
        expr: ast.expr = site.call.args[0]
        chain: list[ast.expr] = []
        while isinstance(expr, ast.Attribute):
            chain.append(expr)
            expr = expr.value
        chain.append(expr)
        for part in reversed(chain):
            value = analysis.resolver.evaluate(part, scope)
            if value.kind is Kind.MODULE:
                modules.append(value.module)
    return bool(modules) and fills_itself(analysis, modules[-1])


def _imported_by_the_project(analysis: Analysis, owner: str, name: str) -> bool:
    """Whether ``owner.name`` is a submodule of a package of the project that
    the project's own code imports (``from azure.identity.broker import
    ...``, as a rule in a ``try`` for ``ImportError``): a module another
    distribution installs into the package (azure-identity-broker), absent
    here but not misspelt. Searched once per name per engine."""
    located = analysis.resolver.index.locate(owner)
    if located is None or not located[1]:
        return False  # not a package of the project
    dotted = f"{owner}.{name}"
    memory = cast("dict[str, tuple[bool, Deps]]", analysis.memo.extra.setdefault("imported by the project", {}))

    def search() -> bool:
        spelled = re.escape(dotted)
        statement = re.compile(rf"^[ \t]*(?:from[ \t]+{spelled}(?:\.[\w.]+)?[ \t]+import\b|import[ \t]+{spelled}\b)", re.M)
        for path in analysis.resolver.project.code_under_test():
            lines = analysis.memo.lines(path, keep=False)
            if lines is not None and dotted in lines.text and statement.search(lines.text):
                return True
        return False

    return analysis.memo.tracker.remembered(memory, dotted, search)


def _given_a_spec_later(analysis: Analysis) -> set[int]:
    """The ids of the sites whose mock the tests give a spec by name
    (``mock_socket.mock_add_spec([...])`` on the mock a decorator handed in)."""
    found: set[int] = set()
    for context in analysis.module.contexts:
        for call in context.calls:
            func = call.func
            if not (isinstance(func, ast.Attribute) and func.attr == ADD_SPEC and (call.args or call.keywords)):
                continue
            key = root_key(func.value)
            if key is None or ast.unparse(func.value) != key:
                continue  # a spec for a child (``m.return_value.mock_add_spec``), not for the mock
            owner: Context | None = context
            while owner is not None and key not in owner.bound:
                owner = owner.parent
            found.update(id(site) for site in (owner.bound[key] if owner is not None else ()))
    return found


def check(analysis: Analysis) -> Iterator[Finding]:
    require = analysis.resolver.project.require_spec
    specced_later: set[int] | None = None
    for site in analysis.module.sites:
        call = site.call
        scope = site.owner.qualname
        yield from _target_not_found(analysis, site)
        if require == "off" or never_installed(site):
            continue
        reason = _unspecced(site)
        if reason is None:
            continue
        specced_later = _given_a_spec_later(analysis) if specced_later is None else specced_later
        if id(site) in specced_later:
            continue
        if require == "first-party" and not (site.kind in PATCH_KINDS and analysis.first_party_targets(site)):
            continue
        excused = analysis.isolation_excuse(
            call, scope, "this double is deliberately open (e.g. '# mock-isolation: stands in for any plugin')"
        )
        if excused:
            continue
        subject = f"'{_patched(site)}': " if site.kind in PATCH_KINDS and site.targets else ""
        if not subject and reason.startswith("it "):  # a target named only at run time (a helper's parameter)
            written = site.entry.argument(call, "target") if site.kind == "patch" else None
            shown = f" (whatever {ast.unparse(written)} holds when the test runs)" if written is not None else ""
            reason = f"The patch's target{shown}" + reason.removeprefix("it")
        yield analysis.finding(
            call, UNSPECCED_MOCK.symbol,
            f"{subject}{reason}, so a misspelt or removed attribute still answers and the test stays "
            f"green. {_advice(analysis, site)}, or mark a deliberately open double with '# mock-isolation: <reason>'.",
            scope,
        )


def _advice(analysis: Analysis, site: MockSite) -> str:
    """How to give ``site``'s double a spec: a mock class takes ``spec=``
    (``autospec`` is no argument of it); a patch creating the name it
    replaces (``create=True``, or a builtin missing from the module, which
    mock creates) refuses ``autospec=`` and ``spec=`` (``TypeError``), so its
    replacement needs the spec; and a patch of an attribute of a mock without
    a spec cannot be autospecced (``InvalidSpecError``): that mock needs the spec."""
    if site.kind == "mock":
        return "Pass spec=/spec_set= the real object (or make it with create_autospec(real))"
    if site.kind == "patch" and any(_creates(analysis, site, target) for target in site.targets):
        return ("The patch creates the name it replaces, which autospec= and spec= refuse (TypeError): "
                "pass the replacement made with the spec, new=create_autospec(real) or new=MagicMock(spec=real)")
    if any(_of_an_open_mock(target.value.qualname) for target in site.targets):
        return ("It patches an attribute of a mock made without a spec, which autospec=True cannot follow: "
                "give that mock a spec (spec=/spec_set= the real object)")
    return "Pass autospec=True (or spec=/spec_set= the real object)"


def _creates(analysis: Analysis, site: MockSite, target: Target) -> bool:
    """Whether the patch ``site`` creates ``target``, which does not exist:
    by ``create=True``, or as mock does for a public builtin patched on a module."""
    if target.value.kind is not Kind.MISSING:
        return False
    owner, name = _missing_part(analysis, target)
    return site.entry.missing_allowed_by(site.call) is not None or _created_by_mock(analysis, site, target, owner, name)


def _of_an_open_mock(qualname: str) -> bool:
    """Whether ``qualname`` names something reached from an instance of a mock
    class (``unittest.mock.Mock().images.list``)."""
    made, found, _ = qualname.partition("().")
    if not found:
        return False
    module, _, cls = made.rpartition(".")
    return cls in MOCK_CLASSES and module in _MOCK_MODULES


_MOCK_MODULES = frozenset({"unittest.mock", "mock"})


def _patched(site: MockSite) -> str:
    """What a patch with targets replaces, as the finding names it: its target,
    or for ``patch.multiple`` the object whose attributes it replaces (the
    reason names the ones left without a spec)."""
    text = site.targets[0].text
    return text.rpartition(".")[0] or text if site.kind == "patch.multiple" else text


def _target_not_found(analysis: Analysis, site: MockSite) -> Iterator[Finding]:
    if site.spec_only or site.kind in ("patch.dict", "setitem"):
        return
    allowed_by = site.entry.missing_allowed_by(site.call)
    for target in site.targets:
        if target.value.kind is not Kind.MISSING:
            continue
        owner, name = _missing_part(analysis, target)
        if allowed_by and name in BUILTIN_NAMES and owner == target.text.rpartition(".")[0]:
            continue  # create=True on a builtin the module calls: its global shadows the builtin
        if _created_by_mock(analysis, site, target, owner, name) or analysis.on_a_mock(site, target):
            continue
        if allowed_by and _provided_by_subclasses(analysis, target, owner, name):
            continue  # a mixin's attribute its host classes provide
        if _typed_only_as_a_base(analysis, site, target) and _provided_by_subclasses(analysis, target, owner, name):
            continue  # the object may be of the subclass that has it
        if _filled_at_run_time(analysis, site, target):
            continue  # a registry adds the name to the module when the code runs
        if _imported_by_the_project(analysis, owner, name):
            continue  # a module another distribution installs into the package: absent here
        if not allowed_by and _expected_to_fail(site):
            continue  # inside pytest.raises/assertRaises: the test wants the patch to fail
        if allowed_by:
            message = (f"'{target.text}' does not exist: {owner} has no '{name}', and {allowed_by} hides "
                       "it, so the patch keeps passing after the name is renamed or removed. Patch a name that "
                       "exists, or add it to the fake for real.")
        else:
            message = (f"'{target.text}' does not exist: {owner} has no '{name}' (renamed, removed or "
                       "misspelt?); the patch fails when the test runs.")
        yield analysis.finding(site.call, MOCK_TARGET_NOT_FOUND.symbol, message, site.owner.qualname)
        return


def _expected_to_fail(site: MockSite) -> bool:
    """Whether the mock call sits in a ``with`` block that expects an exception
    (``with pytest.raises(AttributeError): monkeypatch.setattr(A, "y", 1)``)."""
    line = site.written.lineno
    return any(
        isinstance(statement, (ast.With, ast.AsyncWith)) and statement.lineno < line <= (statement.end_lineno or 0)
        and any(
            isinstance(item.context_expr, ast.Call) and callee_name(item.context_expr) in EXPECTING_CONTEXTS
            for item in statement.items
        )
        for statement in site.owner.statements
    )


FAMILY = Family("fidelity", (UNSPECCED_MOCK, MOCK_TARGET_NOT_FOUND), check, MOCK_WORDS)
