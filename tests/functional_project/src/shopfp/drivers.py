"""Drivers whose classes declare the connection they make."""


class Connection:
    secure = False


class SecureConnection(Connection):
    pass


class BaseDriver:
    name = None


class Driver(BaseDriver):
    connection_class = Connection

    def connect(self):
        return self.connection_class()
