"""The mocks a ``# mock-partial:`` block is about: each mock with a block
directly above it, and each partial mock without one (a mock giving its
caller fewer outcomes than its real target), with what it gives and leaves
out. Shared by the ``partial-mocks`` rules and ``mockpolicy branches``."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field

from mockpolicy.analysis import Analysis
from mockpolicy.functions import FunctionNode, own_nodes, walk
from mockpolicy.outcomes import (
    AN_EXCEPTION,
    MOCK_VALUE,
    NONE,
    TRUE,
    VALUE,
    Outcome,
    exception_name,
    fixed_outcome,
    function_outcomes,
    looks_like_a_class,
    named_like_an_exception,
    parameter_names,
)
from mockpolicy.partials import Block, parse_blocks
from mockpolicy.sites import Context, MockSite, Target, root_key
from mockpolicy.symbols import Kind, Scope, Value
from mockpolicy.telling import (
    Reach,
    Withheld,
    configured_out_of_sight,
    parametrized_outcomes,
    reach_of,
    reaches_caller,
    runs_caller,
    set_up_reach,
    shapes_path,
    text_runs,
    told_apart,
)
from mockpolicy.vocabulary import (
    BEHAVIOUR_ATTRIBUTES,
    EXPECTING_CONTEXTS,
    MOCK_CLASSES,
    RETURN_VALUE,
    SETUP_NAMES,
    SIDE_EFFECT,
    TEST_PREFIX,
    SiteKind,
    callee_name,
    is_fixture,
)

_TRY_STAR = getattr(ast, "TryStar", ast.Try)  # try/except* (3.11+)
_FUNCTION_SITES: frozenset[SiteKind] = frozenset({"patch", "patch.object", "setattr", "mock", "autospec"})
# Sites that put the mock in the real function's place, where its callers meet it
# (a double from Mock()/create_autospec() meets only the code it is handed to).
_INSTALLED_SITES: frozenset[SiteKind] = frozenset({"patch", "patch.object", "setattr"})


@dataclass
class Configuration:
    """What a test sets on one mock: every ``return_value`` and ``side_effect``
    given in the call, by assignment or by ``configure_mock``."""

    returns: list[ast.expr] = field(default_factory=list)
    side_effects: list[ast.expr] = field(default_factory=list)
    new_callable: bool = False


@dataclass(eq=False)
class PartialSite:
    """A mock with a block above it, or a partial mock without one: the mocked
    function (when known), what the mock gives and what it leaves out."""

    site: MockSite
    block: Block | None
    function: Value | None = None
    given: frozenset[Outcome] = frozenset()
    missing: list[Outcome] = field(default_factory=list)
    shown_name: str = ""
    withheld: list[Withheld] = field(default_factory=list)  # the arms of the code under test it keeps untaken


def blocks_of(analysis: Analysis) -> list[Block]:
    """The file's ``# mock-partial:`` blocks (text inside strings excluded)."""
    if "mock-partial" not in analysis.source:
        return []
    blocks = parse_blocks(analysis.annotations.lines)
    return _outside_strings(analysis, blocks) if blocks else []


