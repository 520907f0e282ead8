"""First-party code the functional cases mock."""

from shopfp.storage import Storage

__all__ = ["Storage"]
