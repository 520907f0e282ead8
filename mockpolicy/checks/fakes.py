"""``incomplete-mock-module`` and ``incomplete-mock-object``: a hand-made fake
must carry everything the real module or class offers, or say why not.

A fake is closed when its names can be listed: a ``SimpleNamespace(...)``, a
``types.ModuleType`` whose attributes the test sets, ``type(name, bases, {...})``,
or a class (or an instance of a class) defined in the tests whose bases are all
known. Open doubles (``Mock()``, ``MagicMock()``) answer everything and are
``unspecced-mock``'s business.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from mockpolicy.analysis import MOCK_WORDS, Analysis, Family
from mockpolicy.findings import Finding
from mockpolicy.rules import INCOMPLETE_MOCK_MODULE, INCOMPLETE_MOCK_OBJECT
from mockpolicy.sites import Context, MockSite, Target
from mockpolicy.symbols import ClassInfo, Kind, ModuleInfo, Scope, Value

SHOWN = 5  # missing names listed in a message before "and N more"
# Calls that make an object holding exactly the keyword arguments given.
NAMESPACE_FACTORIES = frozenset({"types.SimpleNamespace", "argparse.Namespace", "pretend.stub"})


def _public(name: str) -> bool:
    return not name.startswith("_")


def module_exports(info: ModuleInfo) -> set[str]:
    """What a module exports: its literal ``__all__``, else its public top-level
    definitions and assignments (imports are not its own exports)."""
    declared = info.bindings.get("__all__")
    if declared is not None and isinstance(declared.value, (ast.List, ast.Tuple)):
        names = [e.value for e in declared.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if len(names) == len(declared.value.elts):
            return set(names)
    return {name for name, binding in info.bindings.items() if _public(name) and binding.kind != "import"}


def class_members(analysis: Analysis, cls: ClassInfo, seen: set[int] | None = None) -> set[str] | None:
    """Public members of ``cls`` and its project bases, with the attributes its
    set-up methods assign; None when a base cannot be listed."""
    seen = seen if seen is not None else set()
    if id(cls) in seen:
        return set()
    seen.add(id(cls))
    names = {name for name in (*cls.members, *cls.instance_attrs) if _public(name)}
    info = analysis.resolver.index.get(cls.module)
    scope = cls.bases_scope or (Scope(info) if info is not None else None)
    for base_expr in cls.bases:
        base = analysis.resolver.evaluate(base_expr, scope) if scope is not None else None
        if base is None:
            return None
        if base.kind is Kind.CLASS and base.cls is not None:
            inherited = class_members(analysis, base.cls, seen)
            if inherited is None:
                return None
            names |= inherited
        elif base.qualname not in ("builtins.object", "object"):
            return None  # an outside base may supply anything
    return names


def _fake_names(analysis: Analysis, site: MockSite, expr: ast.expr) -> tuple[set[str], str] | None:
    """The names a closed fake offers and how to call it, or None for an open or unknown double."""
    scope = analysis.module.scope(site.owner)
    resolver = analysis.resolver
    if isinstance(expr, ast.Name):
        bound = site.owner.assigns.get(expr.id, [])
        if len(bound) == 1 and isinstance(bound[0], ast.Call):
            if _is_module_type(analysis, bound[0], scope):
                return _assigned_attributes(site.owner, expr.id), f"module '{expr.id}'"
            return _fake_names(analysis, site, bound[0])
    if isinstance(expr, ast.Call):
        callee = resolver.evaluate(expr.func, scope)
        if callee.qualname in NAMESPACE_FACTORIES:
            return _keywords(expr), callee.qualname.rpartition(".")[2]
        if callee.qualname == "builtins.type" and len(expr.args) == 3 and isinstance(expr.args[2], ast.Dict):
            keys = {k.value for k in expr.args[2].keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
            return keys, "type(...)"
    value = resolver.evaluate(expr, scope)
    if value.kind in (Kind.CLASS, Kind.INSTANCE) and value.cls is not None and _made_in_tests(analysis, value):
        members = class_members(analysis, value.cls)
        if members is not None:
            return members, f"class {value.cls.qualname}"
    return None


def _made_in_tests(analysis: Analysis, value: Value) -> bool:
    return not analysis.resolver.project.is_first_party(value.module)


def _is_module_type(analysis: Analysis, call: ast.Call, scope: Scope) -> bool:
    return analysis.resolver.evaluate(call.func, scope).qualname == "types.ModuleType"


def _keywords(call: ast.Call) -> set[str]:
    names = {kw.arg for kw in call.keywords if kw.arg is not None}
    for kw in call.keywords:
        if kw.arg is None and isinstance(kw.value, ast.Dict):
            names |= {k.value for k in kw.value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    return names


def _assigned_attributes(context: Context, name: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(context.node):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == name:
                    names.add(target.attr)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "setattr" and len(node.args) >= 2:
            owner, attribute = node.args[0], node.args[1]
            if isinstance(owner, ast.Name) and owner.id == name and isinstance(attribute, ast.Constant):
                names.add(str(attribute.value))
    return names


def _real_names(analysis: Analysis, target: Target) -> tuple[set[str], str, str] | None:
    """(names, what the real thing is, rule symbol) for a module, class or instance target."""
    value = target.value
    if value.kind is Kind.MODULE:
        info = analysis.resolver.index.get(value.module)
        if info is None or info.path is None:
            return None
        return module_exports(info), f"module {value.module}", INCOMPLETE_MOCK_MODULE.symbol
    if value.kind in (Kind.CLASS, Kind.INSTANCE) and value.cls is not None:
        members = class_members(analysis, value.cls)
        if members is None:
            return None
        kind = "class" if value.kind is Kind.CLASS else "instance of"
        return members, f"{kind} {value.qualname.removesuffix('()')}", INCOMPLETE_MOCK_OBJECT.symbol
    return None


def check(analysis: Analysis) -> Iterator[Finding]:
    for site in analysis.module.sites:
        for target in site.targets:
            if target.replacement is None:
                continue
            real = _real_names(analysis, target)
            if real is None:
                continue
            fake = _fake_names(analysis, site, target.replacement)
            if fake is None:
                continue
            names, what, symbol = real
            offered, fake_kind = fake
            missing = sorted(names - offered)
            if not missing:
                continue
            call = site.call
            excused = analysis.isolation_excuse(
                call, site.owner.qualname, "this fake is deliberately smaller than the real thing"
            )
            if excused:
                break
            shown = ", ".join(missing[:SHOWN]) + (f" and {len(missing) - SHOWN} more" if len(missing) > SHOWN else "")
            yield analysis.finding(
                call, symbol,
                f"The fake ({fake_kind}) put in place of '{target.text}' lacks {len(missing)} public name(s) "
                f"the real {what} has: {shown}. Code that uses them breaks only outside this test; add them "
                "to the fake, or say why it is closed with '# mock-isolation: <reason>'.",
                site.owner.qualname,
            )
            break


FAMILY = Family("fakes", (INCOMPLETE_MOCK_MODULE, INCOMPLETE_MOCK_OBJECT), check, MOCK_WORDS)