def partial_sites(analysis: Analysis, blocks: list[Block]) -> Iterator[PartialSite]:
    """Every mock with a block directly above it, and every partial mock without one."""
    lines = analysis.annotations.lines
    by_opener = {block.line: block for block in blocks}
    configurations: dict[int, Configuration] | None = None
    candidates: list[tuple[MockSite, Value, frozenset[Outcome], frozenset[Outcome], Target]] = []
    unknown: set[tuple[int, str, str]] = set()
    mocked: list[tuple[MockSite, Value]] = []  # every mock of a function, with the function
    for site in analysis.module.sites:
        block = _block_above(lines, site.call.lineno, by_opener)
        if block is None and not _applies_to_tests_here(analysis, site.owner):
            continue
        function: Value | None = None
        target = site.targets[0] if site.kind in _FUNCTION_SITES and len(site.targets) == 1 else None
        if target is not None:
            function = _target_function(analysis, target.value)
        if block is not None:
            shown = _shown_name(target, function) if target is not None and function is not None else ""
            yield PartialSite(site, block, function, shown_name=shown)
            continue
        if target is None or function is None or function.function is None:
            continue
        if site.answers_unread:  # configured where this file does not say: it may give anything
            unknown.add((id(_unit(site.owner)), function.module, function.qualname))
            continue
        mocked.append((site, function))
        if configurations is None:
            configurations = _configurations(analysis)
        given = _mock_outcomes(analysis, site, target, configurations.get(id(site), Configuration()))
        if given is None and not _never_configured(site, configurations.get(id(site))):
            # a mock of the function in the same test or class giving outcomes not listed
            # here (a side effect held in a variable, a helper's parameter) may take any arm
            unknown.add((id(_unit(site.owner)), function.module, function.qualname))
        if not given or not shapes_path(analysis, site):
            continue
        real = analysis.outcomes(function)
        if real is not None and len(real) >= 2:
            candidates.append((site, function, real, given, target))
    # Several mocks of one function in one test, or in the tests of one class,
    # together give the union of their outcomes: a sibling test takes the other arms.
    together: dict[tuple[int, str, str], set[Outcome]] = {}
    for site, function, _, given, _ in candidates:
        together.setdefault((id(_unit(site.owner)), function.module, function.qualname), set()).update(given)
    if candidates:
        unknown |= _configured_on_class_mocks(analysis)
    answers = _answers(analysis, configurations or {}) if candidates else _Answers()
    reaches: dict[int, Reach] = {}
    words: dict[int, frozenset[str]] = {}
    for site, function, real, given, target in candidates:
        owner = function.owner
        method = f"{owner.qualname}.{function.qualname.rpartition('.')[2]}" if owner is not None else ""
        units = _inheriting(analysis, _unit(site.owner))  # a base class's tests run in this class too
        if any(
            (id(unit), function.module, function.qualname) in unknown
            or (owner is not None and (id(unit), owner.module, method) in unknown)
            for unit in units
        ):
            continue
        union = frozenset().union(*(together.get((id(unit), function.module, function.qualname), ()) for unit in units))
        missing = left_out(real, union)
        if not missing or site.kind not in _INSTALLED_SITES:
            continue
        if configured_out_of_sight(analysis, site):
            continue
        dotted = frozenset({target.text, target.value.qualname, function.qualname})
        if id(site.owner) not in reaches:
            reaches[id(site.owner)] = reach_of(analysis, site.owner, words)
        unit = _unit(site.owner)
        set_ups = {id(child) for child in unit.children if child.name in SETUP_NAMES} if unit is not site.owner else set()
        replaced = frozenset(  # by the test itself, or for every test of its class by the class's set-up
            other.qualname for owner_site, other in mocked
            if (owner_site.owner is site.owner or id(owner_site.owner) in set_ups) and owner_site is not site
        )
        others = frozenset(answers.raised_by_test.get(id(site.owner), set()) - given)
        name = function.qualname.rpartition(".")[2]
        fixed = frozenset(
            (other, answer) for other, answer in answers.fixed_by_test.get(id(site.owner), set()) if other != name
        )
        nearby = frozenset(
            (other, exception)
            for unit in units
            for other, exception in answers.raised_by_unit.get(id(unit), set())
            if other != name
        )
        withheld = told_apart(
            analysis, site, function, dotted, union, missing, reaches[id(site.owner)], replaced, others, fixed,
            nearby, _inherited_on(analysis, target, function), _patched_in(analysis, target, function),
        )
        withheld = _not_run_for_real(site, function, withheld, mocked)
        withheld = _taken_by_siblings(analysis, site, function, withheld, words)
        if withheld:
            yield PartialSite(site, None, function, given, missing, _shown_name(target, function), withheld)


def _taken_by_siblings(
    analysis: Analysis, site: MockSite, function: Value, withheld: list[Withheld], words: dict[int, frozenset[str]],
) -> list[Withheld]:
    """``withheld`` without the arms a sibling test (of the same class; of the
    module, for test functions outside classes) takes or may take:

    - a test naming the arm's caller that shows the arm runs, however it gets
      there (the mock's own test too, through another source): it expects an
      exception only that arm raises, or spells a run of the arm's own words
      (a message it logs, prints or raises). Swift's
      ``test_validate_corrupted_file`` feeds a corrupt file to the real
      ``RingBuilder.load`` and checks ``main``'s handler's message. A test
      reaching the caller through other functions (``runs_caller``) shows it
      by a run of ``DISTINCT_TEXT`` characters of those words (taskflow's
      ``flow_from_detail`` test expecting ``'^Could not import factory'``);
    - an ``if``/``else`` arm whose caller a sibling calls or reaches
      (``runs_caller``: ``Parser()`` runs ``Parser.__init__``) with the
      function left real (the sibling mocks nothing named like it, and no set-up,
      fixture or class decorator of the unit does): the real function's
      answers may take it, and which they take cannot be told statically
      (magnum's ``load_app`` finds an existing file for real). A handler is
      not taken so: an exception needs arranging, which the first case sees."""
    if not withheld:
        return withheld
    unit = _unit(site.owner)
    units = _inheriting(analysis, unit)
    siblings = [
        sibling for inherited in units for sibling in inherited.children
        if sibling is not site.owner and _is_test_function(sibling)
    ]
    showing = [site.owner, *siblings]  # the test itself may take the arm through another source
    name = function.qualname.rpartition(".")[2]
    mocking = [other for other in analysis.module.sites if other.replaced_name == name and _unit(other.owner) in units]
    mocked_in = _tests_mocking(units, mocking, siblings)
    real: list[Context] = []
    set_up: Reach | None = None
    if mocked_in is not None:
        real = [sibling for sibling in siblings if id(sibling) not in mocked_in]
        # the set-up runs before a test's own patches start: the function is real there
        set_up = set_up_reach(analysis, _set_ups(analysis, unit), name)
    kept = []
    for held in withheld:
        caller = held.arm.caller.rpartition(".")[2]
        if held.shows and any(
            _shows_any(test, held, True) if caller in test.names
            else _shows_any(test, held, False) and runs_caller(analysis, test, held.arm.caller, function, words)
            for test in showing
        ):
            continue
        if held.arm.arm != "except" and (
            any(
                _calls_named(sibling, caller) or runs_caller(analysis, sibling, held.arm.caller, function, words)
                for sibling in real
            ) or (set_up is not None and reaches_caller(analysis, set_up, held.arm.caller, function))
        ):
            continue
        kept.append(held)
    return kept


