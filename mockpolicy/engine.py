"""The analysis engine: one file in, findings out. Every front end calls this.

``Engine`` holds one project's symbol index and resolver; ``engine_for(path)``
keeps one engine per project root for the life of the process, so the modules
that targets resolve into are parsed once per process.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from mockpolicy.annotations import Annotations
from mockpolicy.findings import Finding
from mockpolicy.index import ModuleIndex, module_name_for, summarize
from mockpolicy.project import Project, find_root, load_project
from mockpolicy.resolve import Resolver
from mockpolicy.rules import ANALYSIS_ERROR
from mockpolicy.sites import MockSite, Target, TestModule

# Files without any of these cannot contain a mock site.
_MOCK_WORDS = (b"mock", b"Mock", b"patch")


@dataclass(eq=False)
class Analysis:
    """Everything the rules of one file share."""

    path: str
    source: str
    module: TestModule
    resolver: Resolver
    annotations: Annotations
    first_party: dict[int, list[Target]] = field(default_factory=dict)

    def first_party_targets(self, site: MockSite) -> list[Target]:
        """The targets of ``site`` that are the project's own code."""
        key = id(site)
        if key not in self.first_party:
            self.first_party[key] = [t for t in site.targets if self.resolver.is_first_party(t.value)]
        return self.first_party[key]

    def statement(self, node: ast.AST) -> str:
        text = ast.get_source_segment(self.source, node) or ""
        return text

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
    from mockpolicy.checks import first_party, tautology

    return [first_party.check, tautology.check]


class Engine:
    """Analyses files of one project."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.index = ModuleIndex(project.source_roots)
        self.resolver = Resolver(project, self.index)
        self.checks = _checks()

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
        if not any(word in data for word in _MOCK_WORDS):
            return []
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

    def _analyse_tree(self, path: str, source: str, tree: ast.Module) -> list[Finding]:
        name, is_package = module_name_for(Path(path), self.project.source_roots)
        info = summarize(name, Path(path), is_package, tree)
        self.index.add(info)
        module = TestModule(tree, info, self.resolver)
        analysis = Analysis(path, source, module, self.resolver, Annotations(source))
        findings: list[Finding] = []
        for check in self.checks:
            findings.extend(check(analysis))
        findings.sort()
        return findings


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


def engine_for(path: str | Path) -> Engine:
    """The engine of the project containing ``path`` (cached per root).

    Raises ``mockpolicy.project.ConfigError`` when the project's configuration is broken.
    """
    root = find_root(Path(path))
    engine = _ENGINES.get(root)
    if engine is None:
        engine = _ENGINES[root] = Engine(load_project(root))
    return engine
