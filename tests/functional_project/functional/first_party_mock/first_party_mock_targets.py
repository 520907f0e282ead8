"""Targets written as constants, concatenations and f-strings, and objects
bound in setUp and fixtures."""
# pylint: disable=missing-docstring,invalid-name,import-error,attribute-defined-outside-init
import unittest
from unittest import mock

import pytest

from shopfp import jobs
from shopfp.storage import Storage

MODULE = "shopfp.jobs"
RUN = MODULE + ".run"


def test_constant_target():
    with mock.patch(RUN):  # [first-party-mock]
        pass


def test_concatenation_and_fstring():
    with mock.patch(MODULE + ".Runner.claim"):  # [first-party-mock]
        pass
    with mock.patch(f"{MODULE}.helper"):  # [first-party-mock]
        pass


def test_names_spelt_by_the_objects_themselves():
    with mock.patch.object(jobs.Runner, jobs.Runner.claim.__name__):  # [first-party-mock]
        pass
    with mock.patch(f"{jobs.__name__}.{jobs.Runner.__qualname__}.claim"):  # [first-party-mock]
        pass
    with mock.patch(f"{jobs.Runner.__module__}.run"):  # [first-party-mock]
        pass
    with mock.patch(dotted_name_of(jobs.Runner.claim)):  # [first-party-mock]
        pass
    with mock.patch(".".join(["os", "getcwd"])):
        pass
    with mock.patch.object(jobs.Runner, jobs.__doc__ or "claim"):  # an attribute that cannot be told: nothing
        pass


def dotted_name_of(function):
    return ".".join(filter(None, [function.__module__, function.__qualname__]))


class TestSetUp(unittest.TestCase):
    def setUp(self):
        self.storage = Storage()
        self.runner = jobs.Runner()

    def test_instance_methods(self):
        with mock.patch.object(self.storage, "save"):  # [first-party-mock]
            pass
        with mock.patch.object(self.runner, "claim"):  # [first-party-mock]
            pass


class TestFixture:
    @pytest.fixture(autouse=True)
    def bind(self):
        self.storage = Storage()

    def test_fixture_bound(self):
        with mock.patch.object(self.storage, "load"):  # [first-party-mock]
            pass


def test_local_instance():
    storage = Storage()
    with mock.patch.object(storage, "save"):  # [first-party-mock]
        pass


def test_static_methods_a_class_body_makes_of_functions():
    with mock.patch("shopfp.exporting.Exporter.export"):  # [first-party-mock]
        pass
    with mock.patch("shopfp.exporting.Exporter.dumps"):
        pass
    with mock.patch("shopfp.exporting.Exporter.helper"):  # [first-party-mock]
        pass


from shopfp import testing  # noqa: E402


def test_a_fake_of_the_suite_is_not_the_code_under_test():
    with mock.patch.object(testing.FakeClock, "now", return_value=5):
        assert testing.FakeClock().now() == 5


from shopfp import proxies  # noqa: E402


def test_a_method_inherited_through_the_second_base():
    with mock.patch.object(proxies.RepoProxy, "get"):  # [first-party-mock]
        pass
    with mock.patch.object(proxies.RegisteredProxy, "get"):
        pass


TARGETS = ["shopfp.jobs.run", "shopfp.jobs.assign"]
LIBRARY_TARGETS = ("os.getcwd", "time.sleep")


def targets_to_patch():
    return TARGETS


def test_targets_a_loop_goes_over():
    for target in ["shopfp.jobs.run", "shopfp.jobs.reload"]:
        with mock.patch(target):  # [first-party-mock]
            pass
    for target in TARGETS:
        mock.patch(target, new=lambda order_id: None).start()  # [first-party-mock]
    for target in targets_to_patch():
        with mock.patch(f"{target}"):  # [first-party-mock]
            pass
    for name in ("claim", "static"):
        with mock.patch.object(jobs.Runner, name):  # [first-party-mock]
            pass
    for target in LIBRARY_TARGETS:
        with mock.patch(target):
            pass
    patchers = [mock.patch(target) for target in TARGETS]  # [first-party-mock]
    patchers += [mock.patch(target) for target in LIBRARY_TARGETS]
    patchers += [mock.patch(target) for target in TARGETS if target.endswith("assign")]  # a pick: not listed
    mock.patch.stopall()


def test_loop_targets_that_cannot_be_listed(names):
    for target in names:
        with mock.patch(target):
            pass
    for target in ["shopfp.jobs.run"]:
        target = "os.getcwd"
        with mock.patch(target):
            pass
