"""A boiler plant: objects whose construction and preparation read their
helpers' answers, and a valve subclass that decides whether to run its
parent's method."""


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
