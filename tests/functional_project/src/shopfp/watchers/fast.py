import fastwatch  # an optional library

from shopfp.watchers.base import BaseWatcher


class FastWatcher(BaseWatcher):
    def poll(self):
        return fastwatch.changes()