def _tests_mocking(units: list[Context], mocking: list[MockSite], tests: list[Context]) -> set[int] | None:
    """The ids of the ``tests`` of a class (``units``: it and the classes it
    inherits tests from) that ``mocking`` (mocks of one function) apply to:
    made in the test, or in a helper method of the class the test calls by
    name (certbot's ``_test_prepare_locked``). None when one applies to
    every test: made in a set-up, a fixture or a class decorator."""
    found: set[int] = set()
    for other in mocking:
        owner: Context | None = other.owner
        while owner is not None and owner not in units and not _is_test_function(owner):
            if owner.parent in units:
                break
            owner = owner.parent
        if owner is None or owner in units:
            return None
        if _is_test_function(owner):
            found.add(id(owner))
            continue
        node = owner.node
        if not owner.is_function or owner.name in SETUP_NAMES or (
            isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and is_fixture(node.decorator_list)
        ):
            return None
        if any(child.name in SETUP_NAMES and owner.name in child.names for unit in units for child in unit.children):
            return None  # a helper the set-up calls
        found.update(id(test) for test in tests if owner.name in test.names)
    return found


def _set_ups(analysis: Analysis, unit: Context) -> list[tuple[FunctionNode, Scope]]:
    """The set-up methods that run for the tests of the class ``unit``, with
    where their names are looked up: its own, and those of its project base
    classes (another module's too) while each set-up calls the one above it
    (``super().setUp()``) or the class has none."""
    if unit.class_info is None:  # a module's setup_module/setup_function
        return [
            (child.node, analysis.module.scope(child)) for child in unit.children
            if isinstance(child.node, (ast.FunctionDef, ast.AsyncFunctionDef)) and child.name in SETUP_NAMES
        ]
    found: list[tuple[FunctionNode, Scope]] = []
    for cls in analysis.resolver.project_lineage(unit.class_info):
        scope = analysis.resolver.module_scope(cls.module)
        own = [
            binding.function for set_up, binding in cls.members.items()
            if set_up in SETUP_NAMES and binding.kind == "def" and binding.function is not None
        ]
        if scope is None:
            break
        found += [(function, scope) for function in own]
        if own and not any(
            callee_name(call) in SETUP_NAMES
            for function in own for call in ast.walk(function) if isinstance(call, ast.Call)
        ):
            break  # this set-up does not run its base's
    return found


def _applies_to_tests_here(analysis: Analysis, context: Context, depth: int = 0) -> bool:
    """Whether the mocks made in ``context`` apply to a test of its own file:
    it is a test or inside one, its class has tests of its own, it is a
    fixture of a file with tests, or a function of the file calling it by name
    (two calls up) does so. Certbot's ``get_apache_configurator`` and its
    ``ApacheTest.setUp`` serve tests in other files, whose siblings and the
    arms they take are not seen here."""
    current: Context | None = context
    while current is not None:
        if current.is_function and _is_test_function(current):
            return True
        if isinstance(current.node, ast.ClassDef):
            return any(_is_test_function(child) for child in current.children)
        current = current.parent
    if not context.is_function or depth >= 2:
        return False
    node = context.node
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and is_fixture(node.decorator_list):
        return any(_is_test_function(other) for other in analysis.module.contexts)  # requested by parameter
    return any(
        other is not context and other.is_function and context.name in other.names
        and _applies_to_tests_here(analysis, other, depth + 1)
        for other in analysis.module.contexts
    )


def _calls_named(test: Context, name: str) -> bool:
    """Whether ``test``'s own code calls a function by ``name`` (``load_app(...)``,
    ``self.handler.nodegroup_create(...)``) or hands it on to be called
    (``assertRaises(Error, self.handler.create, ...)``)."""
    for call in test.calls:
        if callee_name(call) == name:
            return True
        if any(callee_name(argument) == name for argument in call.args if isinstance(argument, (ast.Name, ast.Attribute))):
            return True
    return False


def _is_test_function(context: Context) -> bool:
    return context.is_function and context.name.startswith(TEST_PREFIX)


