"""A registry that adds each registered class to the ``models`` package, as oslo.versionedobjects' does."""

from shopfp import models


def register(cls):
    setattr(models, cls.__name__, cls)
    return cls
