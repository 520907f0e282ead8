"""Syncing a container's rows: a broker read inside a try whose handler
re-raises into an outer one, and a hash that refuses bad input."""
import hashlib


class DatabaseGone(Exception):
    pass


class Broker:
    def __init__(self, path):
        self.path = path

    def get_info(self):
        return {"account": "a", "container": "c", "rows": ["o1", "o2"]}


def hash_path(account, container=None, obj=None):
    if obj and not container:
        raise ValueError("a container is needed for an object")
    return hashlib.md5(f"{account}/{container}/{obj}".encode()).digest()


class ContainerSync:
    def __init__(self):
        self.failures = 0
        self.synced = []

    def sync(self, path):
        try:
            broker = Broker(path)
            try:
                info = broker.get_info()
            except DatabaseGone:
                raise
            for row in info["rows"]:
                if hash_path(info["account"], info["container"], row)[0] == 0:
                    self.synced.append(row)
        except Exception:  # pylint: disable=broad-exception-caught
            self.failures += 1
