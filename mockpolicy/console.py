"""The terminal: whether to colour, and a progress line for long runs.

Colour follows the common conventions: on when the stream is a terminal,
off when ``NO_COLOR`` is set to anything non-empty, on whatever the stream
when ``FORCE_COLOR`` is (``NO_COLOR`` wins). Progress goes to stderr only when
stderr is a terminal, so logs and pipes never see it.
"""

from __future__ import annotations

import os
import time
from typing import TextIO

PROGRESS_AFTER_FILES = 200  # fewer files finish before a progress line would help
_INTERVAL = 0.2  # seconds between redraws


def wants_colour(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Progress:
    """``analysing: done/total files`` redrawn in place on a terminal's stderr."""

    def __init__(self, stream: TextIO, total: int, enabled: bool) -> None:
        isatty = getattr(stream, "isatty", None)
        self.stream = stream
        self.total = total
        self.active = enabled and total >= PROGRESS_AFTER_FILES and bool(isatty and isatty())
        self.done = 0
        self._drawn_at = 0.0

    def advance(self) -> None:
        self.done += 1
        if not self.active:
            return
        now = time.monotonic()
        if now - self._drawn_at >= _INTERVAL or self.done == self.total:
            self._drawn_at = now
            self.stream.write(f"\rmockpolicy: analysing {self.done:,}/{self.total:,} files")
            self.stream.flush()

    def finish(self) -> None:
        if self.active:
            self.stream.write("\r\x1b[K")  # erase the progress line
            self.stream.flush()