def _shows_any(test: Context, held: Withheld, names_the_caller: bool) -> bool:
    """Whether ``test`` shows the arm ``held`` ran: naming its caller, it
    expects an exception named in ``held.shows`` or spells a run of the arm's
    text; reaching it through other functions, it spells a run of
    ``DISTINCT_TEXT`` characters or more (taskflow's ``'^Could not import
    factory'``, through ``flow_from_detail``): an exception's name alone may
    come from elsewhere. A run the test spells longer than the arm's, that
    another string of the function holds whole, shows that other part."""
    shows = held.shows
    if names_the_caller:
        for call in test.calls:
            if callee_name(call) in EXPECTING_CONTEXTS and call.args:
                expected = call.args[0].elts if isinstance(call.args[0], ast.Tuple) else [call.args[0]]
                if any(callee_name(e) in shows for e in expected):
                    return True
    texts = [shown.strip(_RUN_ENDS) for shown in shows if " " in shown]  # the runs of words, not exceptions' names
    if not texts:
        return False
    runs = [run.strip(_RUN_ENDS) for string in test.strings for run in text_runs(string)]
    least = 0 if names_the_caller else DISTINCT_TEXT
    elsewhere = [other.strip(_RUN_ENDS) for other in held.elsewhere]
    return any(
        (run in shown or (shown in run and not any(run in other for other in elsewhere)))
        and min(len(run), len(shown)) >= least for run in runs for shown in texts
    )


DISTINCT_TEXT = 16  # characters of an arm's own words a test spells, to show it ran without naming its caller
_RUN_ENDS = " ^$:;,.!?'\""  # a regex's anchors and a sentence's punctuation around the words


def _patched_in(analysis: Analysis, target: Target, function: Value) -> str | None:
    """The module whose global the patch replaces, for a module-level function
    (``patch("app.base.run_default")``, ``patch.object(base, "run_default")``);
    None for a method or when the namespace cannot be told."""
    if function.owner is not None or "." not in target.text:
        return None
    namespace = target.base
    if namespace is None:
        namespace = analysis.resolver.resolve_dotted(target.text.rpartition(".")[0])
    return namespace.module if namespace.kind is Kind.MODULE else None


def _not_run_for_real(
    site: MockSite, function: Value, withheld: list[Withheld], mocked: list[tuple[MockSite, Value]],
) -> list[Withheld]:
    """``withheld`` without the arms whose caller the same test also calls
    where no mock of the function is active (outside the ``with`` blocks that
    patch it): the real function answers there and may take them (swift's
    ``test_parse_get_node_args`` first runs ``parse_get_node_args`` with the
    real ``os.path.exists``, then patches it). A test a decorator or a started
    patcher mocks it for throughout is left as it is."""
    if not withheld:
        return withheld
    same = [other for other, value in mocked if other.owner is site.owner and value.qualname == function.qualname]
    blocks = []
    for other in same:
        written = other.written
        block = next(
            (node for node in ast.walk(site.owner.node) if isinstance(node, (ast.With, ast.AsyncWith))
             and any(item.context_expr is written for item in node.items)),
            None,
        )
        if block is None:
            return withheld  # mocked for the whole test, or from a point on
        blocks.append(block)
    inside = {id(node) for block in blocks for statement in block.body for node in ast.walk(statement)}
    outside = {
        callee_name(node) for node in ast.walk(site.owner.node)
        if isinstance(node, ast.Call) and id(node) not in inside
    }
    return [held for held in withheld if held.arm.caller.rpartition(".")[2] not in outside]


@dataclass
class _Answers:
    """What the file's mocks give, whatever they replace: by test (the context
    owning the mocks), the exceptions its mocks raise, and the one outcome of
    each attribute (by name) its mocks make always raise or always return the
    same literal; by unit (``_unit``), each patched attribute's name, or the
    name of a double's attribute given a ``side_effect``
    (``driver.create.side_effect = Error()``), with an exception it raises."""

    raised_by_test: dict[int, set[Outcome]] = field(default_factory=dict)
    fixed_by_test: dict[int, set[tuple[str, Outcome]]] = field(default_factory=dict)
    raised_by_unit: dict[int, set[tuple[str, str]]] = field(default_factory=dict)


def _answers(analysis: Analysis, configurations: dict[int, Configuration]) -> _Answers:
    found = _Answers()
    for context in analysis.module.contexts:
        for statement in context.statements:
            if not isinstance(statement, ast.Assign):
                continue
            for target in statement.targets:
                raising = _raising_attribute(context, target, statement.value)
                if raising is not None:
                    found.raised_by_unit.setdefault(id(_unit(context)), set()).add(raising)
    for site in analysis.module.sites:
        configuration = configurations.get(id(site))
        if configuration is None:
            continue
        name = site.replaced_name
        if name and len(configuration.returns) == 1 and not configuration.side_effects:
            answer = fixed_outcome(configuration.returns[0])
            if answer != VALUE:
                found.fixed_by_test.setdefault(id(site.owner), set()).add((name, answer))
        if not configuration.side_effects:
            continue
        given: set[Outcome] = set()
        for effect in configuration.side_effects:
            given |= _side_effect_outcomes(analysis, site, _single_value(site.owner, effect), known_only=True) or set()
        raised = {outcome for outcome in given if outcome.kind == "raises"}
        if not raised:
            continue
        found.raised_by_test.setdefault(id(site.owner), set()).update(raised)
        if not name:
            continue
        found.raised_by_unit.setdefault(id(_unit(site.owner)), set()).update((name, o.value) for o in raised)
        if raised == given and not configuration.returns:
            found.fixed_by_test.setdefault(id(site.owner), set()).add((name, min(raised)))
    return found


