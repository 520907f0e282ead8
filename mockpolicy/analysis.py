"""The rule API: what a rule family's ``check(analysis)`` receives, and how a
family declares itself.

An ``Analysis`` is one parsed file with everything its rules share (mock
sites, annotations, the resolver). It lives for one file; what outlives it
(the symbol index, outcomes of project and library functions) belongs to
the engine that made it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mockpolicy.annotations import Annotations
from mockpolicy.bodies import NOTHING, reading_once
from mockpolicy.deps import UNREADABLE, Deps, Tracker, digest
from mockpolicy.findings import Finding
from mockpolicy.fixtures import fixture_name
from mockpolicy.functions import TRY_STATEMENTS, FunctionNode, dotted_parts, is_none, own_nodes, statements, walk
from mockpolicy.helpers import MOCKING_WORDS, OPAQUE
from mockpolicy.libraries import Libraries
from mockpolicy.outcomes import VALUE, Outcome, function_outcomes
from mockpolicy.resolve import Resolver
from mockpolicy.rules import ANNOTATION_WITHOUT_REASON, Rule
from mockpolicy.sites import Context, MockSite, Target, TestModule, root_key
from mockpolicy.source import Lines, SourceError, read_source, segment
from mockpolicy.subclasses import Subclasses
from mockpolicy.symbols import ClassInfo, Kind, ModuleInfo, Scope, Value, class_of
from mockpolicy.vocabulary import RETURN_VALUE, SETUP_NAMES, SIDE_EFFECT, callee_name, is_fixture

# What a project's logger class derives from (``logging.getLoggerClass()`` as a base too).
_LOGGER_CLASSES = frozenset({"logging.Logger", "logging.RootLogger", "logging.LoggerAdapter", "logging.getLoggerClass()"})


class Memo:
    """What an engine remembers across files: source lines and outcomes of the
    functions mocks replace. Only modules the engine's index holds for its
    whole life (never the file under analysis) are remembered here."""

    def __init__(
        self, tracker: Tracker | None = None, kept: Callable[[Path], tuple[Lines, str] | None] = lambda path: None,
    ) -> None:
        """``kept``: the lines of a file someone else holds already, with the
        digest of their bytes (``ModuleIndex.text``), used instead of a copy."""
        self.tracker = tracker or Tracker()
        self._kept = kept
        self._sources: dict[Path, Lines | None] = {}
        self._digests: dict[Path, str] = {}  # of the bytes ``lines`` read
        self._passed_over: set[Path] = set()  # read once and not kept (``lines(keep=False)``)
        self._outcomes: dict[int, tuple[FunctionNode, frozenset[Outcome] | None]] = {}
        # (function, its class) -> what ``Analysis._returned_calls`` found, with what it read
        self.returned_calls: dict[tuple[int, int], tuple[list[Value], Deps]] = {}
        # What ``mockpolicy.telling`` reads once per engine: the project's source
        # files, their text and trees, the callers of each mocked function.
        self.extra: dict[object, object] = {}

    def lines(self, path: Path, keep: bool = True) -> Lines | None:
        """The text and lines of ``path`` (UTF-8, undecodable bytes replaced;
        None when unreadable), read once; ``keep=False`` for a text read once
        and not needed again (a scan of every source file): it is not kept."""
        dep = ("r", "", str(path))
        if path in self._sources:
            self.tracker.note(dep)
            return self._sources[path]
        kept = self._kept(path)
        if kept is not None:
            lines, self._digests[path] = kept
            self.tracker.observe(dep, kept[1])
            self._sources[path] = lines
            return lines
        found: Lines | None
        try:
            data = read_source(path)
        except (SourceError, OSError):
            found = None
            self.tracker.observe(dep, UNREADABLE)
        else:
            found = Lines(data.decode("utf-8", errors="replace"))
            self._digests[path] = digest(data)
            self.tracker.observe(dep, self._digests[path])
        if keep or found is None:
            self._sources[path] = found
        else:
            self._passed_over.add(path)
        return found

    def digest(self, path: Path) -> str | None:
        """The digest of the bytes ``lines`` read from ``path`` (None before, or unreadable)."""
        return self._digests.get(path)

    def read(self) -> list[Path]:
        """The files ``lines`` read (for the speed benchmark's floor)."""
        return [path for path, lines in self._sources.items() if lines is not None] + sorted(
            self._passed_over - self._sources.keys())

    def outcomes(self, function: FunctionNode, lines: Sequence[str] | None) -> frozenset[Outcome] | None:
        """``function_outcomes`` of a function of a long-lived module; ``lines``
        must be that module's lines (or None), the same on every call."""
        known = self._outcomes.get(id(function))
        if known is None:  # the node is held with its result, so its id is never reused
            done = reading_once(function)  # outcomes are plain data: a body parsed for them is dropped again
            known = self._outcomes[id(function)] = (function, function_outcomes(function, lines))
            done()
        return known[1]


def _as_the_test_sees(set_up: Context, text: str) -> list[str]:
    """How a test names what the set-up ``set_up`` replaced as ``text``: a set-up
    method's ``self.api.rpc`` as it is; a fixture's own local, which it returns
    or yields (``made.transport`` after ``return made``), by the fixture's name
    (``pipeline.transport``), as the tests requesting it receive it; another
    local of a fixture not at all."""
    node = set_up.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return [text]
    name = fixture_name(node)
    if name is None:
        return [text]
    root, dot, rest = text.partition(".")
    if root in ("self", "cls"):
        return [text]
    handed = {
        inner.value.id for inner in own_nodes(node)
        if isinstance(inner, (ast.Return, ast.Yield)) and isinstance(inner.value, ast.Name)
    }
    return [f"{name}{dot}{rest}"] if root in handed else []


def _returns(function: FunctionNode) -> int:
    """How many ``return`` statements ``function``'s own body holds."""
    done = reading_once(function)
    count = sum(isinstance(node, ast.Return) for node in own_nodes(function))
    done()
    return count


def _active_lines(site: MockSite, decorated: dict[int, dict[int, ast.AST]]) -> tuple[int, int]:
    """The lines where ``site``'s replacement is in place: the definition it
    decorates (``decorated`` remembers the definitions of each context's
    decorator calls), the body of the ``with`` that enters it, else from the site
    to the end of its function."""
    line = site.call.lineno
    definitions = decorated.get(id(site.owner))
    if definitions is None:
        definitions = decorated[id(site.owner)] = {
            id(decorator): node for node in [site.owner.node, *statements(site.owner.node)]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) for decorator in node.decorator_list
        }
    definition = definitions.get(id(site.written))
    if definition is not None:
        return getattr(definition, "lineno", line), getattr(definition, "end_lineno", None) or line
    for statement in site.owner.statements:
        if isinstance(statement, (ast.With, ast.AsyncWith)) and any(
            item.context_expr is site.call for item in statement.items
        ):
            return line, statement.end_lineno or line
    return line, getattr(site.owner.node, "end_lineno", None) or line


