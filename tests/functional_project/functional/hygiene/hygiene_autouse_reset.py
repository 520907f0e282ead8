"""An autouse fixture that resets a project object's state after each test
(through a helper of the code under test) covers attributes of that object
the engine cannot tell, such as a metaclass's properties."""
# pylint: disable=missing-docstring,import-error
import pytest

from shopfp import loader_config
from shopfp.loader_config import LoaderConfig, OtherConfig


@pytest.fixture(autouse=True)
def reset_loader():
    yield
    loader_config.forget()


def test_through_the_property():
    LoaderConfig.default = "x"


def test_a_declared_attribute():
    LoaderConfig.RETRIES = 0  # [unrestored-attribute-assignment]


def test_another_object():
    OtherConfig.default = "y"  # [unrestored-attribute-assignment]
