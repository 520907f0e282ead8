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
from mockpolicy.index import ModuleIndex
from mockpolicy.project import Project
from mockpolicy.resolve import Resolver
from mockpolicy.symbols import Kind, Value


class Libraries:
    """Resolves dotted paths into installed libraries; built on first use."""

    def __init__(self, project: Project, defer_bodies: bool = False, tracker: Tracker | None = None) -> None:
        self.project = project
        self.defer_bodies = defer_bodies
        self.tracker = tracker
        self._resolver: Resolver | None = None

    @property
    def resolver(self) -> Resolver:
        if self._resolver is None:
            roots = library_roots(self.project)
            outside = Project(self.project.root, frozenset(), roots, ())
            self._resolver = Resolver(outside, ModuleIndex(roots, self.defer_bodies, self.tracker, tag="l"))
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