def set_ups_of(context: Context, known: dict[int, list[Context]] | None = None) -> list[Context]:
    """The set-up methods and fixtures of the test's class, and the module-level
    set-ups and fixtures: what runs before the test and may patch for it.
    ``known`` remembers each enclosing context's set-ups, for the file's other tests."""
    known = {} if known is None else known
    found: list[Context] = []
    current = context.parent
    while current is not None:
        set_ups = known.get(id(current))
        if set_ups is None:
            set_ups = known[id(current)] = [
                other for other in current.children
                if isinstance(other.node, (ast.FunctionDef, ast.AsyncFunctionDef))
                and (other.name in SETUP_NAMES or is_fixture(other.node.decorator_list))
            ]
        found.extend(other for other in set_ups if other is not context)
        current = current.parent
    return found


MAX_DELEGATION = 2  # how many calls deep ``Analysis.outcomes`` follows a returned call


@dataclass(eq=False)
class Analysis:
    """Everything the rules of one file share."""

    path: str
    source: str
    module: TestModule
    resolver: Resolver
    annotations: Annotations
    libraries: Libraries
    memo: Memo = field(default_factory=Memo)
    subclasses: Subclasses | None = None  # the engine's; made for this file when not given
    first_party: dict[int, list[Target]] = field(default_factory=dict)
    # id(context) -> (first line, last line, text): where its mock sites' stand-ins are in place
    _replaced: dict[int, list[tuple[int, int, str]]] | None = None
    _set_ups: dict[int, list[Context]] = field(default_factory=dict)  # id(context) -> set_ups_of(context)
    _set_ups_by_parent: dict[int, list[Context]] = field(default_factory=dict)  # for set_ups_of
    # id(function of this file) -> (the function, its outcomes)
    _own_outcomes: dict[int, tuple[FunctionNode, frozenset[Outcome] | None]] = field(default_factory=dict)
    helpers: set[str] | None = None  # functions of the module that assert (for tautology)
    imports: frozenset[str] | None = None  # what the file imports (telling.file_imports), once per file
    # ids of the site calls, and of the nodes naming only what they patch (telling.usage), once per file
    mocking_nodes: tuple[frozenset[int], frozenset[int]] | None = None
    # Reason-less annotations found while other families decided: ``annotations`` reports them.
    reasonless: list[Finding] = field(default_factory=list)
    _answered: dict[int, int] | None = None  # id(site) -> how deep its double is given answers (``answered_later``)
    _answers: dict[tuple[int, str], list[ast.expr]] | None = None  # (id(site), attribute) -> values assigned it
    _assigned: dict[int, ast.Attribute] | None = None  # id(call) -> the attribute it is assigned to (``assigned_over``)

    def known_subclasses(self) -> Subclasses:
        if self.subclasses is None:
            self.subclasses = Subclasses(self.resolver)
        return self.subclasses

    def first_party_targets(self, site: MockSite) -> list[Target]:
        """The targets of ``site`` that are the project's own code under test
        (not its tests' fakes and helpers), replaced by a stand-in (not by
        another real object of the project)."""
        key = id(site)
        if key not in self.first_party:
            project = self.resolver.project
            spying = site.is_spy and not self.answered_later(site)
            self.first_party[key] = [] if spying else [
                t for t in site.targets or self._wrapped(site) or self.assigned_over(site)
                if self.resolver.is_first_party(t.value) and project.is_code_under_test(t.value.module)
                and not self._settings_module(t.value) and not self._a_logger(t.value)
                and not self._real_swap(site, t) and not self.on_a_mock(site, t) and not self._maybe_a_test_double(t)
            ]
        return self.first_party[key]

    def _maybe_a_test_double(self, target: Target) -> bool:
        """Whether ``target`` is an attribute of an object typed only by an
        annotation (``Bot.request -> BaseRequest``) that a subclass the tests
        define overrides: the object the test holds may be that double, and
        the attribute the tests' own code."""
        base = target.base
        if base is None or base.kind is not Kind.INSTANCE or not base.declared or base.cls is None:
            return False
        name = target.text.rpartition(".")[2]
        return self.known_subclasses().overridden_by_the_tests(base.cls, name, target.value, self.module.info)

    def answered_later(self, site: MockSite) -> bool:
        """Whether the test gives ``site``'s double answers once it is made:
        ``m.return_value = ...`` or ``m.side_effect = ...`` on the double
        itself, or, for a double of a whole object (``MagicMock(wraps=obj)``),
        on a method of it (``m.check.return_value = True``), through a name
        bound to it. A spy (``wraps=``) answered so no longer runs the real code."""
        self._read_answers()
        assert self._answered is not None
        answered_at = self._answered.get(id(site))
        return answered_at is not None and (answered_at == 0 or site.kind == "mock")

    def answers_given_later(self, site: MockSite, attribute: str) -> list[ast.expr]:
        """What the test assigns to ``attribute`` (``return_value`` or
        ``side_effect``) of ``site``'s double itself once it is made
        (``m.side_effect = real``, ``patch(...).return_value = "x"``)."""
        self._read_answers()
        assert self._answers is not None
        return self._answers.get((id(site), attribute), [])

    def _read_answers(self) -> None:
        """Fill ``_answered`` and ``_answers`` from the module's assignments of
        ``return_value``/``side_effect``: on a name (or ``self.x``) bound to a
        double, on a method of it, or on the very call making it."""
        if self._answered is not None:
            return
        self._answered, self._answers = {}, {}
        module = self.module
        made_by = {id(site.call): site for site in module.sites}
        for context in (module.module, *module.contexts):
            for statement in context.statements:
                if not isinstance(statement, ast.Assign):
                    continue
                for target in statement.targets:
                    if not (isinstance(target, ast.Attribute) and target.attr in (RETURN_VALUE, SIDE_EFFECT)):
                        continue
                    held = target.value
                    for depth, double in enumerate((held, held.value if isinstance(held, ast.Attribute) else None)):
                        if isinstance(double, ast.Name) or (
                            isinstance(double, ast.Attribute) and isinstance(double.value, ast.Name)
                            and double.value.id in ("self", "cls")
                        ):
                            sites = module.mocks_bound(context, root_key(double) or "")
                        elif isinstance(double, ast.Call) and id(double) in made_by:
                            sites = [made_by[id(double)]]  # ``mocker.patch(...).return_value = "x"``
                        else:
                            continue
                        for bound in sites:
                            self._answered[id(bound)] = min(depth, self._answered.get(id(bound), depth))
                            if depth == 0:
                                self._answers.setdefault((id(bound), target.attr), []).append(statement.value)

    def assigned_over(self, site: MockSite) -> list[Target]:
        """For a double made with no spec and assigned over an attribute
        (``base.getid = mock.Mock(return_value="x")``, ``Thing.__init__ =
        Mock(return_value=None)``): the function or class the attribute holds,
        which the assignment replaces; empty for anything else (an object held
        in an attribute is a collaborator swapped, not code replaced)."""
        if site.kind not in ("mock", "autospec") or site.wrapped is not None:
            return []
        attribute = self._attribute_assigned(site)
        if attribute is None:
            return []
        value = self.resolver.evaluate(attribute, self.module.scope(site.owner))
        if value.kind not in (Kind.FUNCTION, Kind.CLASS):
            return []
        return [Target(ast.unparse(attribute), value)]

    def _attribute_assigned(self, site: MockSite) -> ast.Attribute | None:
        """The attribute ``site``'s double is assigned over (``base.getid =
        mock.Mock()``, ``engine._slot = Mock()``), if it is."""
        if self._assigned is None:
            self._assigned = {
                id(statement.value): statement.targets[0]
                for context in (self.module.module, *self.module.contexts) for statement in context.statements
                if isinstance(statement, ast.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Attribute) and isinstance(statement.value, ast.Call)
            }
        return self._assigned.get(id(site.call))

    def _wrapped(self, site: MockSite) -> list[Target]:
        """For a double with no spec that wraps a real object and is answered
        later (``MagicMock(wraps=Validator())``, then ``.check.return_value``):
        the wrapped object's class, or the wrapped function, which it stands in for."""
        if site.kind != "mock" or not self.answered_later(site):
            return []
        wrapped = site.wrapped
        if wrapped is None:
            return []
        value = self.resolver.evaluate(wrapped, self.module.scope(site.owner))
        if value.kind is Kind.INSTANCE and value.cls is not None:
            value = class_of(value)
        elif value.kind is not Kind.FUNCTION:
            return []
        return [Target(ast.unparse(wrapped), value)]

    def on_a_mock(self, site: MockSite, target: Target) -> bool:
        """Whether ``target`` is an attribute of an object that a mock of the same
        test (earlier in it, or in its set-up or fixtures) already replaced, or a
        double assigned over: then it names a mock's attribute, not the project's
        code (``mock_object(self.api, "rpc")`` in ``setUp``, then
        ``mock_object(self.api.rpc, "cast")``; scrapy's ``engine._slot =
        Mock()`` in a fixture, then ``engine._slot.add_request = Mock()``)."""
        prefixes = {target.text[:i] for i, char in enumerate(target.text) if char == "."}
        if not prefixes:
            return False
        if self._replaced is None:
            self._replaced = {}
            decorated: dict[int, dict[int, ast.AST]] = {}  # id(context) -> id(decorator call) -> its definition
            for other in self.module.sites:
                start, end = _active_lines(other, decorated)
                attribute = self._attribute_assigned(other) if other.kind in ("mock", "autospec") else None
                if attribute is not None:  # a double assigned over an attribute (``engine._slot = Mock()``)
                    self._replaced.setdefault(id(other.owner), []).append((start, end, ast.unparse(attribute)))
                if other.spec_only:
                    continue  # ``Mock(spec=Worker)`` makes a double and replaces nothing: ``Worker`` stays real
                for replaced in other.targets:
                    if not self._real_swap(other, replaced):
                        self._replaced.setdefault(id(other.owner), []).append((start, end, replaced.text))
        line = site.call.lineno
        if any(text in prefixes and start < line <= end for start, end, text in self._replaced.get(id(site.owner), ())):
            return True
        set_ups = self._set_ups.get(id(site.owner))
        if set_ups is None:
            set_ups = self._set_ups[id(site.owner)] = set_ups_of(site.owner, self._set_ups_by_parent)
        return any(
            seen in prefixes for set_up in set_ups for _, _, text in self._replaced.get(id(set_up), ())
            for seen in _as_the_test_sees(set_up, text)
        )

    def _a_logger(self, value: Value) -> bool:
        """Whether ``value`` is a whole logger of a project class deriving from
        the standard library's (``cast("AppLogger", logging.getLogger("app"))``):
        a logger, as a stdlib one is; its own methods stay first-party."""
        if value.kind is not Kind.INSTANCE or value.cls is None:
            return False
        resolver = self.resolver
        for cls in resolver.project_lineage(value.cls):
            scope = cls.bases_scope or resolver.module_scope(cls.module)
            if scope is not None and any(
                (base := resolver.evaluate(expr, scope)).kind is Kind.EXTERNAL and base.qualname in _LOGGER_CLASSES
                for expr in cls.bases
            ):
                return True
        return False

    def _settings_module(self, value: Value) -> bool:
        """Whether ``value`` is a module of settings: at least ten plain data
        values (no call: ``Signal(...)`` makes an object with behaviour) and
        nine in ten of its definitions such values (``default_settings``):
        configuration, not code."""
        if value.kind is not Kind.MODULE:
            return False
        info = self.resolver.index.get(value.module)
        if info is None:
            return False
        bindings = list(info.bindings.values())
        values = sum(binding.kind == "value" and _plain_data(binding.value) for binding in bindings)
        code = len([binding for binding in bindings if binding.kind != "import"]) - values
        return values >= _SETTINGS_VALUES and values >= 9 * code

    def puts_back_real_code(self, site: MockSite, replaced: str) -> bool:
        """Whether ``site`` replaces the object dotted ``replaced`` (known from a
        run, where the static targets may not be) by the real thing itself or in
        another form (``_real_swap``): a hand-written spy, a real object."""
        value = self.resolver.resolve_dotted(replaced)
        if value.kind not in (Kind.FUNCTION, Kind.CLASS, Kind.INSTANCE):
            return False
        given = next((target.replacement for target in site.targets if target.replacement is not None), None)
        replacement = given if given is not None else site.entry.argument(site.call, "new")
        return self._real_swap(site, Target(replaced, value, replacement))

    def _real_swap(self, site: MockSite, target: Target) -> bool:
        """Whether ``target``, a first-party object, is replaced by the real
        thing itself or in another form: a real object of the project
        (``patch("pkg.plugin.MANAGER", Plugin())``), a function of the test that
        calls the original it saved (a hand-written spy), or a subclass that
        only hands on to the real methods (``_bare_subclass``).
        A mock, a lambda, a constant, or a class or object the tests define
        with code of their own is a stand-in."""
        replacement = target.replacement
        if replacement is None:
            given = {keyword.arg: keyword.value for keyword in site.call.keywords}
            effect = given.get(SIDE_EFFECT)
            later = self.answers_given_later(site, SIDE_EFFECT)
            if effect is None and len(later) == 1:
                effect = later[0]  # ``m = patch(...)`` then ``m.side_effect = real``
            if effect is None or RETURN_VALUE in given or self.answers_given_later(site, RETURN_VALUE) \
                    or target.value.kind is not Kind.FUNCTION:
                return False
            scope = self.module.scope(site.owner)
            if _is_the_original(self.resolver.evaluate(effect, scope), target):
                return True  # the original itself answers (``side_effect=cursor_iter``, imported at the top)
            if isinstance(effect, ast.Lambda):  # ``lambda self, q, reuse: add_q(self, q)``, the saved original
                return self._hands_to(ast.Return(value=effect.body), target.value, set(), _original_spellings(site), scope)
            # the mock answers what the spy returns
            return isinstance(effect, ast.Name) and self._calls_the_original(site, target, effect.id)
        if self._spying_double(site, replacement):
            return True
        if is_none(replacement) and target.value.kind in (Kind.INSTANCE, Kind.FUNCTION) and self._placeholder(target):
            return True
        scope = self.module.scope(site.owner)
        value = self.resolver.evaluate(replacement, scope)
        if _is_the_original(value, target):
            return True  # the real thing itself, put back (a snapshot for monkeypatch's undo)
        project = self.resolver.project
        if target.value.kind is Kind.INSTANCE:
            return (
                value.kind is Kind.INSTANCE and value.cls is not None
                and project.is_first_party(value.cls.module) and not project.is_test_code(value.cls.module)
            )
        if target.value.kind is Kind.CLASS and value.kind is Kind.CLASS and value.cls is not None:
            return self._bare_subclass(value.cls, target.value)
        if target.value.kind in (Kind.FUNCTION, Kind.CLASS) and isinstance(replacement, ast.Name):
            # a function of the test calling the original (for a class: building a real instance of it)
            local = getattr(replacement, "local", None) if replacement.id == OPAQUE else replacement.id
            return local is not None and (
                self._calls_the_original(site, target, local) or self._made_by_a_spy_factory(site, target, local)
            )
        if target.value.kind is Kind.FUNCTION and isinstance(replacement, ast.Call):
            # ``call_after(bot.initialize, after)``: a factory of the tests wrapping the original
            return self._spy_from_factory(site, target, replacement, None, 1)
        return False

    def _made_by_a_spy_factory(self, site: MockSite, target: Target, name: str) -> bool:
        """Whether the test binds ``name`` (alone, or as one item of a tuple) from
        a call of a function of the test file that is handed the original and
        returns, there, functions of its own that call it and answer with what
        it gave (Django's ``make_method_counter(forms.Form.is_valid)`` returning
        ``(mocked_func, counter)``)."""
        for node in walk(site.owner.node):
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call)
                    and isinstance(node.value.func, ast.Name)):
                continue
            bound = node.targets[0]
            names = bound.elts if isinstance(bound, ast.Tuple) else [bound]
            index = next((i for i, n in enumerate(names) if isinstance(n, ast.Name) and n.id == name), None)
            if index is None:
                continue
            return self._spy_from_factory(site, target, node.value, index, len(names))
        return False

    def _spy_from_factory(self, site: MockSite, target: Target, call: ast.Call, index: int | None, count: int) -> bool:
        """Whether ``call`` calls a function of the test file (or, resolved, one
        of the tests' support modules: python-telegram-bot's ``call_after``) that
        is handed the original and returns (as item ``index`` of ``count``, or
        alone when ``index`` is None) functions of its own, every one of that
        name, that call it and answer with what it gave."""
        factory: FunctionNode | None = None
        if isinstance(call.func, ast.Name):
            factory = self._function_of_the_file(site.owner, call.func.id)
        scope = self.module.scope(site.owner)
        if factory is None:
            made_by = self.resolver.evaluate(call.func, scope)
            if made_by.kind is not Kind.FUNCTION or made_by.owner is not None:
                return False
            factory = made_by.function
        if factory is None:
            return False
        positional = [arg.arg for arg in [*factory.args.posonlyargs, *factory.args.args]]
        given = [*zip(positional, call.args), *((kw.arg, kw.value) for kw in call.keywords if kw.arg)]
        handed = {param for param, arg in given if _is_the_original(self.resolver.evaluate(arg, scope), target)}
        returns = [n for n in own_nodes(factory) if isinstance(n, ast.Return) and n.value is not None]
        if not handed or not returns:
            return False
        inner: dict[str, list[ast.AST]] = {}
        for node in (node for statement in factory.body for node in walk(statement)):  # a deferred body is read
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner.setdefault(node.name, []).append(node)
        spellings = _original_spellings(site)
        for returned in returns:
            assert returned.value is not None
            items = returned.value.elts if isinstance(returned.value, ast.Tuple) and index is not None else [returned.value]
            made = items[index or 0] if len(items) == count else None
            if not isinstance(made, ast.Name) or made.id not in inner or not all(
                self._hands_to(definition, target.value, handed, spellings, scope) for definition in inner[made.id]
            ):
                return False
        return True

    def _function_of_the_file(self, context: Context, name: str) -> FunctionNode | None:
        """The function ``name`` defined in ``context`` or at the top of the file."""
        found = context.functions.get(name)
        if found is not None:
            return found
        top_level = getattr(self.module.module.node, "body", [])
        return next((s for s in top_level if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == name), None)

    def _placeholder(self, target: Target) -> bool:
        """Whether ``target`` names a module-level ``X = None`` that the code
        fills in later (``X: C = None``, or under ``global X`` with a call or a
        name it imports): None is its real first state, so putting None back
        fakes nothing."""
        module, _, name = target.text.rpartition(".")
        if target.base is not None and target.base.kind is Kind.MODULE:
            module = target.base.module
        info = self.resolver.index.get(module) if module else None
        own = info.bindings.get(name) if info is not None else None
        if own is not None and own.kind == "import" and is_none(own.value):
            return True  # filled with a name its filler imports: the import stands for what it holds later
        found = self.resolver.definition(f"{module}.{name}") if module else None
        return found is not None and found[0].declared is not None and is_none(found[0].value)

    def _spying_double(self, site: MockSite, replacement: ast.expr) -> bool:
        """Whether ``replacement`` is a mock that hands its calls on to a real
        object (``MagicMock(wraps=Tool.verify)``, written in place or bound
        once to a name in the test), as ``patch(..., wraps=)`` is a spy; or
        whose side effect is the very thing the patch replaces
        (``patch("app.jobs.advance", MagicMock(side_effect=jobs.advance))``)."""
        if isinstance(replacement, ast.Name):
            values = site.owner.assigns.get(replacement.id, [])
            replacement = values[0] if len(values) == 1 else replacement
        double = self.module.site_of(replacement)
        if double is None or double.kind != "mock":
            return False
        effect = next((keyword.value for keyword in double.call.keywords if keyword.arg == SIDE_EFFECT), None)
        return double.is_spy or (effect is not None and site.names_the_target(effect))

    def _bare_subclass(self, cls: ClassInfo, original: Value) -> bool:
        """Whether ``cls`` subclasses ``original`` and overrides nothing but with
        methods that hand on to the real one (``super().name(...)``) and raise
        nothing: a new name, or a spy that records calls. Names the original
        lacks (a listener hook, an annotation) change nothing the real code calls."""
        if original.cls is None:
            return False
        real = Value(Kind.CLASS, module=original.module, qualname=original.qualname, cls=original.cls)
        if any(
            not _hands_on(name, binding.function) and self.resolver.attribute(real, name).kind is not Kind.MISSING
            for name, binding in cls.members.items()
        ):
            return False
        scope = cls.bases_scope or self.resolver.module_scope(cls.module)
        if scope is None:
            return False
        return any(
            (base.module, base.qualname) == (original.module, original.qualname)
            for base in (self.resolver.evaluate(expr, scope) for expr in cls.bases)
        )

    def _calls_the_original(self, site: MockSite, target: Target, name: str) -> bool:
        """Whether the function (or class) ``name`` put in place by ``site``
        (defined in the code making the patch, else at the module's top level)
        calls the attribute ``site`` replaces, under a name bound to it there or
        at the top level (``readany = StreamReader.readany`` ... ``await
        readany(self)``, or an import of the function from where it is
        defined), and raises nothing itself (a wrapper injecting a failure is a
        fake). Of several definitions of the name, the ones that may be in
        effect at the patch (``_in_effect``) must all be such spies."""
        original = _original_spellings(site)
        top_level: list[ast.AST] = list(getattr(self.module.module.node, "body", []))
        inside: list[ast.AST] = [] if site.owner.parent is None else list(walk(site.owner.node))[1:]
        places: list[tuple[list[ast.AST], Context]] = [(inside, site.owner), (top_level, self.module.module)]
        helper = next((c for c in self.module.contexts if c.node is site.helper_function), None)
        if helper is not None:  # a helper of this file made the patch: its own body first
            places.insert(0, (list(walk(helper.node))[1:], helper))
        for nodes, owner in places:
            named = [n for n in nodes if isinstance(n, _DEFINED) and n.name == name]
            definitions = _in_effect(owner.node, named, site.call.lineno)
            if definitions:
                break
        else:
            return False
        last_names = {spelling.rpartition(".")[2] for spelling in original}  # each spelling ends in ".name"
        saved = {  # ``orig = mod.f``, or ``self._original = client.f`` (Twisted's IRC tests)
            ast.unparse(target)
            for statement in {id(n): n for n in [*nodes, *top_level]}.values() if isinstance(statement, ast.Assign)
            and isinstance(statement.value, ast.Attribute) and statement.value.attr in last_names
            and ast.unparse(statement.value) in original
            for target in statement.targets if isinstance(target, (ast.Name, ast.Attribute))
        }
        scope = self.module.scope(owner)
        return all(self._hands_to(node, target.value, saved, original, scope) for node in definitions)

    def _hands_to(
        self, definition: ast.AST, original: Value, saved: set[str], spellings: set[str], scope: Scope,
    ) -> bool:
        """Whether ``definition`` (a function, or a class's methods) calls
        ``original`` by a name (one of ``saved``, as written, or one that resolves to it in
        ``scope``, the code defining it; not one of the patched ``spellings``,
        which reach the replacement itself), raises nothing, and answers only
        with what the original gave (``_answers_from``)."""
        body = list(walk(definition))
        if any(isinstance(node, ast.Raise) for node in body):
            return False
        own = {arg.arg for arg in body if isinstance(arg, ast.arg)}
        calls: set[int] = set()
        for call in body:
            if not isinstance(call, ast.Call) or not isinstance(call.func, (ast.Name, ast.Attribute)):
                continue
            if ast.unparse(call.func) in saved:
                calls.add(id(call))
                continue
            parts = dotted_parts(call.func)
            if parts is None or parts[0] in own or ".".join(parts) in spellings:
                continue
            value = self.resolver.evaluate(call.func, scope)
            if value.kind in (Kind.FUNCTION, Kind.CLASS) and value.kind is original.kind \
                    and (value.module, value.qualname) == (original.module, original.qualname):
                calls.add(id(call))
        return bool(calls) and _answers_from(body, calls)

    def function_named(self, dotted: str) -> Value | None:
        """The function or method ``dotted`` names, in the project or an installed
        library, when its source is readable."""
        value = self.resolver.resolve_dotted(dotted)
        if value.kind is Kind.FUNCTION and value.function is not None:
            return value
        if value.kind is Kind.EXTERNAL:
            return self.libraries.function(value.qualname)
        return None

    def source_path(self, value: Value) -> Path | None:
        """The file of the module defining ``value``, in the project or an
        installed library; None for a namespace package or no module."""
        for index in (self.resolver.index, self.libraries.resolver.index):
            located = index.locate(value.module)
            if located is not None and located[0] is not None:
                return located[0]
        return None

    def source_lines(self, function: Value) -> Sequence[str] | None:
        """The lines of the module defining ``function`` (project or library)."""
        if function.module == self.module.info.name:
            return self.annotations.lines
        path = self.source_path(function)
        return self.memo.lines(path) if path is not None else None

    def outcomes(self, function: Value, depth: int = 0) -> frozenset[Outcome] | None:
        """What calling ``function`` (a FUNCTION value) can give its caller: what
        its own code gives, and what the project functions whose results it
        returns outside any ``try`` raise (``return _unix_config_path()``,
        which raises ``PathNotFound``), ``MAX_DELEGATION`` calls deep."""
        node = function.function
        if node is None:
            return None
        if function.module == self.module.info.name:  # the file under analysis: remembered with it
            known = self._own_outcomes.get(id(node))
            if known is None:
                known = self._own_outcomes[id(node)] = (node, function_outcomes(node, self.annotations.lines))
            own = known[1]
        else:
            own = self.memo.outcomes(node, self.source_lines(function))
        if own is None or depth >= MAX_DELEGATION:
            return own
        delegated = self._returned_calls(function)
        raised = {
            outcome for callee in delegated
            for outcome in self.outcomes(callee, depth + 1) or () if outcome.kind == "raises"
        }
        own = own | raised if raised - own else own
        if delegated and {outcome for outcome in own if outcome.kind == "returns"} == {VALUE} \
                and _returns(node) == len(delegated):
            # a wrapper: each return hands on a project function's answer, which it may branch on
            answers = [self.outcomes(callee, depth + 1) for callee in delegated]
            if all(answer is not None for answer in answers):
                handed_on = {o for answer in answers for o in answer or () if o.kind == "returns"}
                own = frozenset({o for o in own if o.kind == "raises"} | handed_on)
        return own

    def _returned_calls(self, function: Value) -> list[Value]:
        """The project functions whose call ``function`` returns outside any
        ``try`` (so whatever they raise reaches its caller); remembered per
        engine for a function of a long-lived module."""
        node, module = function.function, self.resolver.index.get(function.module)
        if node is None or module is None:
            return []
        if module.volatile or self.resolver.is_volatile(function.owner):
            return self._find_returned_calls(node, module, function.owner)
        return self.memo.tracker.remembered(  # the index holds ``node`` and its class: their ids stay
            self.memo.returned_calls, (id(node), id(function.owner)),
            lambda: self._find_returned_calls(node, module, function.owner),
        )

    def _find_returned_calls(self, node: FunctionNode, module: ModuleInfo, owner: ClassInfo | None) -> list[Value]:
        done = reading_once(node)
        returned: list[ast.Call] = []
        pending: list[ast.stmt] = list(node.body)
        while pending:
            statement = pending.pop()
            if isinstance(statement, ast.Return) and isinstance(statement.value, ast.Call):
                returned.append(statement.value)
            elif not isinstance(statement, (*TRY_STATEMENTS, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for block in ("body", "orelse", "cases"):
                    inner = getattr(statement, block, None)
                    if isinstance(inner, list):
                        pending.extend(i for i in inner if isinstance(i, ast.stmt))
                        pending.extend(s for case in inner if isinstance(case, ast.match_case) for s in case.body)
        found: list[Value] = []
        if returned:
            scope = self.resolver.function_scope(node, module, owner)
            for call in returned:
                callee = self.resolver.evaluate(call.func, scope)
                if callee.kind is Kind.FUNCTION and callee.function is not None and callee.function is not node \
                        and self.resolver.is_first_party(callee):
                    found.append(callee)
        if done is not NOTHING:
            self.resolver.forget_facts(node)  # read from the nodes about to go
        done()
        return found

    def isolation_excuse(self, call: ast.Call, scope: str, why: str) -> bool:
        """Whether a ``# mock-isolation:`` annotation excuses ``call``. One without
        a reason still excuses it, and is noted for ``mock-annotation-without-reason``
        (``why`` says what the reason should explain)."""
        annotation = self.annotations.find("isolation", call.lineno, call.end_lineno or call.lineno)
        if annotation is None:
            return False
        if not annotation.reason:
            self.reasonless.append(self.finding(
                call, ANNOTATION_WITHOUT_REASON.symbol,
                f"This '# mock-isolation:' annotation gives no reason; say why {why}.", scope,
            ))
        return True

    def statement(self, node: ast.AST) -> str:
        """The source text of ``node``."""
        return segment(self.annotations.lines, node)

    def finding(self, node: ast.AST, symbol: str, message: str, scope: str) -> Finding:
        return Finding(
            path=self.path,
            line=getattr(node, "lineno", 1),
            column=getattr(node, "col_offset", 0),
            symbol=symbol,
            message=message,
            end_line=getattr(node, "end_lineno", None),
            end_column=getattr(node, "end_col_offset", None),
            scope=scope,
            statement=self.statement(node),
        )


Check = Callable[[Analysis], Iterable[Finding]]


@dataclass(frozen=True)
class Family:
    """A group of rules decided together by one ``check``.

    ``prefilter`` is the cheap test the family needs: the engine runs ``check``
    on a file only when the pattern occurs in the file's bytes (or, for a
    family of ``MOCK_WORDS``, when the file calls one of the project's mock
    helpers: ``Engine.families_for``), so it must match every file in which
    the family could report anything.
    """

    name: str
    rules: tuple[Rule, ...]
    check: Check
    prefilter: re.Pattern[bytes]
    reads_notes: bool = False  # reports what the other families note: they must run too

    def wants(self, data: bytes) -> bool:
        return self.prefilter.search(data) is not None


# Files without any of these words make no mock site themselves (a call of a
# project's helper may: ``Engine.families_for``).
MOCK_WORDS = MOCKING_WORDS


def _is_the_original(value: Value, target: Target) -> bool:
    """Whether ``value`` (an expression resolved where the patch is made) is the
    function or class ``target`` replaces: by what it resolves to, not by its spelling."""
    return value.kind in (Kind.FUNCTION, Kind.CLASS) and target.value.kind is value.kind \
        and (value.module, value.qualname) == (target.value.module, target.value.qualname)


def _original_spellings(site: MockSite) -> set[str]:
    """How code spells the attribute ``site`` replaces: ``obj.name`` for
    ``patch.object(obj, "name")``/``setattr(obj, "name", ...)``, the dotted
    tails of ``patch("a.b.name")`` with two parts or more."""
    entry = site.entry
    target, attribute = entry.argument(site.call, "target"), entry.argument(site.call, "attribute")
    if attribute is not None:
        if target is None or not (isinstance(attribute, ast.Constant) and isinstance(attribute.value, str)):
            return set()
        return {f"{ast.unparse(target)}.{attribute.value}"}
    if isinstance(target, ast.Constant) and isinstance(target.value, str):
        parts = target.value.split(".")
        return {".".join(parts[start:]) for start in range(len(parts) - 1)}
    return set()


_SETTINGS_VALUES = 10  # the fewest values a module of settings holds


_DEFINED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _in_effect(code: ast.AST, definitions: Sequence[ast.AST], line: int) -> list[ast.AST]:
    """Of ``definitions`` of one name in ``code``, those that may be bound at
    ``line``: the last one before it when its block holds ``line`` too (it
    rebinds the name on every path there), else every one before it (one per
    branch of an ``if``)."""
    before = [d for d in definitions if getattr(d, "lineno", 0) < line]
    if not before:
        return []
    last = max(before, key=lambda d: getattr(d, "lineno", 0))
    for node in (code, *statements(code)):  # the block holding ``last`` belongs to a statement
        for block in (getattr(node, name, None) for name in ("body", "orelse", "finalbody")):
            if isinstance(block, list) and any(statement is last for statement in block):
                if getattr(block[-1], "end_lineno", 0) >= line:
                    return [last]
                return before
    return before


def _answers_from(body: list[ast.AST], calls: set[int]) -> bool:
    """Whether every value ``body`` returns or yields comes from one of the
    ``calls`` of the original: holds such a call, or a name or attribute bound
    from one (``result = original(...)``, ``with original(...) as span``,
    ``for cls in original(...)``,
    ``self.span = self._manager.__enter__()``), or is None. A wrapper
    answering ``[]`` or another object of its own on some path is a fake there,
    as is one answering a part or a copy of what the original gave
    (``return acl[:1]``), or changing it first (``del acl[1:]``)."""
    def derives(expr: ast.AST | None) -> bool:
        return expr is not None and any(
            id(node) in calls or (isinstance(node, (ast.Name, ast.Attribute)) and ast.unparse(node) in derived)
            for node in ast.walk(expr)
        )

    derived: set[str] = set()
    bindings: list[tuple[ast.AST, ast.AST]] = []  # (target, value)
    for node in body:
        if isinstance(node, ast.Assign):
            bindings += [(target, node.value) for target in node.targets]
        elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
            bindings.append((node.target, node.value))
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            bindings.append((node.optional_vars, node.context_expr))
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            bindings.append((node.target, node.iter))
    grown = True
    while grown:
        grown = False
        for target, value in bindings:
            text = ast.unparse(target)
            if text not in derived and derives(value):
                derived.add(text)
                grown = True
    def passed_on(expr: ast.expr) -> bool:  # the original's answer itself, not a part or a copy of it
        while isinstance(expr, ast.Await):
            expr = expr.value
        return id(expr) in calls or (isinstance(expr, (ast.Name, ast.Attribute)) and ast.unparse(expr) in derived)

    if any(_changes(node, derived) for node in body):
        return False  # ``del acl[1:]`` before ``return acl``: an answer of its own
    answers = [node.value for node in body if isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom))]
    return all(value is None or is_none(value) or passed_on(value) for value in answers)


