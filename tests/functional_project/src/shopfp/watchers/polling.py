from shopfp.watchers.base import BaseWatcher


class PollingWatcher(BaseWatcher):
    def poll(self):
        return ["changed"]
