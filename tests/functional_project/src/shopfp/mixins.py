"""A mixin that uses what its host classes provide."""


class AuditMixin:
    def audit(self):
        return self.client.send("audit")


class Service(AuditMixin):
    client = None


class Report(Service):
    def __init__(self):
        self.sink = []
