"""Powering nodes that may carry child nodes: set_power recurses through
_power_children, so it is among the callers of itself."""


class PowerError(Exception):
    """A node refused the power state."""


def set_power(node, state):
    if state not in ("on", "off"):
        raise PowerError(state)
    if node.get("children"):
        try:
            _power_children(node, state)
        except PowerError:
            node["degraded"] = True
    node["state"] = state


def _power_children(node, state):
    for child in node["children"]:
        set_power(child, state)


def reboot(node):
    set_power(node, "off")
    try:
        set_power(node, "on")
    except PowerError:
        return False
    return True


def reboot_all(nodes):
    return [reboot(node) for node in nodes]


def cycle(nodes):
    return all(reboot_all(nodes))


def probe(node):
    if not node:
        raise PowerError("no node")
    if node.get("off"):
        return None
    return "on"


def read_state(node):
    try:
        state = probe(node)
    except PowerError:
        state = None  # an unreachable node reads as unknown
    if state is None:
        return "unknown"
    return state
