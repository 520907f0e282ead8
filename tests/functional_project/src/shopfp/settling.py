"""A caller whose condition reads the call and something else."""


def persist(name):
    return "saved" if name else None


def settle(name, converging=False):
    saved = persist(name)
    if converging and not saved:
        return "lost"
    return saved


def settle_alone(name):
    saved = persist(name)
    if not saved:
        return "lost"
    return saved
