"""Functions of installed libraries (the standard library and site-packages),
read from their source like the project's own, never imported.

The search path is the running interpreter's ``sys.path`` minus the project's
own folders: under pylint that is the project's environment; for the
``mockpolicy`` command, the environment it is installed in.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mockpolicy.index import ModuleIndex
from mockpolicy.project import Project
from mockpolicy.resolve import Resolver
from mockpolicy.symbols import Kind, Value


class Libraries:
    """Resolves dotted paths into installed libraries; built on first use."""

    def __init__(self, project: Project, defer_bodies: bool = False) -> None:
        self.project = project
        self.defer_bodies = defer_bodies
        self._resolver: Resolver | None = None

    @property
    def resolver(self) -> Resolver:
        if self._resolver is None:
            own = {self.project.root, *self.project.source_roots, *self.project.test_paths}
            roots: list[Path] = []
            for entry in sys.path:
                path = Path(entry or ".").resolve()
                if path.is_dir() and path not in own and path not in roots:
                    roots.append(path)
            outside = Project(self.project.root, frozenset(), tuple(roots), ())
            self._resolver = Resolver(outside, ModuleIndex(tuple(roots), self.defer_bodies))
        return self._resolver

    def function(self, dotted: str) -> Value | None:
        """The library function or method ``dotted`` names, when its source is readable."""
        value = self.resolver.resolve_dotted(dotted)
        if value.kind is Kind.FUNCTION and value.function is not None:
            return value
        return None
