"""Reading coverage.py's data file (``.coverage``, SQLite) with SQL: the one
place that knows its tables.

Per-test data comes from ``pytest --cov-branch --cov-context=test``: each
context is ``NODEID|setup``, ``NODEID|run`` or ``NODEID|teardown``, possibly
after a static context (``[run] context = shard1``) and a ``|``. Only the
``run`` phase counts as a test executing code. coverage.py's own
``[run] dynamic_context = "test_function"`` names each test by its module and
qualified name (``tests.test_jobs.TestJobs.test_claim``); those are mapped to
node ids through the test modules given (parametrised cases share one
context). The file is opened read-only and read file by file, only for the
files a check needs.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Any

from mockpolicy.errors import MockpolicyError

_PHASES = ("|run", "|setup", "|teardown")
_REQUIRED_TABLES = frozenset({"meta", "file", "context", "arc"})
HOW_TO_RUN = "pytest --cov=<your package> --cov-branch --cov-context=test"

Arc = tuple[int, int]


class CoverageDataError(MockpolicyError):
    """The data file is missing, unreadable or lacks what ``branches`` needs."""


def node_id_of(context: str) -> tuple[str, str] | None:
    """``(node id, phase)`` of a pytest-cov context, a static prefix dropped; None for others."""
    for phase in _PHASES:
        if context.endswith(phase):
            node = context[: -len(phase)]
            while "|" in node and "::" not in node.partition("|")[0]:
                node = node.partition("|")[2]  # a static context (shard1|...)
            return (node, phase[1:]) if node else None
    return None


def test_function_node(context: str, modules: Mapping[str, str]) -> str | None:
    """The node id a ``dynamic_context = "test_function"`` context names
    (``pkg.test_mod.TestX.test_y`` -> ``pkg/test_mod.py::TestX::test_y``), when
    its module is one of ``modules``; a static prefix (``shard1|``) is dropped."""
    name = context.rpartition("|")[2]
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        path = modules.get(".".join(parts[:cut]))
        if path is not None:
            return "::".join([path, *parts[cut:]])
    return None


def _no_tests(shown: str, others: list[str]) -> str:
    """Why data holds no usable per-test contexts, precisely."""
    fix = f"re-run with --cov-context=test (`{HOW_TO_RUN}`) or coverage.py's `[run] dynamic_context = \"test_function\"`"
    if not others:
        return (f"{shown} has no per-test contexts (it was recorded without any); {fix}; on Python 3.14+ also set "
                '`[run] core = "ctrace"`, since the sys.monitoring core drops them.')
    sample = ", ".join(repr(c) for c in sorted(others)[:2])
    return (f"{shown} has {len(others)} context(s) such as {sample}, none naming a test of the files checked "
            f"(a static context, or tests outside the paths given); {fix}.")


class CoverageData:
    """One data file. ``tests`` maps each pytest node id to its ``run`` context ids."""

    def __init__(self, path: Path, root: Path, modules: Mapping[str, str] | None = None) -> None:
        """``modules`` maps the dotted names of the test modules to their paths
        relative to ``root``, for coverage.py's ``test_function`` contexts."""
        self.path = path
        self.root = root
        shown = str(path)
        if path.is_dir():
            raise CoverageDataError(f"{shown} is a folder, not a coverage data file; name the file, e.g. {shown}/.coverage.")
        if not path.is_file():
            raise CoverageDataError(f"{shown} does not exist; create it with `{HOW_TO_RUN}`.")
        try:
            self.recorded_ns = path.stat().st_mtime_ns  # when the data was last written
            self._db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
            tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except OSError as exc:
            raise CoverageDataError(f"{shown} cannot be read ({exc.strerror or exc}).") from None
        except sqlite3.Error as exc:
            raise CoverageDataError(f"{shown} is not a coverage.py data file ({exc}).") from None
        if not _REQUIRED_TABLES <= tables:
            raise CoverageDataError(f"{shown} is not a coverage.py data file (it has no arc, file or context table).")
        meta = dict(self._rows("SELECT key, value FROM meta"))
        if meta.get("has_arcs") not in ("1", "true", "True"):
            raise CoverageDataError(
                f"{shown} holds line coverage only; re-run with --cov-branch (`{HOW_TO_RUN}`)."
            )
        self.tests: dict[str, set[int]] = {}
        others: list[str] = []
        for context_id, context in self._rows("SELECT id, context FROM context"):
            parsed = node_id_of(str(context))
            if parsed is not None and parsed[1] == "run":
                self.tests.setdefault(parsed[0], set()).add(context_id)
            elif parsed is None and context:
                others.append(str(context))
                node = test_function_node(str(context), modules or {})
                if node is not None:
                    self.tests.setdefault(node, set()).add(context_id)
        if not self.tests:
            raise CoverageDataError(_no_tests(shown, others))
        columns = {row[1] for row in self._rows("PRAGMA table_info(arc)")}
        if not {"file_id", "context_id", "fromno", "tono"} <= columns:
            raise CoverageDataError(f"{shown} is not a coverage.py data file (its arc table has other columns).")
        self.files: dict[str, int] = {}
        self.recorded_here: set[str] = set()  # files of ``files`` measured in this checkout (by absolute path)
        for file_id, measured in self._rows("SELECT id, path FROM file"):
            relative = _project_path(str(measured), root, path.parent)
            self.files[relative] = file_id
            if Path(str(measured)).is_absolute() and _inside(Path(str(measured)), root):
                self.recorded_here.add(relative)
        self._arcs: dict[int, dict[int, set[Arc]]] = {}

    def _rows(self, sql: str, parameters: Iterable[object] = ()) -> list[tuple[Any, ...]]:
        try:
            return list(self._db.execute(sql, tuple(parameters)))
        except sqlite3.Error as exc:
            raise CoverageDataError(f"{self.path} cannot be read ({exc}).") from None

    def file_id(self, relative: str) -> int | None:
        """The id of a measured file given relative to the project root; a file
        measured elsewhere (another checkout, combined data) matches by suffix."""
        found = self.files.get(relative)
        if found is not None:
            return found
        suffix = "/" + relative
        matches = [file_id for path, file_id in self.files.items() if path.endswith(suffix)]
        return matches[0] if len(matches) == 1 else None

    def arcs(self, file_id: int, contexts: Collection[int]) -> dict[int, set[Arc]]:
        """Executed arcs of one file in ``contexts``, by context id (read once per
        file and context; a suite's full data holds millions of rows, of which
        a verdict needs the few its tests made)."""
        cached = self._arcs.setdefault(file_id, {})
        wanted = sorted(set(contexts) - cached.keys())
        for start in range(0, len(wanted), _BATCH):
            batch = wanted[start:start + _BATCH]
            for context_id in batch:
                cached[context_id] = set()
            marks = ", ".join("?" * len(batch))
            for context_id, fromno, tono in self._rows(
                f"SELECT context_id, fromno, tono FROM arc WHERE file_id = ? AND context_id IN ({marks})",
                (file_id, *batch),
            ):
                cached[context_id].add(_arc(self.path, fromno, tono))
        return {context: cached[context] for context in contexts if cached.get(context)}

    def contexts_taking(self, file_id: int, arcs: Collection[Arc], lines: Collection[int]) -> set[int]:
        """The contexts that executed one of ``arcs``, or ran one of ``lines``
        (as an arc's start or end), in one file."""
        found: set[int] = set()
        for fromno, tono in arcs:
            found.update(row[0] for row in self._rows(
                "SELECT context_id FROM arc WHERE file_id = ? AND fromno = ? AND tono = ?", (file_id, fromno, tono)
            ))
        wanted = sorted(line for line in lines if line > 0)
        for start in range(0, len(wanted), _BATCH // 2):
            batch = wanted[start:start + _BATCH // 2]
            marks = ", ".join("?" * len(batch))
            found.update(row[0] for row in self._rows(
                f"SELECT DISTINCT context_id FROM arc WHERE file_id = ? AND (fromno IN ({marks}) OR tono IN ({marks}))",
                (file_id, *batch, *batch),
            ))
        return found

    def recorded_lines(self, file_id: int) -> set[int]:
        """Every line number (made positive) an arc of one file starts or ends at, in any context."""
        numbers: set[int] = set()
        for (number,) in self._rows(
            "SELECT fromno FROM arc WHERE file_id = ? UNION SELECT tono FROM arc WHERE file_id = ?", (file_id, file_id)
        ):
            if not isinstance(number, int):
                raise CoverageDataError(f"{self.path} holds an arc that is not a pair of line numbers.")
            numbers.add(abs(number))
        return numbers

    def matching_tests(self, test_id: str) -> list[str]:
        """The node ids in the data that ``test_id`` names: the test itself, its
        parametrised cases, every test of a class, or every test of a file."""
        test_id = test_id.strip()
        found = [
            node for node in self.tests
            if node == test_id or node.startswith(test_id + "[") or node.startswith(test_id + "::")
        ]
        return sorted(found)

    def close(self) -> None:
        self._db.close()


_BATCH = 500  # ids per ``IN (...)``: under SQLite's oldest limit of 999 parameters


def _arc(path: Path, fromno: object, tono: object) -> Arc:
    if not (isinstance(fromno, int) and isinstance(tono, int)):
        raise CoverageDataError(f"{path} holds an arc that is not a pair of line numbers.")
    return fromno, tono


def executed_lines(arcs: Iterable[Arc]) -> set[int]:
    """Lines that ran, read from arcs (negative numbers are entries and exits)."""
    lines: set[int] = set()
    for start, end in arcs:
        if start > 0:
            lines.add(start)
        if end > 0:
            lines.add(end)
    return lines


def _inside(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root)
    except (ValueError, OSError):
        return False
    return True


def _project_path(measured: str, root: Path, data_folder: Path) -> str:
    """A measured file's path relative to the project root: as recorded; or,
    for relative paths (``[run] relative_files``), from the root or the data
    file's folder; or, for a checkout that moved, the longest tail of the path
    that names a file of the project. Otherwise the path as recorded."""
    path = Path(measured)
    candidates = [path] if path.is_absolute() else [root / path, data_folder / path]
    for candidate in candidates:
        try:
            return candidate.resolve().relative_to(root).as_posix()
        except (ValueError, OSError):
            continue
    parts = path.parts
    for start in range(1, len(parts)):
        tail = Path(*parts[start:])
        if (root / tail).is_file():
            return tail.as_posix()
    return path.as_posix()
