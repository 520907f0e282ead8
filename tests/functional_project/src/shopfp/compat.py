"""Names kept importable from here for older callers; nothing here calls them.

``helper`` moved to shopfp.util.
"""

from shopfp.util import helper  # noqa: F401  (re-exported)
from time import sleep  # noqa: F401  (re-exported)

__all__ = ["helper", "sleep"]


def version():
    return "1"  # helper is not called here
