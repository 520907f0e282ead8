"""A turnstile admitting on evidence: partial-mock cases whose arms sibling tests take."""

from shopfp import gates


class TurnstileJammed(Exception):
    """The evidence could not be read."""


def admit(name):
    try:
        status = gates.read_evidence(name)
    except KeyError:
        raise TurnstileJammed(name) from None
    if status == "RETRY":
        print("come back later, %s: the evidence is pending" % name)
        return False
    return True


def admit_strictly(name):
    if not name.isidentifier():
        raise ValueError(name)
    try:
        return gates.read_evidence(name) == "APPROVED"
    except KeyError:
        raise ValueError(name) from None


def admit_all(names):
    admitted = []
    for name in names:
        status = gates.read_evidence(name)
        if status != "APPROVED":
            break
        admitted.append(name)
    return admitted


def admit_checked(name, check):
    status = None
    if check and status is None:  # reads the value from before the call
        status = gates.read_evidence(name)
    return status


def status_of(name, journal):
    try:
        status = gates.read_evidence(name)
        journal.record(status)
    except KeyError:
        return "UNKNOWN"
    return status


def record_status(name, journal):
    try:
        status = gates.read_evidence(name)
        journal.record(status)
    except KeyError as error:
        raise TurnstileJammed(name) from error
    return status


class Lane:
    def pass_through(self, name, journal):
        try:
            status = gates.read_evidence(name)
            self._log(journal, status)
        except KeyError:
            return "UNKNOWN"
        return status

    def _log(self, journal, status):
        journal.record(status)


class FastLane:
    def pass_through(self, name):
        return gates.read_evidence(name)


class Gatehouse:
    def __init__(self, name):
        if not gates.is_open(name):
            raise TurnstileJammed(name)
        self.name = name


def badge_of(name):
    try:
        return gates.read_badge(name)
    except KeyError as error:
        raise TurnstileJammed("no badge on file for this name: %s" % error) from None


def enter(name):
    """Reaches badge_of one call down."""
    return badge_of(name) == "STAFF"


def claim_lane(lane):
    """Two arms whose messages start alike."""
    if gates.is_open(lane):
        raise TurnstileJammed(f"lane {lane} already claimed by the day shift")
    raise TurnstileJammed(f"lane {lane} already claimed")
