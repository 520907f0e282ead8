"""States a piece of work may be resumed in."""

RESUMABLE = frozenset({"waiting", "paused"})


def check_resumable(state):
    if state not in RESUMABLE:
        raise ValueError(f"cannot resume from {state}")


def describe(state):
    return state.upper()
