"""Hooks: objects with behaviour, made by calls, not settings."""


class Hook:
    def send(self):
        return None


saved = Hook()
loaded = Hook()
placed = Hook()
charged = Hook()
refunded = Hook()
shipped = Hook()
returned = Hook()
cancelled = Hook()
archived = Hook()
deleted = Hook()
