"""``patch-at-definition-site``: patch a name where it is looked up.

``patch("app.a.func")`` replaces the name ``func`` in ``app.a``. A module that
did ``from app.a import func`` holds its own reference to the original, so
code there keeps calling the real function. The rule reports a patch of
``M.name`` when a project module that the test uses imported ``name`` from
``M`` by value, the test calls code of that module directly, and it does not
patch the name there too.
"""

from __future__ import annotations

import io
import tokenize
from collections.abc import Iterator
from pathlib import Path

from mockpolicy.analysis import MOCK_WORDS, Analysis, Family
from mockpolicy.findings import Finding
from mockpolicy.rules import PATCH_AT_DEFINITION_SITE
from mockpolicy.sites import Context, MockSite
from mockpolicy.source import SourceError, decode_source, read_source
from mockpolicy.symbols import Kind


def _used_modules(analysis: Analysis) -> set[str]:
    """Project modules the test module imports (or imports something from)."""
    module = analysis.module
    index = analysis.resolver.index
    used: set[str] = set()
    for dotted in module.imported:
        for candidate in (dotted, dotted.rpartition(".")[0]):
            if candidate and analysis.resolver.project.is_first_party(candidate) and index.locate(candidate):
                used.add(candidate)
                break
    return used


def _exercised(analysis: Analysis, context: Context) -> set[str]:
    """Modules whose code the test calls directly: the modules defining the
    functions and classes its calls resolve to."""
    scope = analysis.module.scope(context)
    modules = set()
    for call in context.calls:
        value = analysis.resolver.evaluate(call.func, scope)
        if value.kind in (Kind.FUNCTION, Kind.CLASS) and value.module:
            modules.add(value.module)
        elif value.kind is Kind.INSTANCE and value.cls is not None:  # a method called on an object
            modules.add(value.cls.module)
    return modules


def check(analysis: Analysis) -> Iterator[Finding]:
    candidates = [site for site in analysis.module.sites if site.kind == "patch" and site.targets]
    if not candidates:
        return
    used = _used_modules(analysis)
    if not used:
        return
    exercised_by: dict[int, set[str]] = {}
    holders_of: dict[str, list[tuple[str, str]]] = {}
    modules = sorted(used)
    for site in candidates:
        target = site.targets[0].text
        if "." not in target:
            continue
        if target not in holders_of:
            holders_of[target] = [
                (module, local) for module in modules if not _defines(module, target)
                for local in _imported_as(analysis, module, target)
            ]
        holders = holders_of[target]
        if not holders:
            continue
        contexts = [site.owner]
        if site.owner.class_info is not None and not site.owner.is_function:  # a class decorator
            contexts = [c for c in analysis.module.contexts if c.parent is site.owner]
        exercised: set[str] = set()
        for context in contexts:
            if id(context) not in exercised_by:
                exercised_by[id(context)] = _exercised(analysis, context) & used
            exercised |= exercised_by[id(context)]
        holders = [(module, local) for module, local in holders if module in exercised]
        patched = {
            other_target.text for other in analysis.module.sites
            if other.owner is site.owner or other.owner is site.owner.parent for other_target in other.targets
        }
        stale = sorted(f"{module}.{local}" for module, local in holders if f"{module}.{local}" not in patched)
        if stale:
            yield _finding(analysis, site, target, stale)


def _defines(module: str, target: str) -> bool:
    """Whether ``target`` is a name in ``module`` itself (the patch is at the look-up site)."""
    return target.startswith(module + ".") and "." not in target[len(module) + 1 :]


def _imported_as(analysis: Analysis, module: str, target: str) -> list[str]:
    """The names under which ``module`` imported ``target`` by value."""
    index = analysis.resolver.index
    if not index.may_import(module, target.rpartition(".")[2]):
        return []  # no import of that name: not parsed for nothing
    info = index.get(module)
    if info is None:
        return []
    return [local for local in info.imported.get(target, []) if info.bindings.get(local, None) is not None
            and info.bindings[local].kind == "import" and (info.path is None or _reads_name(info.path, local))]


def _reads_name(path: Path, name: str) -> bool:
    """Whether the code of the module at ``path`` uses ``name`` outside its
    import statements (in a docstring, a comment or ``__all__`` it is only
    re-exported: nothing there calls the original). True when the file
    cannot be read or tokenized, as if it did."""
    try:
        text = decode_source(read_source(path))
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (SourceError, OSError, SyntaxError, tokenize.TokenError):
        return True
    importing, starting = False, True
    for token in tokens:
        if token.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
            importing, starting = False, True
            continue
        if token.type in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
            continue
        if starting and token.type == tokenize.NAME and token.string in ("import", "from"):
            importing = True  # an import statement (not ``yield from``, ``raise ... from``)
        elif token.type == tokenize.NAME and token.string == name and not importing:
            return True
        starting = False
    return False


def _finding(analysis: Analysis, site: MockSite, target: str, stale: list[str]) -> Finding:
    holders = ", ".join(name.rpartition(".")[0] for name in stale)
    instead = ", ".join(f"'{name}'" for name in stale)
    return analysis.finding(
        site.call, PATCH_AT_DEFINITION_SITE.symbol,
        f"'{target}' is patched where it is defined, but {holders} imported it by value and keeps the "
        f"original, so the code there is not patched. Patch {instead} instead (or as well).",
        site.owner.qualname,
    )


FAMILY = Family("where-looked-up", (PATCH_AT_DEFINITION_SITE,), check, MOCK_WORDS)
