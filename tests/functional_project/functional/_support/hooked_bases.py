"""A base class whose autouse fixture runs a set-up hook before each test and
a tear-down hook after it (beets' ``setup_beets``/``teardown_beets``)."""
# pylint: disable=missing-docstring,attribute-defined-outside-init
from unittest.mock import patch

import pytest


class HookedBase:
    @pytest.fixture(autouse=True)
    def run_hooks(self):
        self.set_up_env()
        try:
            yield
        finally:
            self.tear_down_env()

    def set_up_env(self):
        self.env_patcher = patch.dict("os.environ", {"HOME": "/tmp"})
        self.env_patcher.start()

    def tear_down_env(self):
        self.env_patcher.stop()
