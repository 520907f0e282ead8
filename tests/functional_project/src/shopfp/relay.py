"""Calls of Storage.save made on every path, and on some paths only where
only the function's decorator or a second call shows it."""

import functools

from shopfp.storage import Storage


def _forgiving(function):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except ValueError:
            return None

    return wrapper


def forward(order_id):
    return Storage().save(order_id, 1)


@_forgiving
def forward_forgiving(order_id):
    return Storage().save(order_id, 1)


def forward_all(order_ids):
    for order_id in order_ids[1:]:
        Storage().save(order_id, 1)
    return Storage().save(order_ids[0], 1)


def _forward(order_id):
    return Storage().save(order_id, 1)


def forward_through_helper(order_id):
    return _forward(order_id)


def forward_further(order_id):
    return forward_through_helper(order_id)


def forward_by_name(order_id, method="save"):
    return getattr(Storage(), method)(order_id, 1)


class Courier:
    def __init__(self, order_id):
        self.order_id = order_id.strip()

    def deliver(self, order_id):
        return Storage().save(order_id, 1)

    def deliver_own(self):
        return Storage().save(self.order_id, 1)
