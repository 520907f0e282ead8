"""A pool handing out a queued connection or a new one: ``conn or
self._new_conn()``, whose operands disagree (a library queue's item, a
project object); the return annotation says which."""

import queue


class Conn:
    def close(self):
        return None


class Pool:
    def __init__(self):
        self.idle = queue.LifoQueue()

    def _new_conn(self) -> Conn:
        return Conn()

    def _queued(self):
        conn = None
        try:
            conn = self.idle.get(block=False)
        except queue.Empty:
            pass
        return conn

    def get_conn(self) -> Conn:
        return self._queued() or self._new_conn()

    def get_untyped(self):
        return self._queued() or self._new_conn()
