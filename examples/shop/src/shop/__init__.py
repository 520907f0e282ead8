"""A tiny shop used to show mockpolicy's rules."""
