"""Watchers: which one runs depends on an optional library; a type checker
sees only the base class."""
from typing import TYPE_CHECKING

from shopfp.watchers.base import BaseWatcher

if TYPE_CHECKING:
    Watcher: type[BaseWatcher]
else:
    try:
        from shopfp.watchers.fast import FastWatcher as Watcher
    except ImportError:
        from shopfp.watchers.polling import PollingWatcher as Watcher

__all__ = ["BaseWatcher", "Watcher"]
