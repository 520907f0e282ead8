"""``first-party-mock``, ``multiple-boundary-mocks`` and
``mock-annotation-without-reason``: don't mock your own code, except one
declared boundary per test; a spec'd double nobody configures or asserts on is
an inert collaborator and is allowed."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from mockpolicy.analysis import MOCK_WORDS, Analysis, Family
from mockpolicy.findings import Finding
from mockpolicy.functions import PROPERTY_DECORATORS, child_nodes, decorator_names, walk
from mockpolicy.rules import ANNOTATION_WITHOUT_REASON, FIRST_PARTY_MOCK, MULTIPLE_BOUNDARY_MOCKS
from mockpolicy.sites import Context, MockSite, Target, never_installed, root_key
from mockpolicy.symbols import Kind
from mockpolicy.vocabulary import MOCK_USE_ATTRIBUTES

_KIND_WORDS = {
    Kind.MODULE: "module",
    Kind.CLASS: "class",
    Kind.FUNCTION: "function",
    Kind.INSTANCE: "object",
}


def describe(analysis: Analysis, target: Target) -> str:
    value = target.value
    word = _KIND_WORDS.get(value.kind, "object")
    if value.function is not None and decorator_names(value.function) & PROPERTY_DECORATORS:
        word = "property"  # a method read as an attribute (``client.grpc_client``)
    if value.kind is Kind.INSTANCE:
        word = f"instance of {value.qualname.removesuffix('()')}"
        return f"{word} ({analysis.resolver.display_path(value)})"
    return f"{word} {value.qualname} ({analysis.resolver.display_path(value)})"


def _is_a_key(expr: ast.expr, keys: set[str]) -> bool:
    """Whether ``expr`` is one of ``keys`` itself (``m``, ``self.m``), not something hanging from it."""
    return (isinstance(expr, ast.Name) and expr.id in keys) or (
        isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id in ("self", "cls")
        and f"self.{expr.attr}" in keys
    )


def is_inert(site: MockSite) -> bool:
    """A spec'd double that nobody configures or asserts on: an inert collaborator."""
    if not site.spec_only or site.configured or site.escapes or site.injected:
        return False
    keys: set[str] = set()
    context: Context | None = site.owner
    while context is not None:
        keys.update(key for key, sites in context.bound.items() if site in sites)
        context = context.parent
    if _used_through_its_holder(site, keys):
        return False
    if not keys:
        return True
    where = site.owner
    if any(key.startswith("self.") for key in keys) and where.parent is not None:
        where = where.parent
        if _mentioned_outside(where, {key.split(".")[1] for key in keys if key.startswith("self.")}):
            return False  # kept on an object other code may reach and configure
        if isinstance(where.node, ast.ClassDef) and not _has_tests(where.node):
            return False  # a base class of tests elsewhere (a fakes module's): theirs to configure, out of sight
    nodes = list(ast.walk(where.node))
    for node in nodes:  # ``for _, blob in pairs:``: each item of a container of doubles is one
        if isinstance(node, (ast.For, ast.AsyncFor)) and _iterated_key(node.iter) in keys:
            keys.update(root_key(name) or "" for name in ast.walk(node.target) if isinstance(name, ast.Name))
    aliases = _aliases(nodes, keys)

    def held(expr: ast.expr) -> bool:
        key = root_key(expr)
        return key in keys or any(first <= expr.lineno <= last for first, last in aliases.get(key or "", ()))

    # where the test puts the double (``self.controller._queue_ctrl = m``): configuring it there configures it
    placed = {
        ast.unparse(target) for node in nodes if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name)
        and node.value.id in keys for target in node.targets if isinstance(target, ast.Attribute)
    }
    for node in nodes:
        if isinstance(node, ast.Assign) and node.value is site.written:
            continue  # ``self.transport = Mock(spec=Transport)``: binding it is no configuring
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            if any(
                isinstance(t, (ast.Attribute, ast.Subscript)) and (held(t) or _hangs_from(t.value, placed))
                for t in targets
            ):
                return False
        elif isinstance(node, ast.Attribute) and node.attr in MOCK_USE_ATTRIBUTES:
            if held(node.value) or _hangs_from(node.value, placed):
                return False
    return True


def _aliases(nodes: list[ast.AST], keys: set[str]) -> dict[str, list[tuple[int, int]]]:
    """The other names functions among ``nodes`` give a double held by one of
    ``keys`` (``deployer = self.deployer``), each with the lines of the
    function where it holds the double (the innermost around the binding)."""
    bound = [node for node in nodes if isinstance(node, ast.Assign) and _is_a_key(node.value, keys)]
    if not bound:
        return {}
    spans = sorted(
        ((node.lineno, node.end_lineno or node.lineno) for node in nodes
         if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))),
        key=lambda span: span[1] - span[0],
    )
    found: dict[str, list[tuple[int, int]]] = {}
    for node in bound:
        span = next(((first, last) for first, last in spans if first <= node.lineno <= last), None)
        if span is not None:
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found.setdefault(target.id, []).append(span)
    return found


