"""Connections, with stand-ins the module binds in their place when an
optional import failed (``if not ssl: SecureConnection = DummyConnection``)."""

try:
    import ssl
except ImportError:
    ssl = None


class Connection:
    def __init__(self, host="localhost"):
        self.host = host

    def open_socket(self):
        return self.host

    def connect(self):
        return self.open_socket()


class SecureConnection(Connection):
    def wrap(self):
        return ssl


class DummyConnection:
    """Stands in for SecureConnection when ssl is missing."""


if not ssl:
    SecureConnection = DummyConnection
