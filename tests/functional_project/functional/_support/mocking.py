"""The tests' own mocking module: it re-exports the mock library's names."""
from unittest.mock import MagicMock, patch  # noqa: F401  # pylint: disable=unused-import


def patch_attribute(testcase, obj, name):
    """A patching helper of the tests, imported where a test uses it."""
    patcher = patch.object(obj, name, autospec=True)
    patcher.start()
    testcase.addCleanup(patcher.stop)
