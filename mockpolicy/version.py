"""The version of mockpolicy (also in pyproject.toml), importable without the package's
entry points."""

__version__ = "0.1.0"
