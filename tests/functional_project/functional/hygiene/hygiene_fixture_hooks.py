"""Methods a base class's autouse fixture calls before its ``yield`` set each
test up, and those it calls after it tear it down: a ``patch.dict`` of
``os.environ`` one starts and the other stops undoes each test's changes, and
a patcher a set-up hook starts is stopped by a tear-down hook."""
# pylint: disable=missing-docstring,import-error,attribute-defined-outside-init
import os
from unittest import mock

from _support.hooked_bases import HookedBase

from shopfp import jobs


class TestHooked(HookedBase):
    def set_up_env(self):
        super().set_up_env()
        self.run_patcher = mock.patch.object(jobs, "run", autospec=True)
        self.run_patcher.start()

    def tear_down_env(self):
        super().tear_down_env()
        self.run_patcher.stop()

    def test_editor(self):
        os.environ["EDITOR"] = "nano"


class TestHookedLeaking(HookedBase):
    def set_up_env(self):
        super().set_up_env()
        mock.patch.object(jobs, "assign", autospec=True).start()  # [leaked-patcher]

    def test_editor(self):
        os.environ["EDITOR"] = "nano"


class TestNotHooked:
    def test_editor(self):
        os.environ["EDITOR"] = "nano"  # [unrestored-environ-mutation]
