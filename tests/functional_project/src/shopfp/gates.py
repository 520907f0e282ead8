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
