"""A fixture of the test module that puts an attribute back after its yield
does so for the tests that request it (by a parameter, a ``usefixtures``
mark or through another fixture), or for every test when it is autouse; a
test that does not request it leaks the change."""
# pylint: disable=missing-docstring,import-error,redefined-outer-name,unused-argument
import pytest

from shopfp import config


@pytest.fixture
def keep_name():
    saved = config.NAME
    yield
    config.NAME = saved


@pytest.fixture
def through_another(keep_name):
    yield


def test_requests_it(keep_name):
    config.NAME = "changed"  # keep_name puts it back


@pytest.mark.usefixtures("keep_name")
def test_marked():
    config.NAME = "marked"


def test_through_another(through_another):
    config.NAME = "deeper"


with_name_kept = pytest.mark.usefixtures("keep_name")


@with_name_kept
def test_marked_by_a_named_mark():
    config.NAME = "named mark"  # the module's mark requests keep_name


def test_does_not_request_it():
    config.NAME = "leaked"  # [unrestored-attribute-assignment]


@pytest.fixture
def patched_retries(monkeypatch):
    monkeypatch.setattr(config, "RETRIES", 1)


def test_patched_by_its_fixture(patched_retries):
    config.RETRIES = 2  # monkeypatch (of the fixture it requests) puts it back


def test_without_the_patching_fixture():
    config.RETRIES = 0  # [unrestored-attribute-assignment]


class TestClassFixture:
    @pytest.fixture
    def keep_retries(self):
        saved = config.RETRIES
        yield
        config.RETRIES = saved

    def test_requests(self, keep_retries):
        config.RETRIES = 9

    def test_does_not(self):
        config.RETRIES = 1  # [unrestored-attribute-assignment]
