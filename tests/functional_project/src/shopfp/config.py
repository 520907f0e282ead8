"""Module constants: configuration, not code."""

RETRIES = 3
NAME = "shop"
TIMEOUTS = (1, 2.5)
DEBUG = False
NOTHING = None
HOOKS = []
