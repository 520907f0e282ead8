"""Classes whose first base has a metaclass: abc's adds no attributes, another may."""

import abc


class Notifying(metaclass=abc.ABCMeta):
    def notify(self):
        return None


class Repo:
    def get(self, key):
        return key


class RepoProxy(Notifying, Repo):
    """Inherits get through its second base."""


class Registering(type):
    """A metaclass that may add attributes."""


class Registered(metaclass=Registering):
    pass


class RegisteredProxy(Registered, Repo):
    """get may come from the metaclass's doing: not told."""
