"""A console whose class and module both have a ``main`` (glanceclient's shell)."""


class UsageError(Exception):
    pass


class Console:
    def count(self, argv):
        if len(argv) > 3:
            raise UsageError("too many arguments")
        return len(argv) == 0

    def main(self, argv):
        if self.count(argv):
            return 2
        return 0


def main(argv):
    try:
        return Console().main(argv)
    except Exception:  # the entry point's catch-all: above the method a test may enter at
        return 1


class Reader:
    def run(self, argv):
        return Console().count(argv)


class Guard:
    def run(self, argv):
        try:
            return Console().count(argv)
        except UsageError:
            return None
