"""Code under test with several outcomes per function."""


def read_evidence(name):
    if not name:
        raise KeyError(name)
    if name.startswith("r"):
        return "RETRY"
    return "APPROVED"


def run_gates(name):
    status = read_evidence(name)
    if status == "APPROVED":
        return True
    try:
        return gate_or_default(name)
    except KeyError:
        return False


def gate_or_default(name):
    return name or None


def record(name):
    """A procedure: always returns None."""
    print(name)


def is_open(name):
    return name == "open"


class Gate:
    def check(self, name):
        while name:
            name = name[1:]
        return "ok" if name is not None else "none"


def guarded(name):
    """Catches what read_evidence raises: the KeyError is a branch here."""
    try:
        return read_evidence(name)
    except KeyError:
        return "MISSING"


def door(name):
    """Reads is_open's result in a condition."""
    if is_open(name):
        return "in"
    return "out"


def verdict(name):
    """Both literals take the same arm of `is not None`: one outcome for this caller."""
    status = read_evidence(name)
    if status is not None:
        return status
    return "none"


def lookup(table, name):
    """Calls a method named `check` on a dict-like: not a call of Gate.check."""
    if table.check(name) == "none":
        return None
    return table


def check_gate(name):
    """Calls Gate.check on an instance made here: found by the object it resolves to."""
    gate = Gate()
    if gate.check(name) == "none":
        return "closed"
    return "open"


def parse(name):
    """Raises ValueError, which no first-party code catches."""
    if not name:
        raise ValueError(name)
    return name.upper()


def parse_all(names):
    return [parse(name) for name in names]


class Session:
    """A context manager whose __enter__ tells is_open's outcomes apart."""

    def __enter__(self):
        if is_open("session"):
            return self
        raise ConnectionError("closed")

    def __exit__(self, *exc_info):
        return False

    def ping(self):
        return "pong"


def open_session():
    return Session()


def read_badge(name):
    """Read by turnstile.badge_of alone."""
    if not name:
        raise KeyError(name)
    return "STAFF"
