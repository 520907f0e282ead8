"""The tests' own mocking module: it re-exports the mock library's names."""
from unittest.mock import MagicMock, patch  # noqa: F401  # pylint: disable=unused-import
