"""Where a project lives, which packages are its own, where its tests are.

Everything is read from files (pyproject.toml, setup.cfg, setup.py, pytest
configuration, the directory tree); nothing is imported. ``[tool.mockpolicy]``
in pyproject.toml overrides what is detected.
"""

from __future__ import annotations

import ast
import configparser
import fnmatch
import functools
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from mockpolicy.errors import MockpolicyError
from mockpolicy.printable import displayable_name
from mockpolicy.rules import RULES_BY_SYMBOL
from mockpolicy.selection import Selection, from_settings
from mockpolicy.source import MAX_SOURCE_BYTES, SourceError, declares_namespace, read_source
from mockpolicy.vocabulary import callee_name

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

ROOT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py")
TEST_DIR_NAMES = ("tests", "test", "testing", "t")
NOT_CODE_DIRS = frozenset(
    {"docs", "doc", "examples", "example", "benchmarks", "scripts", "tools", "build", "dist",
     "baselines", "site-packages", "node_modules"}
)

DEFAULT_BASELINE = "baselines/mockpolicy.json"

# The keys [tool.mockpolicy] accepts; docs pages may only name these.
OPTIONS: dict[str, str] = {
    "first-party": "list of package names that are the project's own code (top-level, or dotted inside a shared namespace package)",
    "tests": "list of paths (relative to the project root) that `mockpolicy check` checks by default",
    "exclude": "list of glob patterns (relative to the project root) of files and folders to skip",
    "baseline": f"path of the baseline file, relative to the project root (default {DEFAULT_BASELINE})",
    "require-spec": 'which mocks need a spec: "all" (default), "first-party" (mocks of project code) or "off"',
    "max-file-size": "largest file analysed, in MiB (default 10); a larger one is reported as mock-analysis-error",
    "select": "rules to run (symbols, ids, id prefixes such as W73, or ALL; default: all)",
    "ignore": "rules not to run, named as in select",
    "extend-select": "rules to run in addition to select",
    "cache-dir": "folder of the persistent cache, relative to the project root (default .mockpolicy_cache)",
    "per-file-ignores": 'table of path glob -> rules not to run there, e.g. {"tests/legacy/*" = ["unspecced-mock"]}',
    "mock-helpers": "list of dotted names of the project's own patching helpers that are not recognised by themselves",
    "record": "true (or a path inside the project) to make every pytest run write a runtime record "
    "(default false; the path defaults to .mockpolicy/runtime.json)",
}
MAX_FILE_SIZE_LIMIT = 1024  # MiB: beyond this the setting is a mistake, not a choice
REQUIRE_SPEC_CHOICES = ("all", "first-party", "off")


def resolved(path: str | Path) -> Path:
    """``path`` made absolute with symlinks followed as far as they go: a symlink
    loop or an unreadable folder leaves the rest of the path as written."""
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop, before Python 3.13
        return Path(os.path.abspath(path))


class ConfigError(MockpolicyError):
    """A configuration file is unreadable or invalid; the message names the file."""


_SHIPPABLE_SUPPORT = frozenset({"test", "testing"})  # package names of test support a project may ship
_CODE_TEST_FOLDERS = frozenset({"tests", "test"})  # a package's own test folders (nova/tests) hold no code under test


