"""Commands an outside framework hands out by name: the type a test holds is the
framework's base class, and the storage a command works with is set after it is
made, so only its declaration says what it is."""

import threading
from typing import Optional

from shopfp.storage import Storage

REGISTRY = {}


class StorageCommand(threading.Thread):
    def __init__(self):
        super().__init__()
        self._storage: Storage | None = None  # set by the application
        self._quoted: "Optional[Storage]" = None
        self._many: list[Storage] = []
        self._broken: "Storage |" = None

    @property
    def storage(self) -> Storage:
        assert self._storage is not None
        return self._storage


def find(name) -> threading.Thread:
    """The framework's lookup: which command it returns is not known statically."""
    return REGISTRY[name]