def _raising_attribute(context: Context, target: ast.expr, value: ast.expr) -> tuple[str, str] | None:
    """The attribute of a double a test makes raise, with the exception:
    ``driver.create.side_effect = Error()`` and ``loaded.return_value.grow =
    Mock(side_effect=BadRequest)`` give ``("create", "Error")`` and
    ``("grow", "BadRequest")``. A class given as a double's side effect is
    taken for an exception it raises (a test of a handler rarely hands one a
    class to call)."""
    if not isinstance(target, ast.Attribute):
        return None
    name, effect = "", None
    if target.attr == SIDE_EFFECT and isinstance(target.value, ast.Attribute):
        name, effect = target.value.attr, _single_value(context, value)
    elif isinstance(value, ast.Call) and callee_name(value) in MOCK_CLASSES:
        name = target.attr
        effect = next((keyword.value for keyword in value.keywords if keyword.arg == SIDE_EFFECT), None)
    exception = exception_name(effect) if effect is not None else None
    if exception is None and isinstance(effect, ast.Name):
        exception = _raised_by_a_function(context, effect.id)
    return (name, exception) if exception is not None else None


def _raised_by_a_function(context: Context, name: str) -> str | None:
    """The first exception, by name, that the function ``name`` of the test
    (``context`` or a function around it) raises in its own body: a side
    effect called for each call (``def full(status): raise KeyError(status)``)."""
    current: Context | None = context
    while current is not None and current.is_function:
        function = current.functions.get(name)
        if function is not None:
            raised = (exception_name(node.exc) for node in own_nodes(function) if isinstance(node, ast.Raise) and node.exc)
            return next((exception for exception in raised if exception is not None), None)
        current = current.parent
    return None


def _inherited_on(analysis: Analysis, target: Target, function: Value) -> Value | None:
    """The class a patch replaces an inherited method on (``patch.object(L7PolicyRepository,
    "get")`` where ``get`` is ``BaseRepository.get``); None when the method is
    the class's own, or the class is not known."""
    if function.owner is None:
        return None
    base = target.base
    if base is None and "." in target.text:
        base = analysis.resolver.resolve_dotted(target.text.rpartition(".")[0])
    if base is None or base.kind is not Kind.CLASS or base.cls is None:
        return None
    defining_class = function.qualname.rpartition(".")[0]
    return None if f"{base.cls.module}.{base.cls.qualname}" == defining_class else base


def header_ends(analysis: Analysis) -> dict[int, int]:
    """For each line where a statement or decorator starts, the last line of
    what starts there: a statement's header (a simple statement's last line)
    or the decorator, continuation lines (backslashed or bracketed) included."""
    ends: dict[int, int] = {}
    for node in ast.walk(analysis.module.module.node):
        if isinstance(node, ast.stmt):
            ends[node.lineno] = max(ends.get(node.lineno, 0), _header_end(node))
        for decorator in getattr(node, "decorator_list", []):
            ends[decorator.lineno] = max(ends.get(decorator.lineno, 0), decorator.end_lineno or decorator.lineno)
    return ends


def mocks_below(analysis: Analysis, line: int, ends: dict[int, int]) -> tuple[list[MockSite], int]:
    """The mocks a block ending directly above ``line`` could be about, and the
    last line of what starts there (``ends``: ``header_ends``; a line inside
    brackets stands alone). A mock made inside another's call
    (``patch(..., new=Mock())``) is part of it. Two or more make the block's
    placement ambiguous; one starting below ``line`` is not directly below it."""
    end = ends.get(line, line)
    written = {id(site.written): site for site in analysis.module.sites if line <= site.written.lineno <= end}
    inner = {id(node) for site in written.values() for node in ast.walk(site.written) if node is not site.written}
    return sorted((site for key, site in written.items() if key not in inner), key=lambda s: s.line), end


def _header_end(node: ast.stmt) -> int:
    """The last line of a statement's header (of a simple statement: its last line)."""
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return max(item.optional_vars.end_lineno or 0 if item.optional_vars is not None
                   else item.context_expr.end_lineno or 0 for item in node.items)
    if isinstance(node, (ast.If, ast.While)):
        return node.test.end_lineno or node.lineno
    if isinstance(node, (ast.For, ast.AsyncFor)):
        return node.iter.end_lineno or node.lineno
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Try, ast.Match, _TRY_STAR)):
        return node.lineno
    return node.end_lineno or node.lineno


