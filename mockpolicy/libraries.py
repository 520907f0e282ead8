"""Functions of installed libraries (the standard library and site-packages),
read from their source like the project's own, never imported.

The search path is the running interpreter's ``sys.path`` minus the project's
own folders: under pylint that is the project's environment; for the
``mockpolicy`` command, the environment it is installed in.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mockpolicy.deps import Tracker
from mockpolicy.index import ModuleIndex, SummaryStore
from mockpolicy.project import Project
from mockpolicy.resolve import Resolver
from mockpolicy.symbols import Kind, Value


class Libraries:
    """Resolves dotted paths into installed libraries; built on first use."""

    def __init__(
        self, project: Project, defer_bodies: bool = False, tracker: Tracker | None = None,
        store: SummaryStore | None = None,
    ) -> None:
        self.project = project
        self.defer_bodies = defer_bodies
        self.tracker = tracker
        self.store = store
        self._skeletons = store is not None
        self._resolver: Resolver | None = None

    @property
    def skeletons(self) -> bool:
        """Whether library modules are read from their skeletons (see ``ModuleIndex``)."""
        return self._skeletons

    @skeletons.setter
    def skeletons(self, wanted: bool) -> None:
        self._skeletons = wanted
        if self._resolver is not None:
            self._resolver.index.skeletons = wanted

    @property
    def resolver(self) -> Resolver:
        if self._resolver is None:
            roots = library_roots(self.project)
            outside = Project(self.project.root, frozenset(), roots, ())
            self._resolver = Resolver(
                outside, ModuleIndex(roots, self.defer_bodies, self.tracker, tag="l", store=self.store)
            )
            self._resolver.index.skeletons = self._skeletons
        return self._resolver

    def function(self, dotted: str) -> Value | None:
        """The library function or method ``dotted`` names, when its source is readable."""
        value = self.resolver.resolve_dotted(dotted)
        if value.kind is Kind.FUNCTION and value.function is not None:
            return value
        return None


def library_roots(project: Project) -> tuple[Path, ...]:
    """The folders installed libraries are searched in: ``sys.path`` without the project's own."""
    own = {project.root, *project.source_roots, *project.test_paths}
    roots: list[Path] = []
    for entry in sys.path:
        path = Path(entry or ".").resolve()
        if path.is_dir() and path not in own and path not in roots:
            roots.append(path)
    return tuple(roots)
