"""A function handing on another's answer, and a client made of mixins."""


class Credentials(dict):
    def find(self, registry):
        if registry in self:
            return self[registry]
        return None


def find_credentials(store, registry):
    return Credentials(store).find(registry)


def auth_header(registry):
    found = find_credentials({}, registry)
    if found:
        return "X-Auth " + str(found)
    return None


def is_signed(name):
    return name.endswith(".sig")


class PushMixin:
    def push(self, name):
        if is_signed(name):
            return {"signed": name}
        return {}


class Client(PushMixin):
    pass