@dataclass(frozen=True)
class Project:
    """A project under analysis.

    ``first_party`` holds top-level import names, and dotted names of the
    project's packages inside a namespace package it shares with others
    (``google.auth``); ``source_roots`` the
    directories searched, in order, for the project's modules; ``test_paths``
    what ``mockpolicy check`` analyses when given no paths.
    """

    root: Path
    first_party: frozenset[str]
    source_roots: tuple[Path, ...]
    test_paths: tuple[Path, ...]
    settings: dict[str, Any] = field(default_factory=dict, compare=False)
    pytest_plugins: tuple[str, ...] = ()
    test_paths_from: str = ""  # why ``test_paths`` are what they are, for the user
    selection: Selection = field(default_factory=lambda: Selection(frozenset(RULES_BY_SYMBOL)), compare=False)
    # The distributions the project needs at run time, as its metadata or its
    # requirements.txt declares them (``declared_requirements``).
    requirements: tuple[Requirement, ...] = field(default=(), compare=False)

    def is_excluded(self, path: Path) -> bool:
        """Whether ``path`` (or a folder above it, up to the root) matches ``exclude``."""
        patterns = self.settings.get("exclude", [])
        if not patterns:
            return False
        try:
            relative = resolved(path).relative_to(self.root)
        except ValueError:
            return False
        candidates = [relative.as_posix(), *(p.as_posix() for p in relative.parents if p.parts)]
        return any(fnmatch.fnmatchcase(c, pattern.rstrip("/")) for c in candidates for pattern in patterns)

    @property
    def require_spec(self) -> str:
        return str(self.settings.get("require-spec", "all"))

    @property
    def mock_helpers(self) -> frozenset[str]:
        """Dotted names declared as patching helpers (``mock-helpers``)."""
        return frozenset(self.settings.get("mock-helpers", []))

    @property
    def max_file_bytes(self) -> int:
        """The size above which a file is not analysed (``max-file-size``)."""
        return int(self.settings.get("max-file-size", MAX_SOURCE_BYTES // (1024 * 1024))) * 1024 * 1024

    @property
    def baseline_path(self) -> Path:
        return self.root / str(self.settings.get("baseline", DEFAULT_BASELINE))

    def is_first_party(self, module: str) -> bool:
        return in_packages(module, self.first_party)

    def is_code_under_test(self, module: str) -> bool:
        """Whether ``module`` is the project's own code that its tests exercise:
        first-party, and not the tests' own fakes and helpers (but shipped
        test support is code under test)."""
        return self.is_first_party(module) and (
            not self.is_test_code(module) or self.is_shipped_test_support(module)
        )

    def is_test_code(self, module: str) -> bool:
        """Whether ``module`` (a dotted name) is part of the tests rather than the
        code under test: a package named like a test folder on its path, a
        ``test_*``/``*_test`` module or a ``conftest``."""
        parts = module.split(".")
        return any(part in TEST_DIR_NAMES or part.startswith("test_") for part in parts) or (
            parts[-1].endswith("_test") or parts[-1] in ("conftest", "tests")
        )

    def is_shipped_test_support(self, module: str) -> bool:
        """Whether ``module`` sits in a ``test``/``testing`` package of the code
        itself, outside the test paths, and is named as no test (Django's
        ``django.test.runner``, ``celery.contrib.testing``): code of the tests
        by its name, but shipped, and tested by the suite like any other code.
        A module named ``test`` (nova's ``nova/test.py``), a ``tests`` folder
        and a test path holding the whole package are the tests'."""
        parts = module.split(".")
        if any(part in ("tests", "t") or part.startswith("test_") for part in parts) or (
            parts[-1].endswith("_test") or parts[-1] in ("conftest", "test", "testing")
        ):
            return False
        first = next((i for i, part in enumerate(parts[:-1]) if part in _SHIPPABLE_SUPPORT), None)
        if first is None or ".".join(parts[:first + 1]) in self.test_folders:
            return False
        tests = [resolved(t) for t in self.test_paths]
        for root in self.source_roots:
            folder = resolved(root.joinpath(*parts[:first + 1]))
            top = resolved(root / parts[0])
            if any(t == folder or t in folder.parents for t in tests if t != top and t not in top.parents):
                return False
        return True

    @functools.cached_property
    def test_folders(self) -> frozenset[str]:
        """The first-party packages named ``test``/``testing`` (dotted) that hold
        a test module at any depth (``twisted.internet.test``): the tests'
        folders, not test support the code ships. Walked once per project; a
        part of the cache's configuration key."""
        names: set[str] = set()
        for root in self.source_roots:
            for name in sorted(self.first_party):
                package = root.joinpath(*name.split("."))
                if not package.is_dir():
                    continue
                for path in package.rglob("*.py"):
                    if path.name.startswith("test_") or path.name.endswith("_test.py"):
                        relative = path.relative_to(root).parts[:-1]
                        names.update(
                            ".".join(relative[:i + 1]) for i, part in enumerate(relative) if part in _SHIPPABLE_SUPPORT
                        )
        return frozenset(names)

    @property
    def import_roots(self) -> tuple[Path, ...]:
        """Where imports are looked for: the source roots, then the folders
        pytest's default import mode puts on ``sys.path`` for the tests: each
        test path's first folder upwards without an ``__init__.py`` (so
        ``from conftest import helper`` and ``from testing import path`` in
        ``tests/`` find ``tests/conftest.py`` and ``tests/testing/path.py``)."""
        extra: list[Path] = []
        for path in self.test_paths:
            folder = path if path.is_dir() else path.parent
            while (folder / "__init__.py").is_file() and folder != self.root and folder.parent != folder:
                folder = folder.parent
            if folder.is_dir() and folder not in self.source_roots and folder not in extra:
                extra.append(folder)
        return (*self.source_roots, *extra)

    def code_under_test(self) -> list[Path]:
        """The project's first-party source files that are not tests (no
        ``test_*.py``, ``*_test.py`` or ``conftest.py``, nothing in a package's
        own ``tests``/``test`` folder, under a test path or excluded), sorted."""
        tests = [resolved(p) for p in self.test_paths]
        files: list[Path] = []
        for root in self.source_roots:
            for name in sorted(self.first_party):
                package = root.joinpath(*name.split("."))
                single = package.with_name(package.name + ".py")
                candidates = sorted(package.rglob("*.py")) if package.is_dir() else [single] if single.is_file() else []
                # A test path holding the whole package (the project's root) says nothing about its files.
                inside = [t for t in tests if t not in resolved(package).parents and t != resolved(package)]
                for path in candidates:
                    if path.name.startswith("test_") or path.name.endswith("_test.py") or path.name == "conftest.py":
                        continue
                    if self.is_excluded(path):
                        continue
                    relative = path.relative_to(package).parts[:-1] if package.is_dir() else ()
                    if any(part in _CODE_TEST_FOLDERS for part in relative):
                        continue
                    absolute = resolved(path)
                    if any(absolute == t or t in absolute.parents for t in inside):
                        continue
                    files.append(path)
        return files

    def code_of_the_tests(self) -> list[Path]:
        """The Python files of the tests, sorted: those under the test paths,
        and the first-party files that are not code under test (a package's
        ``test.py``, ``tests/`` support modules, ``conftest.py``), none excluded."""
        found = {p for t in self.test_paths for p in (t.rglob("*.py") if t.is_dir() else [t]) if p.suffix == ".py"}
        under_test = set(self.code_under_test())
        for root in self.source_roots:
            for name in sorted(self.first_party):
                package = root.joinpath(*name.split("."))
                if package.is_dir():
                    found.update(p for p in package.rglob("*.py") if p not in under_test)
        return sorted(p for p in found if p.is_file() and not self.is_excluded(p))

    def relative(self, path: str | Path) -> str:
        """``path`` as a POSIX path relative to the root when it is inside it (a
        symlinked file keeps its own name, not its target's). A name that is not
        valid UTF-8 shows its undecodable bytes as ``\\xNN``, so every output
        format and the baseline can hold it."""
        absolute = resolved(Path(path).parent) / Path(path).name
        try:
            shown = absolute.relative_to(self.root).as_posix()
        except ValueError:
            shown = absolute.as_posix()
        return displayable_name(shown)


def find_root(start: Path) -> Path:
    """The nearest directory at or above ``start`` holding project metadata.

    Falls back to the nearest directory holding ``.git``, then to the nearest
    one at or above ``start`` that is not a package (no ``__init__.py``): the
    folder pytest's and pylint's default import mode put on ``sys.path`` for
    the tests there, from which the project's packages import.
    """
    start = resolved(start)
    if start.is_file():
        start = start.parent
    for candidate in (start, *start.parents):
        if any((candidate / marker).is_file() for marker in ROOT_MARKERS):
            return candidate
    for candidate in (start, *start.parents):
        if (candidate / ".git").exists():
            return candidate
    for candidate in (start, *start.parents):
        if not (candidate / "__init__.py").is_file():
            return candidate
    return start


def load_project(root: Path) -> Project:
    """Read the project at ``root``; raises ``ConfigError`` on a broken config file."""
    root = root.resolve()
    pyproject = _read_toml(root / "pyproject.toml")
    settings = _table(pyproject, "tool").get("mockpolicy", {})
    if not isinstance(settings, dict):
        raise ConfigError(f"{root / 'pyproject.toml'}: [tool.mockpolicy] must be a table.")
    _validate_settings(root / "pyproject.toml", settings)
    setup_cfg = _read_ini(root / "setup.cfg")

    extra_roots = _declared_source_dirs(root, pyproject, setup_cfg)
    source_roots = tuple(p for p in _unique([*extra_roots, root / "src", root]) if p.is_dir())
    test_paths, test_paths_from = _test_paths(root, settings, pyproject, setup_cfg)

    if "first-party" in settings:
        first_party = frozenset(settings["first-party"])
    else:
        first_party = _detect_first_party(root, pyproject, setup_cfg, source_roots, test_paths)
    plugins = tuple(_pytest_plugins(root, pyproject, setup_cfg))
    pylint_disabled = _pylint_disabled(pyproject)
    selection = from_settings(settings, str(root / "pyproject.toml"), pylint_disabled)
    requirements = declared_requirements(root, pyproject, setup_cfg)
    return Project(
        root, first_party, source_roots, test_paths, settings, plugins, test_paths_from, selection, requirements
    )


def declared_requirements(
    root: Path, pyproject: dict[str, Any], setup_cfg: configparser.ConfigParser,
) -> tuple[Requirement, ...]:
    """The run-time requirements the project declares: ``[project]
    dependencies``, Poetry's dependency table, setup.cfg's ``install_requires``,
    else the lines of ``requirements.txt`` (pbr's and many a setup.py's
    source). Those whose markers rule them out here (an extra's, another
    Python's) and lines that are no requirement (``-r``, URLs) are left out."""
    texts = _strings(_table(pyproject, "project").get("dependencies"))
    texts += [name for name in _table(pyproject, "tool", "poetry", "dependencies") if name.lower() != "python"]
    if setup_cfg.has_option("options", "install_requires"):
        texts += setup_cfg.get("options", "install_requires").splitlines()
    if not texts:
        try:
            listed = read_source(root / "requirements.txt")
        except SourceError:
            listed = b""
        texts = listed.decode("utf-8", "replace").splitlines()
    found: dict[str, Requirement] = {}
    for text in texts:
        text = text.split(" #", 1)[0].strip()
        if not text or text.startswith(("#", "-")):
            continue
        try:
            requirement = Requirement(text)
            if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
                continue
        except ValueError:  # InvalidRequirement, or a marker comparing what cannot be compared
            continue
        found.setdefault(canonicalize_name(requirement.name), requirement)
    return tuple(found.values())


def _pylint_disabled(pyproject: dict[str, Any]) -> list[str]:
    """The names ``[tool.pylint."messages control"] disable`` lists (a list or
    pylint's comma-separated string)."""
    pylint = _table(pyproject, "tool", "pylint")
    names: list[str] = []
    for section in ("messages control", "messages_control", "MESSAGES CONTROL"):
        raw = _table(pylint, section).get("disable")
        items = raw.split(",") if isinstance(raw, str) else _strings(raw)
        names += [item.strip() for item in items if item.strip()]
    return names


def _read_toml(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        with path.open("rb") as handle:
            data: dict[str, Any] = tomllib.load(handle)
            return data
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc}).") from exc
    except ValueError:  # an integer too long to convert
        raise ConfigError(f"{path}: not usable TOML (an integer too long to read).") from None
    except RecursionError:
        raise ConfigError(f"{path}: not usable TOML (nested too deeply).") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror}).") from exc