def _used_through_its_holder(site: MockSite, keys: set[str]) -> bool:
    """Whether the double, handed to a call as a keyword argument (itself or
    a name bound to it: ``Runner(manifest=create_autospec(Manifest))``) or
    by a name bound to it (``Manager(scheduler_)``), is configured or asserted
    on anywhere in the module through an attribute of that name, leading and
    trailing underscores aside (``runner.manifest.notify.assert_called_once_with(...)``,
    as nox 2026.10.20's ``test_notify`` does; ``manager._scheduler.shutdown.return_value``,
    google-cloud-pubsub 2.44.0's): the object it was handed to keeps it there. Searched in the test making it, or in the whole module when a
    helper makes it and returns something (the holder, to its callers)."""
    calls = [node for node in walk(site.owner.node) if isinstance(node, ast.Call)]
    handed_as = {
        keyword.arg for call in calls for keyword in call.keywords
        if keyword.arg is not None and (keyword.value is site.written or root_key(keyword.value) in keys)
    } | {  # handed by position: the holder keeps it under a name like the one it had (``Manager(scheduler_)``)
        argument.id for call in calls for argument in call.args
        if isinstance(argument, ast.Name) and argument.id in keys
    }
    handed_as = {name.strip("_") for name in handed_as if name.strip("_")}  # ``_scheduler`` keeps ``scheduler=``
    if not handed_as:
        return False
    searched = site.owner
    if any(isinstance(node, ast.Return) and node.value is not None for node in walk(site.owner.node)):
        while searched.parent is not None:
            searched = searched.parent
    for node in walk(searched.node):
        used = node.value if isinstance(node, ast.Attribute) and node.attr in MOCK_USE_ATTRIBUTES else None
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            used = next((t.value for t in targets if isinstance(t, (ast.Attribute, ast.Subscript))), None)
        while isinstance(used, (ast.Attribute, ast.Subscript, ast.Call)):
            if isinstance(used, ast.Attribute) and used.attr.strip("_") in handed_as and used is not node:
                return True
            used = used.func if isinstance(used, ast.Call) else used.value
    return False


def _has_tests(cls: ast.ClassDef) -> bool:
    """Whether the class defines a test of its own (a ``test*`` method)."""
    return any(
        isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test") for node in cls.body
    )


def _mentioned_outside(cls: Context, attributes: set[str]) -> bool:
    """Whether code of the module outside the class ``cls`` names any of
    ``attributes`` (a subclass's test, a test using a helper object)."""
    root = cls
    while root.parent is not None:
        root = root.parent
    pending = [root]
    while pending:
        context = pending.pop()
        if context is cls:
            continue
        if context.names & attributes and _reads_attribute(context.node, cls.node, attributes):
            return True
        pending.extend(context.children)
    return False


def _reads_attribute(node: ast.AST, skipped: ast.AST, attributes: set[str]) -> bool:
    """Whether ``node`` (outside ``skipped``) has an ``x.attribute`` of ``attributes``."""
    pending = [node]
    while pending:
        current = pending.pop()
        if current is skipped:
            continue
        if isinstance(current, ast.Attribute) and current.attr in attributes:
            return True
        pending.extend(child_nodes(current))
    return False


def _iterated_key(expr: ast.expr) -> str | None:
    """The name a loop goes over: ``pairs`` in ``pairs``, ``enumerate(pairs)``, ``pairs.items()``."""
    if isinstance(expr, ast.Call):
        if isinstance(expr.func, ast.Attribute) and not expr.args:
            expr = expr.func.value
        elif len(expr.args) == 1:
            expr = expr.args[0]
    return root_key(expr) if isinstance(expr, (ast.Name, ast.Attribute)) else None


def _hangs_from(expr: ast.expr, places: set[str]) -> bool:
    """Whether ``expr`` is one of ``places`` or an attribute or item of one."""
    if not places:
        return False
    while True:
        if ast.unparse(expr) in places:
            return True
        if isinstance(expr, (ast.Attribute, ast.Subscript)):
            expr = expr.value
        else:
            return False


def _an_interface(analysis: Analysis, site: MockSite, target: Target) -> bool:
    """Whether ``target`` is a ``typing.Protocol`` that ``site`` uses as a spec:
    a protocol is a type with no code of its own to exercise, so a double made
    to its shape is what a test of its users needs."""
    value = target.value
    return site.spec_only and value.kind is Kind.CLASS and value.cls is not None \
        and analysis.resolver.is_protocol(value.cls)


