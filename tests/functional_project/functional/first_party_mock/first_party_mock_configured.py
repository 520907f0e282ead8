"""Objects whose class a configuration option names resolve through the
option's declared default; an attribute of an object a mock already replaced
(earlier in the test, or in its set-up) is the mock's, not the project's.
A spec'd double a helper returns is handed to its caller, which may
configure it: no inert collaborator, as when it returns the call itself.
A container bound to a name stands for the doubles made inside it, and a
loop over it for each of them: configured through them, they are not inert.
A double handed to a call as a keyword argument is configured through an
attribute of that name (``pipeline.transport.send.assert_not_called()``) in
its test, or anywhere in the module when a helper makes it and returns."""
# pylint: disable=missing-docstring,import-error
import typing
import unittest
from unittest import mock

from shopfp import options, wrapping


class TestConfigured(unittest.TestCase):
    def setUp(self):
        self.service = options.Service()
        self.patched = options.Service()
        patcher = mock.patch.object(self.patched, "store")  # [first-party-mock]
        patcher.start()
        self.addCleanup(patcher.stop)

    def test_class_named_by_an_option(self):
        with mock.patch.object(options.STORE, "save"):  # [first-party-mock]
            pass

    def test_object_made_from_an_option(self):
        with mock.patch.object(self.service.store, "load"):  # [first-party-mock]
            pass

    def test_option_declared_twice_or_not_a_constant(self):
        with mock.patch.object(self.service.twice, "load"):
            pass
        with mock.patch.object(self.service.computed, "load"):
            pass

    def test_attribute_of_what_the_set_up_replaced(self):
        with mock.patch.object(self.patched.store, "save"):
            pass

    def test_attribute_of_what_the_test_replaced_before(self):
        with mock.patch.object(self.service, "store"):  # [first-party-mock]
            with mock.patch.object(self.service.store, "save"):
                pass

    def test_attribute_patched_before_its_object(self):
        with mock.patch.object(self.service.store, "save"):  # [first-party-mock]
            pass
        with mock.patch.object(self.service, "store"):  # [first-party-mock]
            pass

    def test_a_nested_function_decorated_earlier(self):
        @mock.patch.object(options, "STORE")  # [first-party-mock]
        def first(store):
            return store

        @mock.patch.object(options.STORE, "save")  # [first-party-mock]
        def second(save):
            return save

        first()  # pylint: disable=no-value-for-parameter
        second()  # pylint: disable=no-value-for-parameter



def test_a_double_made_from_a_class_leaves_the_class_real():
    from shopfp.storage import Storage  # pylint: disable=import-outside-toplevel

    double = mock.Mock(spec=Storage)
    with mock.patch.object(Storage, "save"):  # [first-party-mock]
        Storage.save(double, 1, 2)


class TestDoublePutInPlace(unittest.TestCase):
    """A spec'd double put into the object under test is configured where it
    was put (zaqar's ``self.controller._queue_ctrl = m``, then ``del
    self.controller._queue_ctrl._get_counter``): no inert collaborator."""

    def setUp(self):
        self.runner = options.Service()

    def test_configured_where_it_was_put(self):
        double = mock.MagicMock(options.Service)  # [first-party-mock]
        self.runner.store = double
        del self.runner.store.save

    def test_put_in_place_and_left_alone(self):
        double = mock.MagicMock(options.Service)
        self.runner.store = double
        assert self.runner is not None


class TestDoubleFromAHelper(unittest.TestCase):
    """python-swiftclient's ``_get_mock_connection``: ``m = mock.Mock(spec=Connection)``,
    returned, configured by the tests that call it."""

    def _double_service(self):
        double = mock.Mock(spec=options.Service)  # [first-party-mock]
        return double

    def _unused_double(self):
        double = mock.Mock(spec=options.Service)  # made and dropped: inert
        assert double is not None

    def test_configured_by_the_caller(self):
        service = self._double_service()
        service.store.save.return_value = None
        self._unused_double()


SERVICE_PAIRS = [
    ("first", mock.Mock(spec=options.Service)),  # [first-party-mock]
    ("second", mock.Mock(spec=options.Service)),  # [first-party-mock]
]


def test_doubles_from_a_container():
    for _, service in SERVICE_PAIRS:
        service.store.save.return_value = None
    one, two = mock.Mock(spec=options.Service), mock.Mock(spec=options.Service)  # [first-party-mock, first-party-mock]
    one.store.load.return_value = two
    two.store.save.side_effect = KeyError("full")


def test_doubles_in_a_mapping_left_alone():
    services = {"first": mock.Mock(spec=options.Service)}  # handed on, never configured: inert
    assert services["first"] is not None


def test_doubles_cast_to_their_type():
    service = typing.cast(options.Service, mock.Mock(spec=options.Service))  # [first-party-mock]
    service.store.save.return_value = None
    casts = [typing.cast("options.Service", mock.Mock(spec=options.Service))]  # [first-party-mock]
    for each in casts:
        each.store.load.return_value = None



def test_double_asserted_through_its_holder():
    pipeline = wrapping.Pipeline(transport=mock.create_autospec(wrapping.Transport))  # [first-party-mock]
    pipeline.transport.send.assert_not_called()


def test_double_kept_by_its_holder_alone():
    pipeline = wrapping.Pipeline(transport=mock.create_autospec(wrapping.Transport))  # never configured: inert
    assert pipeline.transport is not None


def _pipeline_with_a_double_transport():
    return wrapping.Pipeline(transport=mock.create_autospec(wrapping.Transport))  # [first-party-mock]


def test_double_of_a_helper_asserted_through_its_holder():
    _pipeline_with_a_double_transport().transport.send.assert_not_called()


class TestConfiguredThroughAnotherName(unittest.TestCase):
    def setUp(self):
        self.aliased = mock.Mock(spec=options.Service)  # [first-party-mock]
        self.unused = mock.Mock(spec=options.Service)  # handed on under another name, never configured: inert

    def test_asserted_on_under_another_name(self):
        service = self.aliased
        wrapping.Pipeline(transport=service)
        service.store.assert_not_called()

    def test_held_under_another_name(self):
        service = self.unused
        assert service
