"""``python -m mockpolicy``."""

from mockpolicy.cli import console_main

console_main()
