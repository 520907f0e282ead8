"""``patch-at-definition-site``: patch a name where it is looked up.

``patch("app.a.func")`` replaces the name ``func`` in ``app.a``. A module that
did ``from app.a import func`` holds its own reference to the original, so
code there keeps calling the real function. The rule reports a patch of
``M.name`` when a project module that the test uses imported ``name`` from
``M`` by value, the test calls code of that module directly, and it does not
patch the name there too.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Iterator
from pathlib import Path

from mockpolicy.analysis import MOCK_WORDS, Analysis, Family
from mockpolicy.findings import Finding
from mockpolicy.functions import FunctionNode, own_nodes
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


def _exercised(analysis: Analysis, context: Context) -> tuple[set[str], list[FunctionNode]]:
    """Modules whose code the test calls directly (the modules defining the
    functions and classes its calls resolve to), and the functions among them."""
    scope = analysis.module.scope(context)
    modules = set()
    functions: list[FunctionNode] = []
    for call in context.calls:
        value = analysis.resolver.evaluate(call.func, scope)
        if value.kind in (Kind.FUNCTION, Kind.CLASS) and value.module:
            modules.add(value.module)
            if value.function is not None:
                functions.append(value.function)
        elif value.kind is Kind.INSTANCE and value.cls is not None:  # a method called on an object
            modules.add(value.cls.module)
    return modules, functions


def check(analysis: Analysis) -> Iterator[Finding]:
    candidates = [site for site in analysis.module.sites if site.kind == "patch" and site.targets]
    if not candidates:
        return
    used = _used_modules(analysis)
    if not used:
        return
    exercised_by: dict[int, tuple[set[str], list[FunctionNode]]] = {}
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
        called: list[FunctionNode] = []
        for context in contexts:
            if id(context) not in exercised_by:
                exercised_by[id(context)] = _exercised(analysis, context)
            exercised |= exercised_by[id(context)][0] & used
            called += exercised_by[id(context)][1]
        holders = [
            (module, local) for module, local in holders if module in exercised
            and (not _also_looked_up(analysis, module, target) or any(_reads(function, local) for function in called))
        ]
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


def _also_looked_up(analysis: Analysis, module: str, target: str) -> bool:
    """Whether ``module`` also reads ``target`` through the module defining it
    (``hashlib.sha256`` beside ``from hashlib import sha256``): code there
    sees the patch, so only a function the test calls that reads the name
    imported by value shows the patch missing."""
    defining, _, name = target.rpartition(".")
    info = analysis.resolver.index.get(module)
    if info is None or info.path is None:
        return False
    aliases = {local for local, binding in info.bindings.items() if binding.kind == "import" and binding.target == defining}
    return bool(aliases) and _reads_name(info.path, name, after=aliases)


def _reads(function: FunctionNode, name: str) -> bool:
    """Whether ``function``'s own body reads the name ``name``."""
    return any(isinstance(node, ast.Name) and node.id == name for node in own_nodes(function))


def _reads_name(path: Path, name: str, after: set[str] | None = None) -> bool:
    """Whether the code of the module at ``path`` uses ``name`` outside its
    import statements (in a docstring, a comment or ``__all__`` it is only
    re-exported: nothing there calls the original); with ``after``, as the
    attribute of one of those names (``hashlib.sha256``). True when the file
    cannot be read or tokenized, as if it did."""
    try:
        text = decode_source(read_source(path))
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (SourceError, OSError, SyntaxError, tokenize.TokenError):
        return True
    importing, starting = False, True
    for position, token in enumerate(tokens):
        if token.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
            importing, starting = False, True
            continue
        if token.type in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
            continue
        if starting and token.type == tokenize.NAME and token.string in ("import", "from"):
            importing = True  # an import statement (not ``yield from``, ``raise ... from``)
        elif token.type == tokenize.NAME and token.string == name and not importing:
            if after is None or (position >= 2 and tokens[position - 1].string == "."
                                 and tokens[position - 2].type == tokenize.NAME and tokens[position - 2].string in after):
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