def _inheriting(analysis: Analysis, unit: Context) -> list[Context]:
    """``unit`` and the test classes of its file it inherits from (nearest
    first): their tests run again in ``unit`` (tacker's
    ``TestControllerPolicy(TestController)``)."""
    found = [unit]
    for current in found:
        node = current.node
        if not isinstance(node, ast.ClassDef):
            continue
        for base in node.bases:
            if isinstance(base, ast.Name):
                found += [
                    other for other in analysis.module.contexts
                    if other.name == base.id and isinstance(other.node, ast.ClassDef) and other.parent is current.parent
                    and other not in found
                ]
    return found


def _unit(context: Context) -> Context:
    """The test class ``context`` belongs to; for code outside any class (a
    pytest test function or fixture), its module: the module's test
    functions are siblings as a class's tests are."""
    current = context
    while current.parent is not None and not isinstance(current.node, ast.ClassDef):
        current = current.parent
    return current


def _outside_strings(analysis: Analysis, blocks: list[Block]) -> list[Block]:
    """``blocks`` minus those that are text inside a multi-line string."""
    spans = [
        (node.lineno, node.end_lineno)
        for node in ast.walk(analysis.module.module.node)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and node.end_lineno is not None and node.end_lineno > node.lineno
    ]
    return [b for b in blocks if not any(start < b.line <= end for start, end in spans)]


def _block_above(lines: list[str], line: int, by_opener: dict[int, Block]) -> Block | None:
    """The block in the run of comment lines directly above ``line``."""
    if not by_opener:
        return None
    number = line - 1
    while number >= 1 and lines[number - 1].lstrip().startswith("#"):
        if number in by_opener:
            return by_opener[number]
        number -= 1
    return None


def _target_function(analysis: Analysis, value: Value) -> Value | None:
    if value.kind is Kind.FUNCTION:
        return value
    if value.kind is Kind.EXTERNAL and value.qualname:
        return analysis.libraries.function(value.qualname)
    return None


def _configurations(analysis: Analysis) -> dict[int, Configuration]:
    """Every site's configuration, from the call's keywords and from
    ``m.return_value = ...``, ``m.side_effect = ...`` and ``m.configure_mock(...)``
    wherever a name bound to the mock is in scope."""
    module = analysis.module
    found: dict[int, Configuration] = {}
    for site in module.sites:
        configuration = found.setdefault(id(site), Configuration())
        _add_keywords(configuration, site.call.keywords)
    for context in (module.module, *module.contexts):
        for statement in context.statements:
            if not isinstance(statement, ast.Assign):
                continue
            for target in statement.targets:
                if isinstance(target, ast.Attribute) and target.attr in BEHAVIOUR_ATTRIBUTES:
                    value = _single_value(context, statement.value)
                    if target.attr == RETURN_VALUE and not (
                        isinstance(value, ast.Constant) and _stored_once(context, statement.value)
                    ):
                        value = statement.value  # a local holding an object: the object, whatever it becomes
                    for site in _sites_named(analysis, context, target.value):
                        _add(found.setdefault(id(site), Configuration()), target.attr, value)
        for call in context.calls:
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr == "configure_mock":
                for site in _sites_named(analysis, context, func.value):
                    _add_keywords(found.setdefault(id(site), Configuration()), call.keywords)
    return found


def _configured_on_class_mocks(analysis: Analysis) -> set[tuple[int, str, str]]:
    """The methods configured on mocks of their whole class (``cmd =
    patch.object(ip_lib, "NetnsCommand"); cmd.exists.return_value = True``),
    each with the test or class doing so: outcomes given there are not listed
    here, so a mock of the same method nearby is not judged."""
    module = analysis.module
    found: set[tuple[int, str, str]] = set()
    for context in (module.module, *module.contexts):
        for statement in context.statements:
            if not isinstance(statement, ast.Assign):
                continue
            for target in statement.targets:
                if not (isinstance(target, ast.Attribute) and target.attr in BEHAVIOUR_ATTRIBUTES):
                    continue
                configured = target.value
                while isinstance(configured, ast.Attribute) and configured.attr == RETURN_VALUE:
                    configured = configured.value  # cls.return_value.method: the instances' method
                if not isinstance(configured, ast.Attribute):
                    continue
                key = root_key(configured.value)
                for site in module.mocks_bound(context, key) if key else []:
                    replaced = site.targets[0].value if len(site.targets) == 1 else None
                    if replaced is not None and replaced.kind is Kind.CLASS and replaced.cls is not None:
                        method = f"{replaced.cls.qualname}.{configured.attr}"
                        found.add((id(_unit(context)), replaced.cls.module, method))
    return found


def _never_configured(site: MockSite, configuration: Configuration | None) -> bool:
    """A spec'd double nobody configures: it may never be called, it gives nothing."""
    return site.spec_only and (configuration is None or not (configuration.returns or configuration.side_effects))


