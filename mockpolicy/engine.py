"""The analysis engine: one file in, findings out. Every front end calls this.

``Engine`` holds one project's symbol index and resolver; ``engine_for(path)``
keeps one engine per project root for the life of the process, so the modules
that targets resolve into are parsed once per process.
"""

from __future__ import annotations

import ast
import gc
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from mockpolicy import baseline
from mockpolicy.annotations import Annotations
from mockpolicy.findings import Finding
from mockpolicy.fixtures import Fixtures
from mockpolicy.index import ModuleIndex, module_name_for, summarize
from mockpolicy.libraries import Libraries
from mockpolicy.project import Project, find_root, load_project
from mockpolicy.resolve import Kind, Resolver, Value
from mockpolicy.rules import ANALYSIS_ERROR, ANNOTATION_WITHOUT_REASON
from mockpolicy.sites import MockSite, Target, TestModule

# Files without any of these words cannot contain a mock site.
_MOCK_WORDS = re.compile(rb"mock|Mock|patch")


@dataclass(eq=False)
class Analysis:
    """Everything the rules of one file share."""

    path: str
    source: str
    module: TestModule
    resolver: Resolver
    annotations: Annotations
    libraries: Libraries
    first_party: dict[int, list[Target]] = field(default_factory=dict)
    helpers: set[str] | None = None  # functions of the module that assert (for tautology)

    def first_party_targets(self, site: MockSite) -> list[Target]:
        """The targets of ``site`` that are the project's own code."""
        key = id(site)
        if key not in self.first_party:
            self.first_party[key] = [t for t in site.targets if self.resolver.is_first_party(t.value)]
        return self.first_party[key]

    def function_named(self, dotted: str) -> Value | None:
        """The function or method ``dotted`` names, in the project or an installed
        library, when its source is readable."""
        value = self.resolver.resolve_dotted(dotted)
        if value.kind is Kind.FUNCTION and value.function is not None:
            return value
        if value.kind is Kind.EXTERNAL:
            return self.libraries.function(value.qualname)
        return None

    def isolation_excuse(self, call: ast.Call, scope: str, why: str) -> tuple[bool, Finding | None]:
        """Whether a ``# mock-isolation:`` annotation excuses ``call``, and the
        ``mock-annotation-without-reason`` finding to report instead when it gives
        no reason (``why`` says what the reason should explain)."""
        annotation = self.annotations.find("isolation", call.lineno, call.end_lineno or call.lineno)
        if annotation is None:
            return False, None
        if annotation.reason:
            return True, None
        return True, self.finding(
            call, ANNOTATION_WITHOUT_REASON.symbol,
            f"This '# mock-isolation:' annotation gives no reason; say why {why}.", scope,
        )

    def statement(self, node: ast.AST) -> str:
        """The source text of ``node`` (``ast.get_source_segment`` without
        re-splitting the file on every call)."""
        start, end = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
        first, last = getattr(node, "col_offset", None), getattr(node, "end_col_offset", None)
        if start is None or end is None or first is None or last is None:
            return ""
        lines = [line.encode("utf-8") for line in self.annotations.lines[start - 1 : end]]
        if not lines:
            return ""
        if len(lines) == 1:
            return lines[0][first:last].decode("utf-8", "replace")
        lines[0], lines[-1] = lines[0][first:], lines[-1][:last]
        return b"\n".join(lines).decode("utf-8", "replace")

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


def _checks() -> list[Check]:
    from mockpolicy.checks import fakes, fidelity, first_party, hygiene, partial_mocks, tautology, where_looked_up

    return [
        first_party.check, tautology.check, fidelity.check, fakes.check, where_looked_up.check, hygiene.check,
        partial_mocks.check,
    ]


