"""A config drive writer whose handler cleans up and raises the failure again."""

REMOVED = []
MAX_SIZE = 64


class DriveError(Exception):
    """Writing the drive failed."""


def measure(device):
    return len(device)


def fix_table(device):
    if not device.startswith("sd"):
        raise DriveError("no partition table")
    return device


def write_drive(device):
    try:
        if measure(device) > MAX_SIZE:
            raise DriveError("drive too big")
        fix_table(device)
        return device
    except DriveError:
        REMOVED.append(device)
        raise


def erase_drive(device):
    """Releases the drive on any failure, and raises it again."""
    try:
        if measure(device) > MAX_SIZE:
            raise DriveError("drive too big to erase")
        fix_table(device)
    except BaseException:
        REMOVED.append(device)
        raise
