"""A first-party class that caches its methods per instance."""

import functools


class Pages:
    def __init__(self):
        self.get = functools.cache(self._get)
        self.find = functools.lru_cache(maxsize=64)(self._find)
        self.limit = functools.lru_cache(32)

    def _get(self, name):
        return name

    def _find(self, name):
        return [name]
