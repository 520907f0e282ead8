"""Mocks made through the project's own patching helpers are mock sites like
the patches they make."""
# pylint: disable=missing-docstring,import-error,attribute-defined-outside-init
import unittest

from shopfp import config, jobs, storage, testing
from shopfp.storage import Storage


def patch_with(mocker, target, **kwargs):
    return mocker.patch(target, **kwargs)


class TestWithHelpers(testing.TestCase):
    def setUp(self):
        self.save = self.mock_object(Storage, "save")  # [first-party-mock, unspecced-mock]
        self.mock_object(config, "RETRIES", 0)

    def test_helpers(self):
        self.mock_object(jobs, "run")  # [first-party-mock, unspecced-mock]
        self.mock_object(jobs, "time")  # [unspecced-mock]
        self.mock_dotted("shopfp.jobs.helper", autospec=True)  # [first-party-mock]
        self.mock_method(Storage, "load")  # [first-party-mock, unspecced-mock]
        self.mock_by_kind(jobs.Runner, "claim")  # [first-party-mock, unspecced-mock]
        self.mock_object(storage, "DEFAULT", Storage())  # a real object swapped in
        with testing.patching("shopfp.jobs.run", None):  # [first-party-mock]
            pass
        config.RETRIES = 2  # the set-up's helper patched it: its stop restores it
        config.NAME = "x"  # [unrestored-attribute-assignment]


class TestWithFixtureHelpers(testing.TestCase):
    def _stub_runner(self):
        self.patch_fixture(jobs, "Runner")  # [first-party-mock, unspecced-mock]

    def test_fixture_helper(self):
        self.patch_fixture(jobs, "run", autospec=True)  # [first-party-mock]
        self._stub_runner()
        jobs.Runner.return_value = None  # a mock's attribute: the helper method patched jobs.Runner

    def test_spelt_targets(self):
        self.mock_job("run", autospec=True)  # [first-party-mock]
        self.mock_in("jobs", "helper", autospec=True)  # [first-party-mock]
        self.mock_in("jobs", "time", autospec=True)


class TestMixedBases(unittest.TestCase, testing.JobsMixin):
    def test_runner(self):
        self.mock_runner(object())  # [first-party-mock, unspecced-mock]


def test_pytest_helper(mocker):
    patch_with(mocker, "shopfp.jobs.run", autospec=True)  # [first-party-mock]
    patch_with(mocker, "shopfp.jobs.sleep", autospec=True)


import contextlib  # noqa: E402
from unittest import mock  # noqa: E402


class TestSpiesMadeByAHelper(unittest.TestCase):
    @contextlib.contextmanager
    def _spy_on_save(self, store):
        original = store.save
        seen = []

        def spying(*args):
            seen.append(args)
            return original(*args)

        with mock.patch.object(store, "save", spying):
            yield seen

    @contextlib.contextmanager
    def _fake_save(self, store):
        def answering(*args):
            return None

        with mock.patch.object(store, "save", answering):
            yield

    def test_spied(self):
        store = Storage()
        with self._spy_on_save(store) as seen:
            store.save(1, 2)
        self.assertEqual(1, len(seen))

    def test_faked(self):
        store = Storage()
        with self._fake_save(store):  # [first-party-mock]
            store.save(1, 2)


def patch_gauge_here():
    """This file's own factory of a fixed patch: its body is the mock site."""
    return mock.patch("shopfp.plant.read_gauge", return_value=3)  # [first-party-mock, unspecced-mock]


class TestFactoriesOfAFixedPatch(unittest.TestCase):
    """``testing.patch_gauge()`` returns a patch of a fixed target: each call is
    a mock site, as the patch written out would be."""

    @testing.patch_gauge()  # [first-party-mock, unspecced-mock]
    def test_decorated(self, gauge):
        self.assertEqual(gauge.return_value, 7)

    def test_entered(self):
        with testing.patch_gauge() as gauge:  # [first-party-mock, unspecced-mock]
            self.assertEqual(gauge.return_value, 7)

    def test_this_files_factory(self):
        with patch_gauge_here() as gauge:
            self.assertEqual(gauge.return_value, 3)


class TestWithAHelperOfItsOwn(unittest.TestCase):
    def test_saved_names_captured(self):
        @contextlib.contextmanager
        def capturing_saves(target):
            saved = []

            def record(name, value):
                saved.append(name)

            with mock.patch.object(target, "save", record):
                yield saved

        store = Storage()
        with capturing_saves(store) as saved:  # a helper the test defines: not followed (a known limit)
            jobs.run(store)
        self.assertEqual([], saved)


class ListArgumentsBase(unittest.TestCase):
    SENTINEL = object()

    def mock_object(self, obj, attr_name, new_attr=SENTINEL, **kwargs):
        """The patch's arguments go through a list; the replacement only when given."""
        args = [obj, attr_name]
        if new_attr is not self.SENTINEL:
            args.append(new_attr)
        patcher = mock.patch.object(*args, **kwargs)
        patcher.start()
        self.addCleanup(patcher.stop)


class TestHelperWithAListOfArguments(ListArgumentsBase):
    def test_mock_the_patch_makes(self):
        self.mock_object(Storage, "save", autospec=True)  # [first-party-mock]

    def test_replacement_given(self):
        self.mock_object(jobs, "run", lambda order_id: 0)  # [first-party-mock]


class TestHelperNamingTheMethodOfAnObjectOfTheTest(unittest.TestCase):
    def setUp(self):
        self.storage = Storage()

    def _check_patched(self, name, *args):
        with mock.patch.object(self.storage, name, autospec=True) as patched:  # the body: no target of its own
            getattr(self.storage, name)(*args)
            patched.assert_called_once_with(*args)

    def _check_computed(self, action, name=None):
        if name is None:
            name = action.lower()
        with mock.patch.object(self.storage, name, autospec=True):
            pass

    def test_save(self):
        self._check_patched("save", 1, 2)  # [first-party-mock]

    def test_load(self):
        self._check_patched("load", 1)  # [first-party-mock]

    def test_name_not_written_out(self, name="load"):
        self._check_patched(name)

    def test_name_the_helper_computes(self):
        self._check_computed("LOAD")


class TestHelperImportedByTheTest(unittest.TestCase):
    def test_imported_under_another_name(self):
        from _support.mocking import patch_attribute as patched  # pylint: disable=import-outside-toplevel
        patched(self, Storage, "save")  # [first-party-mock]

    def test_module_imported(self):
        from _support import mocking  # pylint: disable=import-outside-toplevel
        mocking.patch_attribute(self, Storage, "load")  # [first-party-mock]

    def test_imported_from_the_code_under_test(self):
        from shopfp.jobs import run  # pylint: disable=import-outside-toplevel
        run("a")


def patch_held(testcase, holder, name):
    patcher = mock.patch.object(holder.storage, name, autospec=True)
    patcher.start()
    testcase.addCleanup(patcher.stop)


class Holder:
    def __init__(self):
        self.storage = Storage()


class TestHelperPatchingAnObjectItsArgumentHolds(unittest.TestCase):
    def test_held_storage(self):
        holder = Holder()
        patch_held(self, holder, "save")  # [first-party-mock]
