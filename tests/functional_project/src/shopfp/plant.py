"""A boiler plant: objects whose construction and preparation read their
helpers' answers, and a valve subclass that decides whether to run its
parent's method."""

from shopfp.storage import SqlStorage, Storage


def valve_open(name):
    return not name.startswith("x")


def is_fitting(path):
    return path.endswith(".fit")


def read_gauge():
    return 1


class Plant:
    def __init__(self, names):
        self.names = names
        self.running = []
        self.load()

    def load(self):
        for name in self.names:
            if valve_open(name):
                self.running.append(name)
            else:
                self.running.clear()


class Boiler:
    def __init__(self, paths):
        self.paths = paths
        self.fittings = []

    def prepare(self):
        self.fittings = self.collect()

    def collect(self):
        found = []
        for path in self.paths:
            if not is_fitting(path):
                continue
            found.append(path)
        return found


class Valve:
    def __init__(self):
        self.shut_count = 0

    def shut(self):
        self.shut_count += 1


class SafetyValve(Valve):
    locked = False

    def shut(self):
        if self.locked:
            return None
        return super().shut()


KINDS = {"plain": Valve, "safety": SafetyValve}


class Motor:
    def spin(self):
        return "spinning"


class Pump:
    """Takes the class of its motor, for callers to inject another."""

    def __init__(self, motor=Motor):
        self.motor = motor()

    def run(self):
        return self.motor.spin()


def open_storage(kind) -> Storage:
    """Declared as a Storage; gives an SqlStorage for "sql"."""
    if kind == "sql":
        return SqlStorage()
    return Storage()


def gauge_ok():
    return read_gauge() > 0


class Panel:
    """Shows itself by a method its mode names."""

    def __init__(self, mode="dial"):
        self.mode = mode
        self.alarms = []

    def show(self):
        return getattr(self, f"_show_{self.mode}")()

    def _show_dial(self):
        if not gauge_ok():
            self.alarms.append("gauge")
        return True


def make_pumps():
    """(the pumps, the errors), as a parser returns what it built."""
    pumps = [Pump(), Pump()]
    return pumps, []
