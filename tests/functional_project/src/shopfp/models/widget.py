"""A model registered into the package."""

from shopfp.models import base


@base.register
class Widget:
    def save(self):
        return self