def _boundary_objects(analysis: Analysis, targets: list[Target]) -> set[str] | None:
    """The objects (classes, or the classes of instances) whose members the
    targets are: a declared boundary is an object, so mocks of several methods of
    one client are one boundary. None when a target is no member of such an object."""
    found: set[str] = set()
    for target in targets:
        owner_text = target.text.rpartition(".")[0]
        base = target.base if target.base is not None else analysis.resolver.resolve_dotted(owner_text)
        if base.kind not in (Kind.CLASS, Kind.INSTANCE) or base.cls is None:
            return None
        found.add(f"{base.cls.module}.{base.cls.qualname}")
    return found


def check(analysis: Analysis) -> Iterator[Finding]:
    sites = analysis.module.sites
    annotations = {
        id(site): analysis.annotations.find("boundary", site.call.lineno, site.call.end_lineno or site.call.lineno)
        for site in sites
    }
    declared: dict[str, set[str]] = {}  # owner -> the objects of its first declared boundary
    for site in sites:
        annotation = annotations[id(site)]
        if annotation is not None and annotation.reason and analysis.first_party_targets(site):
            members_of = _boundary_objects(analysis, analysis.first_party_targets(site)) or set()
            first = declared.setdefault(site.owner.qualname, set(members_of))
            if first & members_of:
                first.update(members_of)
    boundaries: dict[str, list[set[str] | None]] = {}
    for site in sites:
        call = site.call
        annotation = annotations[id(site)]
        owner = site.owner.qualname
        if annotation is not None and not annotation.reason:
            analysis.reasonless.append(analysis.finding(
                call,
                ANNOTATION_WITHOUT_REASON.symbol,
                "This '# mock-boundary:' annotation gives no reason; say why this mock is the "
                "test's one boundary (e.g. '# mock-boundary: the payment API cannot run here').",
                owner,
            ))
            continue
        targets = [t for t in analysis.first_party_targets(site) if not _an_interface(analysis, site, t)]
        if not targets or (is_inert(site) and not analysis.assigned_over(site)) or never_installed(site):
            continue
        objects = _boundary_objects(analysis, targets)
        if annotation is None and objects and objects <= declared.get(owner, set()):
            continue  # another member of the object the test declared as its boundary
        if annotation is not None:
            seen = boundaries.setdefault(owner, [])
            if objects is None or not any(known is not None and objects & known for known in seen):
                seen.append(objects)  # a new boundary, not another member of one already declared
            if len(seen) > 1 and seen[-1] is objects:
                yield analysis.finding(
                    call,
                    MULTIPLE_BOUNDARY_MOCKS.symbol,
                    f"'{owner or '<module>'}' already has a '# mock-boundary:' mock; a test may declare "
                    "one boundary, so exercise this first-party code for real.",
                    owner,
                )
            continue
        yield analysis.finding(call, FIRST_PARTY_MOCK.symbol, _message(analysis, site, targets), owner)


_NAMED_OTHERS = 2  # the other targets of a site (``parametrize``d) a message names; more are counted


def _message(analysis: Analysis, site: MockSite, targets: list[Target]) -> str:
    first = targets[0]
    others = list(dict.fromkeys(target.value.qualname or target.text for target in targets[1:]))
    if first.value.qualname in others:
        others.remove(first.value.qualname)  # the same code again (a class inheriting the method)
    if len(others) > _NAMED_OTHERS:
        more = f" (and {len(others)} more)"
    else:
        more = "".join(f" (and {' and '.join(others)})" for _ in others[:1])
    if site.spec_only and not site.targets and analysis.assigned_over(site):
        lead = f"'{first.text}' is the first-party {describe(analysis, first)}, and the test assigns a mock over it"
    elif site.spec_only and not site.targets:  # a double wrapping ``first``, given answers in its place
        lead = (f"'{first.text}' is wrapped by a double the test gives answers of its own, so it stands in "
                f"for the first-party {describe(analysis, first)}")
    elif site.spec_only:
        lead = f"'{first.text}' used as a spec makes a stand-in for the first-party {describe(analysis, first)}"
    else:
        via = f" (patched by the helper {site.helper.rpartition('.')[2]}())" if site.helper else ""
        lead = f"'{first.text}'{via}{more} is the first-party {describe(analysis, first)}"
    return (
        f"{lead}: a mock of your own code tests a fiction that stays green when the real code "
        "breaks. Exercise the real code, or declare this test's one boundary mock with "
        "'# mock-boundary: <reason>'."
    )


FAMILY = Family("first-party", (FIRST_PARTY_MOCK, MULTIPLE_BOUNDARY_MOCKS), check, MOCK_WORDS)
