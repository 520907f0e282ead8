"""A connection whose channel is only typed by its base class (the property
caches it in an attribute that starts as ``None``), as kombu's
``Connection.default_channel -> Channel`` is."""


class Channel:
    def close(self):
        return None


class RedisChannel(Channel):
    def _on_disconnect(self):
        return None


class Transport:
    channel_class = RedisChannel

    def create_channel(self):
        return self.channel_class()


class Connection:
    def __init__(self, transport):
        self.transport = transport
        self._channel = None

    @property
    def default_channel(self) -> Channel:
        if self._channel is None:
            self._channel = self.transport.create_channel()
        return self._channel
