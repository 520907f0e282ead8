"""The known subclasses of a project class: the classes of the project (and of
the file under analysis) that name it among their bases, directly or through
other project classes.

Mixins have no attributes of their own for what their host classes provide;
``patch.object(Mixin, "client", create=True)`` names what every host has. The
search reads only the project modules whose text names the class among the
bases of a class statement, or imports it under another name.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from mockpolicy.deps import index_fact
from mockpolicy.resolve import Resolver
from mockpolicy.symbols import ClassInfo, Kind, ModuleInfo, Scope, Value

MAX_MODULES = 400  # modules read for one class name: beyond that the search gives up


class Subclasses:
    """Finds subclasses for one resolver (one engine); remembers which modules
    mention which names."""

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self._headers: dict[str, tuple[dict[str, list[str]], str]] = {}  # package -> (header_index, its fact)
        self._known: dict[tuple[int, int], tuple[list[ClassInfo], bool]] = {}  # (hosts, the project searched)

    def provide(self, cls: ClassInfo, name: str, extra: ModuleInfo | None = None) -> bool:
        """Whether a known subclass of ``cls`` (in the project, or in ``extra``,
        the file under analysis) defines or inherits ``name`` from elsewhere."""
        for sub in self._subclasses(cls, extra):
            found = self.resolver.attribute(Value(Kind.CLASS, module=sub.module, qualname=sub.qualname, cls=sub), name)
            if found.kind is not Kind.MISSING or name in sub.instance_attrs:
                return True
        return False

    def override(self, cls: ClassInfo, name: str, inherited: Value) -> bool:
        """Whether a known subclass of ``cls`` in the project has ``name`` as
        something other than ``inherited`` (its own override, or another base's)."""
        return self._any_overrides(self._subclasses(cls, None), name, inherited)

    def _any_overrides(self, subclasses: Iterator[ClassInfo], name: str, inherited: Value) -> bool:
        for sub in subclasses:
            found = self.resolver.attribute(Value(Kind.CLASS, module=sub.module, qualname=sub.qualname, cls=sub), name)
            if found.kind is not Kind.MISSING and (found.module, found.qualname) != (inherited.module, inherited.qualname):
                return True
        return False

    def overridden_by_the_tests(self, cls: ClassInfo, name: str, inherited: Value, test_file: ModuleInfo) -> bool:
        """Whether a subclass of ``cls`` defined by the tests (in the file under
        analysis, ``test_file``, or in a test module of its top-level package or
        of ``cls``'s whose class headers name ``cls``) has ``name`` as something
        other than ``inherited``: a test double (python-telegram-bot's
        ``OfflineRequest(BaseRequest)`` overriding ``do_request``)."""
        short = cls.qualname.rpartition(".")[2]
        project = self.resolver.project
        mentioning = list(dict.fromkeys(
            module for source in (cls.module, test_file.name) for module in self._modules_mentioning(source, short)
            if module != test_file.name and project.is_test_code(module)
        ))
        return self._any_overrides(self._subclasses(cls, test_file, mentioning=mentioning), name, inherited)

    def known(self, cls: ClassInfo, extra: ModuleInfo | None = None) -> list[ClassInfo]:
        """The known subclasses of ``cls`` (of the project, or of ``extra``, the
        file under analysis), at any depth; found once per file (``forget_file``).
        A class of ``extra`` itself is looked for in ``extra`` first; then the
        code under test is searched, never the suite's other test modules:
        reading them into the index would make memory grow with the suite, and
        a test module's mixins are combined in it, or in the test module that
        imports them (``extra``)."""
        key = (id(cls), id(extra))
        known = self._known.get(key)
        if known is None:
            found: list[ClassInfo] = []
            if extra is not None and cls.module == extra.name:
                found = list(self._subclasses(cls, extra, search=False))
            searched = not found
            if searched:
                found = list(self._subclasses(cls, extra, tests=False))
            known = self._known[key] = (found, searched)
        elif known[1]:
            self._header_index(cls.module)  # the search's dependency, noted again
        return known[0]

    def forget_file(self) -> None:
        """Drop what was found for the file under analysis (its classes die with it)."""
        self._known.clear()

    def _subclasses(
        self, cls: ClassInfo, extra: ModuleInfo | None, search: bool = True, tests: bool = True,
        mentioning: list[str] | None = None,
    ) -> Iterator[ClassInfo]:
        """The subclasses of ``cls`` in ``extra`` and in the modules ``mentioning``
        it (by default those of its package whose class headers name it)."""
        short = cls.qualname.rpartition(".")[2]
        if mentioning is None:
            mentioning = self._modules_mentioning(cls.module, short) if search else []
        if not tests:
            mentioning = [name for name in mentioning if not self.resolver.project.is_test_code(name)]
        modules = [self.resolver.index.get(name) for name in mentioning]
        if extra is not None:
            modules.append(extra)
        targets, seen = {id(cls)}, set()
        candidates = [c for info in modules if info is not None for c in _classes(info)]
        grew = True
        while grew:  # a subclass of a subclass counts too
            grew = False
            for candidate, scope in candidates:
                if id(candidate) in seen or candidate is cls:
                    continue
                scope = candidate.bases_scope or scope
                for base in candidate.bases:
                    value = self.resolver.evaluate(base, scope)
                    if value.kind is Kind.CLASS and value.cls is not None and id(value.cls) in targets:
                        seen.add(id(candidate))
                        targets.add(id(candidate))
                        grew = True
                        yield candidate
                        break

    def _modules_mentioning(self, module: str, word: str) -> list[str]:
        """Project modules in the top-level package of ``module`` whose class
        statements name ``word`` in their headers, or that import it under
        another name (``_header_words``), in path order, at most ``MAX_MODULES``."""
        return self._header_index(module).get(word, [])[:MAX_MODULES]

    def _header_index(self, module: str) -> dict[str, list[str]]:
        """``header_index`` of the top-level package of ``module``, read once per
        engine; each use notes it as a dependency (``("c", "", top)``)."""
        top = module.partition(".")[0]
        known = self._headers.get(top)
        if known is None:
            index = header_index(self.resolver.index.source_roots, top)
            known = self._headers[top] = (index, index_fact(index))
        self.resolver.tracker.observe(("c", "", top), known[1])
        return known[0]


def header_index(source_roots: Sequence[Path], top: str) -> dict[str, list[str]]:
    """For the package ``top``: each word of its modules' class headers (and
    each name imported under another: ``_header_words``), with the modules
    holding it, in path order. Read once per engine, however many classes are
    looked for."""
    index: dict[str, list[str]] = {}
    for root in source_roots:
        base = root / top
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*.py")):
            try:
                data = path.read_bytes()
            except OSError:
                continue
            name = _module_name(root, path)
            for word in _header_words(data):
                index.setdefault(word, []).append(name)
        break  # the first root holding the package is the one imported
    return index


# A class statement's header from its parenthesis up to the colon (its bases,
# ``with_metaclass(Meta, Base)`` included), and a name imported as another.
# Both patterns start with a literal, which ``re`` finds by a fast scan; the
# word boundary before ``class`` and the word before `` as`` are checked per
# match (a leading ``\b`` or ``\w+`` makes ``re`` try every byte: 40x slower).
_CLASS_HEADER = re.compile(rb"class\s+\w+\s*\(([^:]*)")
_AS = re.compile(rb"as(?=\s+\w)")  # consumes only "as": ``quotas as q`` has two
_WORD_AT_END = re.compile(rb"(\w+)\Z")
_WORD = re.compile(rb"\w+")
_LONGEST_WORD = 256
_SPACE = frozenset(b" \t\r\n\f\v")


def _header_words(data: bytes) -> set[str]:
    """The words of the class headers of ``data`` and the names it imports
    under another name (``import API as VolumeAPI``)."""
    words: set[bytes] = set()
    for match in _CLASS_HEADER.finditer(data):
        start = match.start()
        if start and _is_word_byte(data[start - 1]):
            continue  # ``subclass Foo(``: not a class statement
        words.update(_WORD.findall(match.group(1)))
    for match in _AS.finditer(data):
        start = match.start()
        if not start or data[start - 1] not in _SPACE:
            continue  # ``class Foo``, ``pass x``: part of another word
        while start and data[start - 1] in _SPACE:
            start -= 1
        word = _WORD_AT_END.search(data, max(0, start - _LONGEST_WORD), start)
        if word is not None:
            words.add(word.group(1))
    return {word.decode("ascii", "replace") for word in words}


def _is_word_byte(byte: int) -> bool:
    return byte == 95 or 48 <= byte <= 57 or 65 <= byte <= 90 or 97 <= byte <= 122 or byte >= 128


def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _classes(info: ModuleInfo) -> Iterator[tuple[ClassInfo, Scope]]:
    """Every class of a module, nested ones included, with where its bases are read."""
    scope = Scope(info)
    pending = [binding.cls for binding in info.bindings.values() if binding.kind == "class" and binding.cls]
    while pending:
        cls = pending.pop()
        yield cls, scope
        pending.extend(b.cls for b in cls.members.values() if b.kind == "class" and b.cls is not None)
