"""The analysis engine: one file in, findings out. Every front end calls this.

An ``Engine`` holds one project's symbol index and resolver for its own
lifetime; a ``Session`` holds the engines of one run (one per project root)
and is dropped when the run ends, so nothing the engine learns outlives the
run that learnt it. The engine never imports or executes what it analyses,
and never touches the host process's global state.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import TypeVar

from mockpolicy.analysis import MOCK_WORDS, Analysis, Family, Memo
from mockpolicy.annotations import Annotations
from mockpolicy.checks import FAMILIES
from mockpolicy.deps import HELPER_WORDS_DEP, Tracker, words_fact
from mockpolicy.findings import Finding
from mockpolicy.fixtures import Fixtures
from mockpolicy.helpers import Helpers, calls_any, project_helper_words
from mockpolicy.index import ModuleIndex, SummaryStore, module_name_for, summarize
from mockpolicy.libraries import Libraries
from mockpolicy.project import Project, find_root, load_project
from mockpolicy.resolve import Resolver
from mockpolicy.rules import ANALYSIS_ERROR
from mockpolicy.sites import TestModule
from mockpolicy.source import SourceError, decode_source, read_source
from mockpolicy.subclasses import Subclasses
from mockpolicy.symbols import ModuleInfo

T = TypeVar("T")


class Engine:
    """Analyses files of one project."""

    def __init__(
        self, project: Project, families: Sequence[Family] = FAMILIES, lean: bool = False, track: bool = False,
        store: SummaryStore | None = None,
    ) -> None:
        """``lean`` trades time for memory: function bodies of the modules targets
        resolve into are dropped once indexed and parsed again when first needed
        (for a host process, such as pylint's, whose memory is not ours).
        ``track``: note what each analysis reads (``analyse_tracked``).
        ``store``: keeps module summaries across runs (see ``ModuleIndex``)."""
        self.project = project
        self.families = tuple(families)
        self.tracker = Tracker(enabled=track)
        self.index = ModuleIndex(project.import_roots, defer_bodies=lean, tracker=self.tracker, store=store)
        self.resolver = Resolver(project, self.index)
        self.fixtures = Fixtures(project, self.index, self.resolver)
        self.libraries = Libraries(project, defer_bodies=lean, tracker=self.tracker, store=store)
        self.memo = Memo(self.tracker, self.index.text)
        self.subclasses = Subclasses(self.resolver)
        self._analysing: ModuleInfo | None = None  # the file under analysis, whose classes may combine a mixin
        self.resolver.hosts = lambda cls: self.subclasses.known(cls, self._analysing)
        self.helpers = Helpers(self.resolver, project.mock_helpers)
        self._helper_words: frozenset[str] | None = None
        self._helper_bytes: frozenset[bytes] = frozenset()
        self._helper_fact = ""

    def read_skeletons(self, wanted: bool) -> None:
        """Whether modules are read from their skeletons (see ``ModuleIndex``),
        in the project's index and the libraries'."""
        self.index.skeletons = self.libraries.skeletons = wanted and self.index.store is not None

    def read(self, path: str | Path) -> bytes:
        """The bytes of the source file at ``path``, within the project's size
        limit; raises ``SourceError``."""
        return read_source(Path(path), self.project.max_file_bytes)

    def analyse_file(self, path: str | Path) -> list[Finding]:
        """Findings for the file at ``path``, read from disk."""
        shown = str(path)
        try:
            data = self.read(path)
        except SourceError as exc:
            return [analysis_error(shown, str(exc))]
        return self.analyse_source(shown, data)

    def analyse_tracked(self, path: str, data: bytes) -> tuple[list[Finding], dict[str, str]]:
        """``analyse_source`` with what the analysis read from the file system
        besides ``data``: dependencies and the facts seen of them (see
        mockpolicy.deps); the engine must have been made with ``track``."""
        self.tracker.start()
        try:
            findings = self.analyse_source(path, data)
        finally:
            deps = self.tracker.stop()
        return findings, self.tracker.facts_of(deps)

    def analyse_source(self, path: str, data: bytes, rules: Collection[str] | None = None) -> list[Finding]:
        """Findings for ``data``, the bytes of the module at ``path`` (which need
        not exist on disk: an editor's unsaved buffer). A family runs only when
        its pre-filter matches and, given ``rules`` (symbols), when one of its
        rules is among them; a file no family wants is not parsed. Findings of
        rules outside ``rules`` may come too: the caller filters."""
        wanted = self.families_for(data)
        if rules is not None:
            chosen = [family for family in wanted if any(rule.symbol in rules for rule in family.rules)]
            wanted = wanted if any(family.reads_notes for family in chosen) else chosen
        if not wanted:
            return []
        findings, failure = self.inspect(path, data, lambda analysis: _run(wanted, analysis))
        return [failure] if failure is not None else sorted(findings or [])

    def families_for(self, data: bytes) -> list[Family]:
        """The families whose pre-filter ``data`` passes; a file calling a mock
        helper of the project's tests by name (``helper_words``) passes
        ``MOCK_WORDS`` too: the helper makes its mock sites (tempest's
        ``self.check_service_client_function(...)``)."""
        wanted = [family for family in self.families if family.wants(data)]
        if len(wanted) < len(self.families) and any(f.prefilter is MOCK_WORDS for f in self.families if f not in wanted):
            if calls_any(data, self._helper_names()):
                wanted = [f for f in self.families if f in wanted or f.prefilter is MOCK_WORDS]
        return wanted

    def helper_words(self) -> frozenset[str]:
        """``helper_words`` of the project's tests, read once per engine (a
        dependency of every file it decides about)."""
        if self._helper_words is None:
            self._helper_words = project_helper_words(self.project, self.index.store)
            self._helper_bytes = frozenset(word.encode() for word in self._helper_words)
            self._helper_fact = words_fact(self._helper_words)
        self.tracker.observe(HELPER_WORDS_DEP, self._helper_fact)
        return self._helper_words

    def _helper_names(self) -> frozenset[bytes]:
        self.helper_words()
        return self._helper_bytes

    def inspect(self, path: str, data: bytes, job: Callable[[Analysis], T]) -> tuple[T | None, Finding | None]:
        """Run ``job`` on the analysis of one file: ``(result, None)``, or
        ``(None, a mock-analysis-error finding)`` when the file cannot be decoded
        or parsed, or the job fails. Never raises for a bad file."""
        try:
            tree = ast.parse(data, filename=path)
            source = decode_source(data)
        except SyntaxError as exc:
            return None, analysis_error(path, f"cannot parse {path}: {exc.msg} (line {exc.lineno}).", exc.lineno or 1)
        except (UnicodeDecodeError, ValueError) as exc:
            return None, analysis_error(path, f"cannot decode {path}: {exc}.")
        except (RecursionError, MemoryError):
            return None, analysis_error(path, f"cannot parse {path}: nesting too deep or file too large.")
        try:
            return self._with_analysis(path, source, tree, job), None
        except RecursionError:
            return None, analysis_error(path, f"cannot analyse {path}: expressions nested too deeply.")
        except Exception as exc:  # noqa: BLE001 - one file's failure must not end the run
            return None, analysis_error(
                path, f"internal error while analysing {path} ({type(exc).__name__}: {exc}); please report it."
            )

    def _with_analysis(self, path: str, source: str, tree: ast.Module, job: Callable[[Analysis], T]) -> T:
        name, is_package = module_name_for(Path(path), self.tracker)
        info = summarize(name, Path(path), is_package, tree, analysed=True)
        info.volatile = True  # the file under analysis: nothing about it is remembered
        info.builtins_from = self.fixtures.builtins_set_for(Path(path).parent)
        self.index.add(info)
        self._analysing = info
        try:
            module = TestModule(tree, info, self.resolver, self.fixtures, self.helpers)
            try:
                analysis = Analysis(
                    path, source, module, self.resolver, Annotations(source), self.libraries, self.memo,
                    self.subclasses,
                )
                return job(analysis)
            finally:
                module.release()
        finally:
            self._analysing = None
            self.subclasses.forget_file()
            self.helpers.forget_file()
            self.index.discard(info)


def _run(families: Sequence[Family], analysis: Analysis) -> list[Finding]:
    findings: list[Finding] = []
    for family in families:
        findings.extend(family.check(analysis))
    return findings


def analysis_error(path: str, message: str, line: int = 1) -> Finding:
    """A ``mock-analysis-error`` finding on ``path``."""
    return Finding(path=path, line=line, column=0, symbol=ANALYSIS_ERROR.symbol, message=message)


class Session:
    """The engines of one run, one per project root, found from the files it
    is given. Drop the session to drop everything its engines learnt."""

    def __init__(
        self, lean: bool = False, track: bool = False, store_for: Callable[[Project], SummaryStore | None] | None = None,
    ) -> None:
        """``lean``, ``track``: see ``Engine``; ``store_for`` gives the summary
        store of a project's engine (the persistent cache's)."""
        self.lean = lean
        self.track = track
        self.store_for = store_for
        self.few_files = True  # whether the run analyses few files (see ``ModuleIndex``'s skeletons)
        self._engines: dict[Path, Engine] = {}
        self._roots: dict[Path, Path] = {}

    def engine_for(self, path: str | Path) -> Engine:
        """The engine of the project containing ``path``; raises
        ``mockpolicy.project.ConfigError`` when its configuration is broken."""
        directory = Path(path).parent
        root = self._roots.get(directory)
        if root is None:
            root = self._roots[directory] = find_root(directory)
        engine = self._engines.get(root)
        if engine is None:
            project = load_project(root)
            store = self.store_for(project) if self.store_for is not None else None
            engine = self._engines[root] = Engine(project, lean=self.lean, track=self.track, store=store)
            engine.read_skeletons(self.few_files)
        return engine

    def expect(self, count: int) -> None:
        """Say how many files the run will analyse: modules are read from their
        skeletons only in a run of at most ``FEW_FILES``."""
        self.few_files = count <= FEW_FILES
        for engine in self._engines.values():
            engine.read_skeletons(self.few_files)


FEW_FILES = 4
