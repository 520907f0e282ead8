"""Loader settings behind a metaclass's properties, which store them elsewhere."""


class _LoaderMeta(type):
    def __init__(cls, name, bases, namespace):
        super().__init__(name, bases, namespace)
        cls._default = None

    @property
    def default(cls):
        return cls._default

    @default.setter
    def default(cls, value):
        cls._default = value


class LoaderConfig(metaclass=_LoaderMeta):
    RETRIES = 3


class OtherConfig(metaclass=_LoaderMeta):
    pass


def forget():
    LoaderConfig._default = None