class Engine:
    """Analyses files of one project."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.index = ModuleIndex(project.source_roots)
        self.resolver = Resolver(project, self.index)
        self.fixtures = Fixtures(project, self.index, self.resolver)
        self.libraries = Libraries(project)
        self.checks = _checks()
        self._allowed: baseline.Baseline | None = None

    def not_baselined(self, findings: list[Finding]) -> list[Finding]:
        """``findings`` of one file (absolute or relative paths) minus what the
        project's baseline allows; raises ``BaselineError`` for a broken file."""
        allowed = self._baseline()
        if not allowed.counts or not findings:
            return findings
        relative = [replace(f, path=self.project.relative(f.path)) for f in findings]
        kept, _ = baseline.compare(allowed, relative, lambda path: False)
        keep = {id(f) for f in kept}
        return [original for original, shown in zip(findings, relative) if id(shown) in keep]

    def _baseline(self) -> baseline.Baseline:
        if self._allowed is None:
            path = self.project.baseline_path
            self._allowed = baseline.load(path) if path.exists() else baseline.Baseline.empty()
        return self._allowed

    def analyse_file(self, path: str | Path) -> list[Finding]:
        """Findings for one file; a file that cannot be read or parsed yields one
        ``mock-analysis-error`` finding instead of an exception."""
        shown = str(path)
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            return [_error(shown, f"cannot read {shown}: {exc.strerror or exc}.")]
        return self.analyse_source(shown, data)

    def analyse_source(self, path: str, data: bytes) -> list[Finding]:
        if _MOCK_WORDS.search(data) is None:
            return []
        with _collector_paused():
            return self._analyse_source(path, data)

    def _analyse_source(self, path: str, data: bytes) -> list[Finding]:
        try:
            tree = ast.parse(data, filename=path)
            source = data.decode("utf-8-sig") if not _declares_encoding(data) else _decode(data)
        except SyntaxError as exc:
            return [_error(path, f"cannot parse {path}: {exc.msg} (line {exc.lineno}).", exc.lineno or 1)]
        except (UnicodeDecodeError, ValueError) as exc:
            return [_error(path, f"cannot decode {path}: {exc}.")]
        except (RecursionError, MemoryError):
            return [_error(path, f"cannot parse {path}: nesting too deep or file too large.")]
        try:
            return self._analyse_tree(path, source, tree)
        except RecursionError:
            return [_error(path, f"cannot analyse {path}: expressions nested too deeply.")]
        except Exception as exc:  # noqa: BLE001 - one file's failure must not end the run
            return [_error(path, f"internal error while analysing {path} ({type(exc).__name__}: {exc}); please report it.")]

    def _analyse_tree(self, path: str, source: str, tree: ast.Module) -> list[Finding]:
        findings: list[Finding] = []
        with self.analysis(path, source, tree) as analysis:
            for check in self.checks:
                findings.extend(check(analysis))
        findings.sort()
        return findings

    @contextmanager
    def analysis(self, path: str, source: str, tree: ast.Module) -> Iterator[Analysis]:
        """The shared analysis of one parsed file, valid inside the ``with`` block."""
        name, is_package = module_name_for(Path(path))
        info = summarize(name, Path(path), is_package, tree)
        info.volatile = True
        self.index.add(info)
        try:
            module = TestModule(tree, info, self.resolver, self.fixtures)
            try:
                yield Analysis(path, source, module, self.resolver, Annotations(source), self.libraries)
            finally:
                module.release()
        finally:
            self.index.discard(info)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Run without the cyclic garbage collector, then collect the young generations.

    Syntax trees make no reference cycles, but the collector would traverse
    every node of the symbol index again and again as it grows; pausing it
    halves the time of a large run. An analysis leaves no cycles behind
    (``TestModule.release``), so reference counting frees each file's trees,
    and what survives it is moved out of the collector's reach (``gc.freeze``).
    Inside pylint that includes pylint's own long-lived trees, which makes its
    collections cheaper too; objects frozen there are only reclaimed by
    reference counting.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.freeze()  # what survived (the symbol index, the host's trees) lives on: never re-traverse it
            gc.enable()


def _declares_encoding(data: bytes) -> bool:
    head = data.split(b"\n", 2)[:2]
    return any(b"coding" in line and line.lstrip().startswith(b"#") for line in head)


def _decode(data: bytes) -> str:
    import io
    import tokenize

    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return data.decode(encoding)


def _error(path: str, message: str, line: int = 1) -> Finding:
    return Finding(path=path, line=line, column=0, symbol=ANALYSIS_ERROR.symbol, message=message)


_ENGINES: dict[Path, Engine] = {}
_ROOTS: dict[Path, Path] = {}


def engine_for(path: str | Path) -> Engine:
    """The engine of the project containing ``path`` (cached per root).

    Raises ``mockpolicy.project.ConfigError`` when the project's configuration is broken.
    """
    directory = Path(path).parent
    root = _ROOTS.get(directory)
    if root is None:
        root = _ROOTS[directory] = find_root(directory)
    engine = _ENGINES.get(root)
    if engine is None:
        engine = _ENGINES[root] = Engine(load_project(root))
    return engine
