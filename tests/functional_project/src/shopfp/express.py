"""A lane of another module whose method shares its name with turnstile.Lane's."""

from shopfp import gates


class ExpressLane:
    def pass_through(self, name):
        return gates.read_evidence(name)
