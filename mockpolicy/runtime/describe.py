"""What an object is, told without running any of its code.

The recorder describes objects of the suite under test: what a mock replaced
(its defining module and qualified name) and the values before and after a
change. Only types are asked (``type(obj)``, never ``obj.__class__``), so a
lazy proxy is never evaluated and no user ``__repr__``, ``__eq__`` or
``__getattr__`` runs.
"""

from __future__ import annotations

import functools
import re
import types
from typing import Any

MISSING: Any = type("Missing", (), {"__repr__": lambda self: "<missing>"})()
"""Stands for an attribute, environment variable or module entry that is absent."""

_FUNCTION_TYPES = (
    types.FunctionType, types.BuiltinFunctionType, types.MethodDescriptorType, types.WrapperDescriptorType,
    types.ClassMethodDescriptorType, types.MethodWrapperType,
)
_SCALARS = (bool, int, float, complex, type(None))
_TEXT = (str, bytes)
_CONTAINERS = (list, tuple, dict, set, frozenset)
_MOCK_ID = re.compile(r" id='\d+'")


def is_a(obj: object, *classes: type) -> bool:
    """``isinstance`` by the true type: never reads ``obj.__class__``."""
    return issubclass(type(obj), classes)


def is_mock(obj: object) -> bool:
    """Whether ``obj`` is a ``unittest.mock`` (or ``mock`` backport) double."""
    for cls in type(obj).__mro__:
        if cls.__name__ == "NonCallableMock" and cls.__module__ in ("unittest.mock", "mock.mock"):
            return True
    return False


def unwrap(obj: object) -> object:
    """The function behind a method, static or class method, property or partial."""
    for _ in range(8):
        if is_a(obj, staticmethod, classmethod, types.MethodType):
            obj = obj.__func__  # type: ignore[attr-defined]
        elif is_a(obj, property):
            obj = obj.fget  # type: ignore[attr-defined]
        elif is_a(obj, functools.partial):
            obj = obj.func  # type: ignore[attr-defined]
        else:
            break
    return obj


def defined_by(obj: object) -> tuple[str | None, str | None, str]:
    """``(module, qualified name, what)`` of the object: where it is defined,
    what it is called there, and its sort (``module``, ``class``, ``function``,
    ``instance``, ``value`` for a plain value, ``mock``)."""
    if is_mock(obj):
        return None, None, "mock"
    obj = unwrap(obj)
    if is_a(obj, types.ModuleType):
        return _text(vars(obj).get("__name__")), None, "module"
    if is_a(obj, type):
        return _text(vars(obj).get("__module__")), class_name(obj), "class"
    if is_a(obj, *_FUNCTION_TYPES):
        module = _text(getattr(obj, "__module__", None))
        owner = getattr(obj, "__objclass__", None)
        if module is None and is_a(owner, type):
            module = _text(vars(owner).get("__module__"))
        return module, _text(getattr(obj, "__qualname__", None)), "function"
    cls = type(obj)
    what = "value" if issubclass(cls, _SCALARS + _TEXT + _CONTAINERS) else "instance"
    return _text(vars(cls).get("__module__", None)) or cls.__module__, cls.__qualname__, what


def class_name(cls: Any) -> str | None:
    """The qualified name of the class ``cls``, read from the type itself."""
    try:
        return _text(_QUALNAME.__get__(cls, type(cls)))
    except Exception:  # noqa: BLE001 - not a real class
        return None


_QUALNAME: Any = vars(type)["__qualname__"]


def _text(value: object) -> str | None:
    return value if is_a(value, str) else None  # type: ignore[return-value]


def short(obj: object, limit: int = 60) -> str:
    """A short description of ``obj`` that runs none of its code."""
    if obj is MISSING:
        return "missing"
    if is_a(obj, *_SCALARS):
        return repr(obj)
    if is_a(obj, *_TEXT):
        text = repr(obj)
        return text if len(text) <= limit else text[: limit - 4] + "...'"
    if is_mock(obj):
        try:
            text = _MOCK_ID.sub("", repr(obj))
        except Exception:  # noqa: BLE001 - a mock whose repr was configured to fail
            text = f"<{type(obj).__name__}>"
        return text if len(text) <= limit else text[: limit - 4] + "...>"
    module, qualname, what = defined_by(obj)
    if what == "module":
        return f"module {module}"
    if what in ("class", "function"):
        return f"{what} {module}.{qualname}" if module else f"{what} {qualname}"
    if what == "value":
        try:
            size = len(obj)  # type: ignore[arg-type]
        except Exception:  # noqa: BLE001 - a subclass's __len__
            return f"a {type(obj).__name__}"
        return f"a {type(obj).__name__} of {size} item{'s' if size != 1 else ''}"
    return f"a {module}.{qualname} object" if module else f"a {qualname} object"
