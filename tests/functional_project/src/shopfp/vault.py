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


def audit(name):
    return name


def open_and_audit(name):
    try:
        key = unlock(name)
    except VaultError:
        return "refused"
    return audit(key)


class Locker(object):  # an explicit object base: not a class of the project
    def fetch(self, name):
        if not name:
            raise VaultError(name)
        return name

    def fetch_or_none(self, name):
        try:
            return self.fetch(name)  # on self: a Shelf's patched fetch when self is a Shelf
        except VaultError:
            return None


class Shelf(Locker):
    """Inherits fetch."""


class Drawer(Locker):
    """Inherits fetch too."""


def from_drawer(name):
    try:
        return Drawer().fetch(name)
    except VaultError:
        return None


def from_shelf(name):
    try:
        return Shelf().fetch(name)
    except VaultError:
        return None


def can_store(name):
    return bool(name)


def guarded_store(name):
    if not can_store(name):
        return None
    if is_sealed(name):
        return "kept"
    return "open"
