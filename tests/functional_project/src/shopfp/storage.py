"""First-party classes."""

import logging

LOG = logging.getLogger(__name__)


class Storage:
    """Keeps orders."""

    backend = "memory"

    def __init__(self):
        self.orders = {}

    def save(self, order_id, total):
        self.orders[order_id] = total
        return order_id

    def load(self, order_id):
        return self.orders.get(order_id)

    @property
    def size(self):
        return len(self.orders)


class SqlStorage(Storage):
    """Inherits save/load from Storage."""

    def vacuum(self):
        return None


DEFAULT = Storage()
