"""The standalone ``mock`` package, every Mock class with spec/spec_set, and
the other pytest-mock fixtures."""
# pylint: disable=missing-docstring,import-error
import mock as mock_lib
from unittest.mock import AsyncMock, MagicMock, NonCallableMock, PropertyMock, create_autospec

from shopfp import jobs
from shopfp.storage import Storage


def test_standalone_mock_package():
    with mock_lib.patch("shopfp.jobs.run"):  # [first-party-mock]
        pass


def test_every_mock_class():
    magic = MagicMock(spec_set=Storage)  # [first-party-mock]
    magic.save.return_value = 1
    frozen = NonCallableMock(Storage)  # [first-party-mock]
    frozen.load.side_effect = KeyError
    waiting = AsyncMock(spec=jobs.Runner)  # [first-party-mock]
    waiting.claim.return_value = 2
    prop = PropertyMock(spec=Storage, return_value=3)  # [first-party-mock]
    auto = create_autospec(jobs.run, return_value="{}")  # [first-party-mock]
    assert (prop, auto) != (None, None)


def test_module_and_package_mockers(module_mocker, package_mocker):
    module_mocker.patch.object(jobs.Runner, "claim")  # [first-party-mock]
    built = package_mocker.MagicMock(spec=Storage)  # [first-party-mock]
    built.save.assert_called_once_with()


import fixtures  # noqa: E402  (the `fixtures` package's mock fixtures, as OpenStack suites use them)
import testtools  # noqa: E402


class TestMockFixtures(testtools.TestCase):
    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.MockPatch("shopfp.jobs.run"))  # [first-party-mock]
        self.useFixture(fixtures.MockPatchObject(jobs.Runner, "claim", return_value=2))  # [first-party-mock]
        self.useFixture(fixtures.MockPatch("time.sleep"))

    def test_uses_them(self):
        assert jobs.Runner().claim() == 2


def fake_run(order_id):
    return order_id


class TestMonkeyPatchFixture(testtools.TestCase):
    def stub_out(self, old, new):
        self.useFixture(fixtures.MonkeyPatch(old, new))

    def test_set_directly(self):
        self.useFixture(fixtures.MonkeyPatch("shopfp.jobs.run", fake_run))  # [first-party-mock]
        self.useFixture(fixtures.MonkeyPatch("shopfp.config.RETRIES", 0))
        self.useFixture(fixtures.MonkeyPatch("time.sleep", fake_run))

    def test_through_the_suites_helper(self):
        self.stub_out("shopfp.jobs.assign", fake_run)  # [first-party-mock]


def test_patch_re_exported_by_a_module_of_the_tests():
    from _support.mocking import patch  # pylint: disable=import-outside-toplevel

    with patch("shopfp.jobs.run"):  # [first-party-mock]
        pass


def test_the_module_name_is_kept_where_a_function_imports_another():
    with mock_lib.patch("shopfp.jobs.run"):  # [first-party-mock]
        pass