def _stored_once(context: Context, value: ast.expr) -> bool:
    """Whether ``value`` is a name that ``context`` binds once, by any form of
    binding (``=``, ``+=``, ``for``, ``with ... as``, ``:=``)."""
    if not isinstance(value, ast.Name):
        return False
    stores = sum(
        1 for node in walk(context.node)
        if isinstance(node, ast.Name) and node.id == value.id and isinstance(node.ctx, ast.Store)
    )
    return stores == 1


def _single_value(context: Context, value: ast.expr) -> ast.expr:
    """What a local name assigned once holds (``exc = OSError(); m.side_effect = exc``), else ``value``."""
    if isinstance(value, ast.Name):
        assigned = context.assigns.get(value.id, [])
        if len(assigned) == 1:
            return assigned[0]
    return value


def _sites_named(analysis: Analysis, context: object, expr: ast.expr) -> list[MockSite]:
    """The sites whose mock ``expr`` is itself (``m`` or ``self.m``), not something it returns."""
    if not (isinstance(expr, ast.Name) or (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name))):
        return []
    key = root_key(expr)
    if key is None or (isinstance(expr, ast.Attribute) and not key.startswith("self.")):
        return []
    return analysis.module.mocks_bound(context, key)  # type: ignore[arg-type]


def _add_keywords(configuration: Configuration, keywords: list[ast.keyword]) -> None:
    for keyword in keywords:
        if keyword.arg in BEHAVIOUR_ATTRIBUTES:
            _add(configuration, keyword.arg, keyword.value)
        elif keyword.arg == "new_callable" or keyword.arg is None:
            configuration.new_callable = True  # what it makes is not known here


def _add(configuration: Configuration, attribute: str, value: ast.expr) -> None:
    if attribute == RETURN_VALUE:
        configuration.returns.append(value)
    elif not (isinstance(value, ast.Constant) and value.value is None):
        configuration.side_effects.append(value)


def _mock_outcomes(
    analysis: Analysis, site: MockSite, target: Target, configuration: Configuration
) -> frozenset[Outcome] | None:
    """The outcomes the mock gives its caller; None when they cannot be told."""
    if site.escapes or configuration.new_callable:
        return None  # configured where we cannot see, or made by another factory
    replacement = target.replacement
    if replacement is not None:
        return _replacement_outcomes(analysis, site, replacement)
    if site.spec_only and not (configuration.returns or configuration.side_effects):
        return None  # a spec'd double nobody configures may never be called
    outcomes: set[Outcome] = set()
    for effect in configuration.side_effects:
        effect_outcomes = _side_effect_outcomes(analysis, site, _single_value(site.owner, effect))
        if effect_outcomes is None:
            return None
        outcomes |= effect_outcomes
    for value in configuration.returns:
        values = parametrized_outcomes(site.owner, value)
        if values is None:
            return None  # a parameter whose values cannot be listed here
        outcomes |= values
    if not (configuration.returns or configuration.side_effects):
        outcomes.add(MOCK_VALUE)
    return frozenset(outcomes)


def _side_effect_outcomes(
    analysis: Analysis, site: MockSite, effect: ast.expr, known_only: bool = False
) -> set[Outcome] | None:
    """A literal list of results and exceptions, or one exception; None otherwise.
    An object of a class named like any other (``FakeResponse(500)``) is
    raised only if the class is an exception, which resolving it tells; when
    it cannot be told, the list's outcomes are unknown (None), or with
    ``known_only`` the item is left out. With ``known_only``, what a function
    of the tests gives (``_callable_outcomes``) counts too: what a sibling's
    mock raises through one; a mock given one is not judged."""
    if isinstance(effect, (ast.List, ast.Tuple)):
        outcomes: set[Outcome] = set()
        for item in effect.elts:
            if isinstance(item, ast.Starred):
                return None
            name = exception_name(item, raised=False)
            if name is None and looks_like_a_class(item):
                raised = _an_exception(analysis, site, item)
                if raised is None and known_only:
                    continue
                if raised is None:
                    return None  # an exception or an object returned: cannot tell
                name = exception_name(item) if raised else None
            outcomes.add(Outcome("raises", name) if name is not None else fixed_outcome(item))
        return outcomes
    name = exception_name(effect)
    if name is None or (
        exception_name(effect, raised=False) is None and _an_exception(analysis, site, effect) is False
    ):  # not raised: a class called for each result, an object, or a function of the tests
        called = _callable_outcomes(analysis, site, effect) if known_only else None
        return set(called) if called is not None else None
    return {Outcome("raises", name)}


_EXCEPTION_MODULES = frozenset({"exc", "exception", "exceptions", "error", "errors"})