# Methods of the built-in containers that change them in place.
_MUTATORS = frozenset({
    "append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse", "update", "setdefault",
    "popitem", "add", "discard",
})


def _changes(node: ast.AST, derived: set[str]) -> bool:
    """Whether ``node`` changes an object held by one of the ``derived`` names
    in place: deletes or assigns an item or attribute of it, or calls a method
    of the built-in containers that changes them."""
    def held(expr: ast.expr) -> bool:
        return isinstance(expr, (ast.Subscript, ast.Attribute)) and ast.unparse(expr.value) in derived

    if isinstance(node, ast.Delete):
        return any(held(target) for target in node.targets)
    if isinstance(node, (ast.Assign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return any(held(target) for target in targets)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATORS \
        and ast.unparse(node.func.value) in derived


def _plain_data(expr: ast.expr | None) -> bool:
    """Whether ``expr`` is data written out: literals, containers, names and
    operators, no call or lambda."""
    return expr is not None and not any(isinstance(node, (ast.Call, ast.Lambda)) for node in ast.walk(expr))


def _hands_on(name: str, function: FunctionNode | None) -> bool:
    """Whether the method ``name`` calls ``super().name(...)`` and raises nothing."""
    if function is None:
        return False
    nodes = list(walk(function))
    return not any(isinstance(node, ast.Raise) for node in nodes) and any(
        isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == name
        and isinstance(node.func.value, ast.Call) and callee_name(node.func.value) == "super"
        for node in nodes
    )
