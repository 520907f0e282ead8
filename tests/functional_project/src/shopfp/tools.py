"""Outside modules reached through a class attribute, so tests can swap them per object."""

import os


class ToolCache:
    os = os

    def home(self):
        return self.os.environ.get("SHOP_HOME", "/home")
