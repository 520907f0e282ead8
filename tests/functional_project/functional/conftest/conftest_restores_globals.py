"""The conftest's hooks put every module global back after each test: a
test's assignment to one is restored. A class attribute is not: the
snapshot holds the class, not what is set on it."""
# pylint: disable=missing-docstring,import-error
from shopfp import config
from shopfp.storage import Storage


def test_a_module_global():
    config.NAME = "changed"
    assert config.NAME == "changed"


def test_a_class_attribute():
    Storage.backend = "disk"  # [unrestored-attribute-assignment]
    assert Storage.backend == "disk"