def _an_exception(analysis: Analysis, site: MockSite, expr: ast.expr) -> bool | None:
    """Whether ``expr`` (a class, or a call making an object of it) is an
    exception: a class of the project or the tests deriving from one, or a
    library's class from a module of exceptions; None when that cannot be told."""
    if analysis.module.site_of(expr) is not None:
        return False  # a mock made in place (``MagicMock()``): returned
    made = expr.func if isinstance(expr, ast.Call) else expr
    value = analysis.resolver.evaluate(made, analysis.module.scope(site.owner))
    if value.kind is Kind.EXTERNAL:  # a library's class: its module's name tells (``glanceclient.exc``)
        return True if _EXCEPTION_MODULES & set(value.qualname.split(".")[:-1]) else None
    if value.kind is not Kind.CLASS or value.cls is None:
        return None
    resolver = analysis.resolver
    lineage = resolver.project_lineage(value.cls)
    for cls in lineage:  # the outside bases of the project classes decide
        scope = cls.bases_scope or resolver.module_scope(cls.module)
        if scope is None:
            return None
        for base in (resolver.evaluate(base_expr, scope) for base_expr in cls.bases):
            if base.kind is Kind.CLASS and any(base.cls is known for known in lineage):
                continue
            last = base.qualname.rpartition(".")[2]
            if base.kind is not Kind.EXTERNAL:
                return None
            if last != "object":
                return named_like_an_exception(last) or None
    return False


def _replacement_outcomes(analysis: Analysis, site: MockSite, replacement: ast.expr) -> frozenset[Outcome] | None:
    """What a hand-made replacement gives: a lambda or function whose results
    do not depend on its arguments, or a mock made in place."""
    inner = analysis.module.site_of(replacement)
    if inner is not None:
        configuration = Configuration()
        _add_keywords(configuration, inner.call.keywords)
        if configuration.new_callable or not (configuration.returns or configuration.side_effects):
            return None
        effects = [_side_effect_outcomes(analysis, site, _single_value(site.owner, e)) for e in configuration.side_effects]
        if any(e is None for e in effects):
            return None
        outcomes = {o for e in effects if e for o in e}
        outcomes.update(fixed_outcome(value) for value in configuration.returns)
        return frozenset(outcomes)
    return _callable_outcomes(analysis, site, replacement)


def _callable_outcomes(analysis: Analysis, site: MockSite, expr: ast.expr) -> frozenset[Outcome] | None:
    """What the lambda or function ``expr`` names gives when called, when that
    does not depend on its arguments (a replacement, or a ``side_effect``
    called for each call: ``def full(status): raise KeyError(status)``)."""
    if isinstance(expr, ast.Lambda):
        parameters = parameter_names(expr.args)
        if _reads(expr.body, parameters):
            return None
        return frozenset({fixed_outcome(expr.body)})
    if isinstance(expr, ast.Name):
        value = analysis.resolver.evaluate(expr, analysis.module.scope(site.owner))
        function = value.function if value.kind is Kind.FUNCTION else None
        if function is None:
            return None
        parameters = parameter_names(function.args)
        returns = [node.value for node in ast.walk(function) if isinstance(node, ast.Return) and node.value is not None]
        if any(_reads(value_expr, parameters) for value_expr in returns):
            return None
        if any(isinstance(node, (ast.If, ast.While, ast.For, ast.Try, ast.IfExp, ast.Match)) for node in ast.walk(function)):
            return None  # a fake with its own logic: its outcomes are its own business
        return function_outcomes(function)
    return None


def _reads(expr: ast.AST, names: set[str]) -> bool:
    return any(isinstance(node, ast.Name) and node.id in names for node in ast.walk(expr))


def left_out(real: frozenset[Outcome], given: frozenset[Outcome]) -> list[Outcome]:
    """The outcomes of ``real`` that the mock's outcomes ``given`` cannot produce;
    empty when the mock is not partial. A result the mock returns that is not
    one of the target's literals stands for the target's 'a value' outcome when
    it has one, and for at most one of its outcomes otherwise; an unconfigured
    MagicMock stands for ``True``, else 'a value', else the target's only result."""
    covered: set[Outcome] = set(given & real)
    unmatched = 0
    for outcome in sorted(given - real):  # in one order, whatever the hash seed
        if outcome.kind == "raises":
            # an exception not known by name stands for one of the target's, one not given by name first
            matches = sorted(
                (o for o in real if o.kind == "raises" and AN_EXCEPTION in (o.value, outcome.value)),
                key=lambda o: (o in covered, o),
            )
            covered.update(matches[:1])
        elif outcome == MOCK_VALUE and TRUE in real:
            covered.add(TRUE)  # a MagicMock is truthy
        elif VALUE in real and outcome != NONE:
            covered.add(VALUE)
        elif outcome == MOCK_VALUE and len(returns := [o for o in real if o.kind == "returns"]) == 1:
            covered.add(returns[0])  # stands for the one result, e.g. a procedure's None
        else:
            unmatched += 1
    missing = sorted(real - covered, key=lambda o: (o.kind == "raises", o.value))
    if len(covered) + unmatched >= len(real):
        return []
    return missing


def _shown_name(target: Target, function: Value) -> str:
    """The name the test wrote when it is a dotted path, else where the function is defined."""
    return target.text if all(part.isidentifier() for part in target.text.split(".")) else function.qualname
