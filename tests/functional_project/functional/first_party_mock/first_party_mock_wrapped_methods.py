"""A method an instance rebinds to a wrapped version of itself (by a decorator
function, or an object whose ``__call__`` returns a ``functools.wraps``
closure) is still the project's method. A double made to a protocol's shape
stands in for no code. A spec'd double kept on ``self`` that nobody configures
is an inert collaborator, unless code outside its class reaches the attribute,
or a patch installs it in place of the real function."""
# pylint: disable=missing-docstring,import-error
import unittest
from unittest import mock

from shopfp import wrapping


def test_rebound_by_a_decorator_object():
    fetcher = wrapping.Fetcher()
    with mock.patch.object(fetcher, "get", autospec=True, return_value="x"):  # [first-party-mock]
        assert fetcher.get("u") == "x"


def test_rebound_by_a_decorator_function():
    fetcher = wrapping.Fetcher()
    with mock.patch.object(fetcher, "post", autospec=True, return_value="x"):  # [first-party-mock]
        assert fetcher.post("u", "b") == "x"


def test_protocol_shaped_double():
    source = mock.create_autospec(wrapping.TokenSource, instance=True)
    source.token.return_value = "t"
    assert wrapping.Pipeline(None, source).header() == "Bearer t"


class TestInertOnSelf(unittest.TestCase):
    def setUp(self):
        self.link = mock.Mock(spec=wrapping.Transport)
        self.pipeline = wrapping.Pipeline(self.link)

    def test_transport_kept(self):
        self.assertIs(self.pipeline.transport, self.link)


class TestReachedFromOutside(unittest.TestCase):
    def setUp(self):
        self.sender = mock.Mock(spec=wrapping.Transport)  # [first-party-mock]
        self.pipeline = wrapping.Pipeline(self.sender)


class TestSubclassConfigures(TestReachedFromOutside):
    def test_send_fails(self):
        self.sender.send.side_effect = OSError
        self.assertRaises(OSError, self.pipeline.transport.send, "r")


class TestInstalledFromSelf(unittest.TestCase):
    def setUp(self):
        self.fake_path = mock.create_autospec(wrapping.config_path)  # [first-party-mock]
        patcher = mock.patch("shopfp.wrapping.config_path", self.fake_path)  # [first-party-mock]
        patcher.start()
        self.addCleanup(patcher.stop)

    def test_read(self):
        self.assertIsNotNone(wrapping.read_config())
