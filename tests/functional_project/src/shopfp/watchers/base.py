class BaseWatcher:
    def run(self):
        return self.poll()

    def poll(self):
        return []
