"""Code under test where another mock of the test decides whether an arm of
the mocked function's caller can be reached at all."""


class VaultError(Exception):
    """The vault refused."""


def unlock(key):
    if not key:
        raise VaultError("no key")
    return key


def is_sealed(name):
    return name.startswith("s")


def validate(name):
    if not name:
        raise VaultError(name)


def store(name):
    if name is None:
        return None
    sealed = is_sealed(name)
    validate(name)
    if sealed:
        return "kept"
    return "open"


def open_box(name):
    try:
        key = unlock(name)
        sealed = is_sealed(key)
    except VaultError:
        return "refused"
    return "sealed" if sealed else "opened"


class Records:
    def patch(self, name):
        """Shares its name with ``mock.patch``."""
        if is_sealed(name):
            return "sealed"
        return "patched"


def listing(name):
    return [name]
