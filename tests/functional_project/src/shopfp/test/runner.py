"""The shipped runner: its suite tests it like any other code."""


class Runner:
    def setup(self):
        return "ready"

    def run(self):
        return self.setup() == "ready"
