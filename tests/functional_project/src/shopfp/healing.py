"""Start-up work that must not stop the service, and a check refusing duplicates."""


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
