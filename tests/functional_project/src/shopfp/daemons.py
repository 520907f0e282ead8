"""A daemon refusing to start twice, a sync leaving early when a lookup
fails, and rate limits picked by constants."""

import sys

RATE = "max_tx_rate"
MIN_RATE = "min_tx_rate"


class Daemon:
    def __init__(self, pidfile):
        self.pidfile = pidfile

    def start(self):
        if self.pidfile.is_running():
            sys.exit(1)
        self.run()

    def run(self):
        return "running"

    def sync(self, name):
        try:
            found = self.lookup(name)
        except LookupError:
            return None
        self.notify(found)
        return found

    def lookup(self, name):
        raise LookupError(name)

    def notify(self, found):
        return found


class Limits:
    def clear_max(self, slot):
        self._clear(slot, RATE)

    def clear(self, slot, kind):
        self._clear(slot, kind)

    def _clear(self, slot, kind):
        return slot, kind
