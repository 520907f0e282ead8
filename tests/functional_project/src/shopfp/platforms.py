"""What differs by platform and Python version, chosen when the module loads."""
import os
import sys

if sys.platform.startswith("win"):
    def replace_file(current, new):
        os.remove(new)
        os.rename(current, new)
else:
    replace_file = os.rename

if os.name != "nt":
    sync_folder = os.sync
else:
    def sync_folder():
        return None

if sys.version_info >= (3, 8):
    def spawn(command):
        return command
else:
    spawn = os.system

if not sys.platform.startswith(("win", "cygwin")) and sys.version_info < (3,):
    def ancient():
        return None
else:
    ancient = os.getcwd

if sys.maxsize > 2**32:  # not a platform check as type checkers read them: both branches count
    def word_size():
        return 64
else:
    def word_size():
        return 32
