"""A class made by a metaclass of the project."""


class ClientMeta(type):
    _kinds = {"memory": dict}

    def kind_for(cls, label):
        return cls._kinds[label]

    def label(cls):
        return "meta"


class Client(metaclass=ClientMeta):
    label = "client"
