"""Functions of installed libraries (the standard library and site-packages),
read from their source like the project's own, never imported.

The search path is the running interpreter's ``sys.path`` minus the project's
own folders: under pylint that is the project's environment; for the
``mockpolicy`` command, the environment it is installed in, and before its
installed packages those of the virtual environment the shell has activated
(``VIRTUAL_ENV``) when that is another one (mockpolicy installed with pipx).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from packaging.utils import canonicalize_name

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
    """The folders installed libraries are searched in: ``sys.path`` without the
    project's own, with the activated environment's packages (``active_environment``)
    before the interpreter's own installed packages."""
    own = {project.root, *project.source_roots, *project.test_paths}
    entries = [Path(entry or ".") for entry in sys.path]
    first_installed = next((i for i, entry in enumerate(entries) if entry.name in _INSTALLED), len(entries))
    entries[first_installed:first_installed] = active_environment()
    roots: list[Path] = []
    for entry in entries:
        path = entry.resolve()
        if path.is_dir() and path not in own and path not in roots:
            roots.append(path)
    return tuple(roots)


_INSTALLED = ("site-packages", "dist-packages")


def missing_requirements(project: Project) -> list[str]:
    """The names of the project's declared requirements (``Project.requirements``)
    that no folder libraries are read from has installed (no ``.dist-info``,
    ``.egg-info`` or ``.egg-link`` of that name): what the tests import from
    them cannot be read, so it is not known."""
    installed: set[str] = set()
    for root in library_roots(project):
        try:
            entries = os.listdir(root)
        except OSError:
            continue
        for entry in entries:
            stem, dot, kind = entry.rpartition(".")
            if dot and kind in ("dist-info", "egg-info", "egg-link"):
                installed.add(canonicalize_name(stem.split("-", 1)[0]))
    return [
        requirement.name for requirement in project.requirements
        if canonicalize_name(requirement.name) not in installed
    ]


def active_environment() -> list[Path]:
    """The package folders of the virtual environment named by ``VIRTUAL_ENV``
    when it is not the running interpreter's, with the folders its ``.pth``
    files list (editable installs): found by reading its files, never by
    running its interpreter; empty when none is activated."""
    named = os.environ.get("VIRTUAL_ENV")
    if not named:
        return []
    folder = Path(named)
    try:
        if not folder.is_dir() or folder.resolve() == Path(sys.prefix).resolve():
            return []
        packages = sorted(folder.glob("lib/python3*/site-packages")) + [folder / "Lib" / "site-packages"]
    except OSError:
        return []
    found: list[Path] = []
    for directory in packages:
        if directory.is_dir():
            found.append(directory)
            found += _pth_folders(directory)
    return found


def _pth_folders(directory: Path) -> list[Path]:
    """The folders the ``.pth`` files of ``directory`` list, one per line (lines
    that run code, ``import ...``, are skipped: nothing is executed)."""
    folders: list[Path] = []
    for pth in sorted(directory.glob("*.pth")):
        try:
            lines = pth.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            continue
        for line in lines:
            line = line.strip()
            if line and not line.startswith(("#", "import ", "import\t")):
                folders.append(directory / line)
    return folders
