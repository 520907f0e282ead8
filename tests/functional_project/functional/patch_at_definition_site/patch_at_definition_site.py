"""Patching where a name is defined while the code under test imported it by value."""
# pylint: disable=missing-docstring,import-error
from unittest import mock

from shopfp import compat, exporting, jobs


def test_stdlib_name_imported_by_value():
    with mock.patch("time.sleep", autospec=True):  # [patch-at-definition-site]
        jobs.run("a")


def test_first_party_name_imported_by_value():
    with mock.patch("shopfp.util.helper", autospec=True):  # [patch-at-definition-site]
        jobs.Runner().claim()


def test_patched_where_it_is_looked_up():
    with mock.patch("shopfp.jobs.sleep", autospec=True), mock.patch("shopfp.jobs.renamed_helper", autospec=True):
        jobs.run("a")


def test_patched_at_both_places():
    with mock.patch("time.sleep", autospec=True), mock.patch("shopfp.jobs.sleep", autospec=True):
        jobs.run("a")


def test_module_not_exercised():
    with mock.patch("time.sleep", autospec=True):
        assert jobs is not None


def test_name_imported_for_type_checkers_only():
    with mock.patch("shopfp.storage.Storage", autospec=True):
        assert exporting.Exporter.export({}) == {}


def test_name_only_re_exported():
    with mock.patch("shopfp.util.helper", autospec=True), mock.patch("time.sleep", autospec=True):
        assert compat.version() == "1"


from shopfp import signing  # noqa: E402


def test_module_reading_the_name_both_ways_called_where_it_sees_the_patch():
    with mock.patch("hashlib.sha256", autospec=True):
        signing.digest_through_module(b"x")


def test_module_reading_the_name_both_ways_called_where_it_does_not():
    with mock.patch("hashlib.sha256", autospec=True):  # [patch-at-definition-site]
        signing.digest_by_value(b"x")
