"""Start-up work that must not stop the service, and a check refusing duplicates."""

from shopfp import states


def heal():
    return 0


def start():
    try:
        healed = heal()
        if healed:
            print("healed", healed)
    except Exception:  # pylint: disable=broad-exception-caught
        print("healing failed")


def read_names(name):
    return [name]


def check_unique(name):
    names = read_names(name)
    if len(names) > 1:
        raise ValueError(name)


def write(name, total):
    return name, total


def record(name):
    write(name, 1)


def resume(name, state):
    states.check_resumable(state)
    write(name, 2)


def resume_quietly(name, state):
    states.describe(state)
    write(name, 3)


def _journal(name):
    try:
        return read_names(name)
    except LookupError:
        print("no journal for", name)
        raise


def resume_journaled(name):
    _journal(name)
    write(name, 4)


class Healer:
    def write(self, name, total):
        return name, total

    def record(self, name):
        self.write(name, 1)