def _read_ini(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    if path.is_file():
        try:
            parser.read(path, encoding="utf-8")
        except (configparser.Error, UnicodeDecodeError, ValueError) as exc:
            raise ConfigError(f"{path}: not a valid INI file ({exc}).") from exc
    return parser


def _validate_settings(path: Path, settings: dict[str, Any]) -> None:
    for key, value in settings.items():
        if key not in OPTIONS:
            known = ", ".join(sorted(OPTIONS))
            raise ConfigError(f"{path}: unknown option '{key}' in [tool.mockpolicy] (known: {known}).")
        if key in ("first-party", "tests", "exclude", "select", "ignore", "extend-select", "mock-helpers") and not (
            isinstance(value, list) and all(isinstance(item, str) for item in value)
        ):
            raise ConfigError(f"{path}: [tool.mockpolicy] {key} must be a list of strings.")
        if key == "mock-helpers":
            bad = [item for item in value if not all(part.isidentifier() for part in item.split("."))]
            if bad:
                raise ConfigError(
                    f"{path}: [tool.mockpolicy] mock-helpers names {bad[0]!r}, which is not a dotted name "
                    "(e.g. 'tests.base.TestCase.mock_object')."
                )
        if key in ("baseline", "cache-dir") and not (isinstance(value, str) and value):
            raise ConfigError(f"{path}: [tool.mockpolicy] {key} must be a path (a string).")
        if key in ("baseline", "tests", "cache-dir"):
            for item in [value] if isinstance(value, str) else value:
                _check_inside(path, key, item)
        if key == "per-file-ignores" and not (
            isinstance(value, dict)
            and all(isinstance(names, list) and all(isinstance(n, str) for n in names) for names in value.values())
        ):
            raise ConfigError(f"{path}: [tool.mockpolicy] per-file-ignores must be a table of glob = [rules].")
        if key == "max-file-size" and not (
            type(value) is int and 1 <= value <= MAX_FILE_SIZE_LIMIT  # noqa: E721 - bool is an int subclass
        ):
            raise ConfigError(
                f"{path}: [tool.mockpolicy] max-file-size must be a whole number of MiB from 1 to {MAX_FILE_SIZE_LIMIT}."
            )
        if key == "record":
            if not (isinstance(value, bool) or (isinstance(value, str) and value)):
                raise ConfigError(f"{path}: [tool.mockpolicy] record must be true, false or a path (a string).")
            if isinstance(value, str):
                _check_inside(path, key, value)
        if key == "require-spec" and value not in REQUIRE_SPEC_CHOICES:
            choices = ", ".join(f'"{c}"' for c in REQUIRE_SPEC_CHOICES)
            raise ConfigError(f"{path}: [tool.mockpolicy] require-spec must be one of {choices}.")


def _table(data: dict[str, Any], *keys: str) -> dict[str, Any]:
    """The table at ``data[keys[0]][keys[1]]...``; empty when a level is missing
    or is not a table (configuration files hold any shape)."""
    for key in keys:
        value = data.get(key)
        data = value if isinstance(value, dict) else {}
    return data


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _strings(value: object) -> list[str]:
    """The strings of a list (nothing when ``value`` is not a list)."""
    return [item for item in _list(value) if isinstance(item, str)]


def _check_inside(config: Path, key: str, value: str) -> None:
    """Refuse a configured path that could lead outside the project (absolute,
    climbing with '..', or unusable), so a pull request's configuration cannot
    make mockpolicy read or write elsewhere."""
    relative = Path(value)
    if "\0" in value or relative.is_absolute() or ".." in relative.parts or (relative.parts[:1] or ("",))[0].startswith("~"):
        raise ConfigError(
            f"{config}: [tool.mockpolicy] {key} must be a path inside the project, relative to it (got {value!r})."
        )


def _unique(paths: list[Path]) -> list[Path]:
    seen: set[Path] = set()
    result = []
    for path in paths:
        absolute = resolved(path)
        if absolute not in seen:
            seen.add(absolute)
            result.append(absolute)
    return result


def _declared_source_dirs(
    root: Path, pyproject: dict[str, Any], setup_cfg: configparser.ConfigParser
) -> list[Path]:
    """Package directories named by setuptools/hatch/poetry configuration."""
    dirs: list[Path] = []
    tool = _table(pyproject, "tool")
    for where in _strings(_table(tool, "setuptools", "packages", "find").get("where")):
        dirs.append(root / where)
    package_dir = _table(tool, "setuptools", "package-dir")
    if isinstance(package_dir.get(""), str):
        dirs.append(root / package_dir[""])
    for package in _strings(_table(tool, "hatch", "build", "targets", "wheel").get("packages")):
        dirs.append((root / package).parent)
    for entry in _list(_table(tool, "poetry").get("packages")):
        if isinstance(entry, dict) and isinstance(entry.get("from"), str):
            dirs.append(root / entry["from"])
    if setup_cfg.has_option("options.packages.find", "where"):
        dirs.append(root / setup_cfg.get("options.packages.find", "where").strip())
    if setup_cfg.has_option("options", "package_dir"):
        for line in setup_cfg.get("options", "package_dir").splitlines():
            name, _, where = line.partition("=")
            if name.strip() == "" and where.strip():
                dirs.append(root / where.strip())
    return dirs


def _test_paths(
    root: Path,
    settings: dict[str, Any],
    pyproject: dict[str, Any],
    setup_cfg: configparser.ConfigParser,
) -> tuple[tuple[Path, ...], str]:
    """What ``mockpolicy check`` analyses by default, and where that came from."""
    if "tests" in settings:
        configured = tuple(root / p for p in settings["tests"])
        missing = [p for p in settings["tests"] if not (root / p).exists()]
        if missing:
            raise ConfigError(
                f"{root / 'pyproject.toml'}: [tool.mockpolicy] tests names {', '.join(map(repr, missing))}, "
                "which does not exist (nothing would be checked)."
            )
        return configured, "from [tool.mockpolicy] tests"
    declared: list[str] = []
    ini = _table(pyproject, "tool", "pytest", "ini_options")
    raw = ini.get("testpaths")
    if isinstance(raw, list):
        declared = [str(p) for p in raw]
    elif isinstance(raw, str):
        declared = raw.split()
    if not declared:
        for name, section in (("pytest.ini", "pytest"), ("tox.ini", "pytest")):
            parser = _read_ini(root / name)
            if parser.has_option(section, "testpaths"):
                declared = parser.get(section, "testpaths").split()
                break
    if not declared and setup_cfg.has_option("tool:pytest", "testpaths"):
        declared = setup_cfg.get("tool:pytest", "testpaths").split()
    found = [root / p for p in declared if (root / p).exists()]
    if found:
        return tuple(found), "from pytest testpaths"
    found = [root / name for name in TEST_DIR_NAMES if (root / name).is_dir()]
    if found:
        return tuple(found), "the project's test folder"
    return (root,), "the whole project: no tests folder or pytest testpaths found"


def in_packages(module: str, names: frozenset[str]) -> bool:
    """Whether the dotted ``module`` is one of the first-party ``names`` or
    inside one: a top-level name, or a dotted one (a namespace package's member)."""
    if module.partition(".")[0] in names:
        return True
    return "." in module and any(
        "." in name and (module == name or module.startswith(name + ".")) for name in names
    )


def _is_package_dir(path: Path) -> bool:
    """A folder with an ``__init__.py`` that is not a namespace declaration
    (``declares_namespace``: such a folder is a namespace package)."""
    init = path / "__init__.py"
    return path.is_dir() and init.is_file() and not declares_namespace(init)


def _exists_as_module(name: str, source_roots: tuple[Path, ...]) -> bool:
    """Whether a declared name is a module, a package, or a namespace package
    (a folder without ``__init__.py`` holding Python files, as poetry's
    ``src/poetry`` is) under a source root."""
    return any(
        _is_package_dir(src / name) or (src / f"{name}.py").is_file() or _is_namespace_dir(src / name)
        for src in source_roots
    )


def _is_namespace_dir(path: Path) -> bool:
    if not path.is_dir() or path.name in TEST_DIR_NAMES or path.name in NOT_CODE_DIRS:
        return False
    return any(child.suffix == ".py" or _is_package_dir(child) for child in path.iterdir())


def _normalize(distribution: str) -> str:
    return re.sub(r"[-_.]+", "_", distribution).lower()


def _declared_names(
    root: Path, pyproject: dict[str, Any], setup_cfg: configparser.ConfigParser
) -> list[str]:
    """Top-level import names that packaging metadata declares, best first."""
    names: list[str] = []
    tool = _table(pyproject, "tool")
    setuptools = _table(tool, "setuptools")
    names += [p.split(".")[0] for p in _strings(setuptools.get("packages"))]
    names += _strings(setuptools.get("py-modules"))
    for package in _strings(_table(tool, "hatch", "build", "targets", "wheel").get("packages")):
        names.append(Path(package).name)
    flit_name = _table(tool, "flit", "module").get("name")
    if isinstance(flit_name, str):
        names.append(flit_name)
    for entry in _list(_table(tool, "poetry").get("packages")):
        if isinstance(entry, dict) and isinstance(entry.get("include"), str):
            names.append(entry["include"].split("/")[0].split(".")[0])
    if setup_cfg.has_option("options", "packages"):
        value = setup_cfg.get("options", "packages").strip()
        if not value.startswith("find"):
            names += [p.strip().split(".")[0] for p in value.split() if p.strip()]
    if setup_cfg.has_option("files", "packages"):  # pbr
        names += [p.strip() for p in setup_cfg.get("files", "packages").split() if p.strip()]
    project_name = _table(pyproject, "project").get("name") or _table(tool, "poetry").get("name")
    if isinstance(project_name, str):
        names.append(_normalize(project_name))
    if setup_cfg.has_option("metadata", "name"):
        names.append(_normalize(setup_cfg.get("metadata", "name")))
    setup_py_name = _setup_py_name(root / "setup.py")
    if setup_py_name:
        names.append(_normalize(setup_py_name))
    return names


def _setup_keyword(path: Path, name: str) -> ast.expr | None:
    """The expression given as ``name=`` to ``setup()`` in setup.py (parsed, not run)."""
    if not path.is_file():
        return None
    try:
        tree = ast.parse(read_source(path))
    except (SyntaxError, ValueError, SourceError, RecursionError, MemoryError):
        return None  # an unusable setup.py declares nothing
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and callee_name(node) == "setup":
            for keyword in node.keywords:
                if keyword.arg == name:
                    return keyword.value
    return None


def _setup_py_name(path: Path) -> str | None:
    value = _setup_keyword(path, "name")
    return str(value.value) if isinstance(value, ast.Constant) else None


def _pytest_plugins(root: Path, pyproject: dict[str, Any], setup_cfg: configparser.ConfigParser) -> list[str]:
    """Modules the project registers as pytest plugins (``pytest11`` entry points)."""
    specs: list[str] = []
    specs += _strings(list(_table(pyproject, "project", "entry-points", "pytest11").values()))
    if setup_cfg.has_option("options.entry_points", "pytest11"):
        specs += [line.partition("=")[2] for line in setup_cfg.get("options.entry_points", "pytest11").splitlines()]
    points = _setup_keyword(root / "setup.py", "entry_points")
    if isinstance(points, ast.Dict):
        for key, value in zip(points.keys, points.values):
            if isinstance(key, ast.Constant) and key.value == "pytest11" and isinstance(value, (ast.List, ast.Tuple)):
                specs += [e.value.partition("=")[2] for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return [spec.strip().partition(":")[0].strip() for spec in specs if spec.strip()]


def _detect_first_party(
    root: Path,
    pyproject: dict[str, Any],
    setup_cfg: configparser.ConfigParser,
    source_roots: tuple[Path, ...],
    test_paths: tuple[Path, ...],
) -> frozenset[str]:
    declared = [
        name for name in _declared_names(root, pyproject, setup_cfg)
        if _exists_as_module(name, source_roots)
    ]
    test_dirs = {p.resolve() for p in test_paths if p.resolve() != root}
    if declared:
        # A src layout holds only the project's code: its other packages are the
        # project's too (pytest's src/ holds the `pytest` it declares and `_pytest`).
        beside = {
            name for src in source_roots if src != root and any(_exists_as_module(n, (src,)) for n in declared)
            for name in _packages_in(src, root, test_dirs, private=True)
        }
        return frozenset({*declared, *beside})
    found: set[str] = set()
    for src in source_roots:
        if not src.is_dir():
            continue
        found = _packages_in(src, root, test_dirs, private=False) or _namespace_members(src, test_dirs)
        if found:
            break
    return frozenset(found)


_NAMESPACE_DEPTH = 3  # google/cloud/storage: the package two namespace folders down


def _namespace_members(src: Path, test_dirs: set[Path], depth: int = 1) -> set[str]:
    """The packages inside the namespace packages of ``src`` (folders without
    ``__init__.py`` holding packages, as google-auth's ``google/auth`` and
    google-cloud-storage's ``google/cloud/storage``), as dotted names: the
    namespace itself is shared with other distributions (``google.protobuf``)."""
    found: set[str] = set()
    for child in sorted(src.iterdir()):
        if child.name.startswith((".", "_")) or child.name in NOT_CODE_DIRS or child.name in TEST_DIR_NAMES:
            continue
        if not child.is_dir() or not child.name.isidentifier() or child.resolve() in test_dirs:
            continue
        if _is_package_dir(child):
            continue  # a package at this level is not a namespace: its caller took it or left it
        found.update(f"{child.name}.{name}" for name in _packages_in(child, src, test_dirs, private=True))
        if depth < _NAMESPACE_DEPTH:
            found.update(f"{child.name}.{name}" for name in _namespace_members(child, test_dirs, depth + 1))
    return found


def _packages_in(src: Path, root: Path, test_dirs: set[Path], private: bool) -> set[str]:
    """The packages (and, under a folder other than the root, the modules) in
    ``src``; with ``private``, those whose name starts with one underscore too."""
    found: set[str] = set()
    for child in sorted(src.iterdir()):
        if child.name.startswith((".", "__") if private else (".", "_")) or child.name in NOT_CODE_DIRS:
            continue
        if child.resolve() in test_dirs or child.name in TEST_DIR_NAMES:
            continue
        if _is_package_dir(child):
            found.add(child.name)
        elif src != root and child.suffix == ".py" and child.stem.isidentifier():
            found.add(child.stem)
    return found
