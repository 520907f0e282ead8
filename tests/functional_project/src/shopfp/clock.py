"""A clock: a function bound again to a partial of itself, kept as a static method."""

from functools import partial


def utcnow(with_tz=True):
    return with_tz


utcnow = partial(utcnow, with_tz=False)


class Expiring:
    now = staticmethod(utcnow)

    def renew(self):
        return self.now()
