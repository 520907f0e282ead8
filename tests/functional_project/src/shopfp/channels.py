"""Two module globals: ``open_channels`` sets them, ``close_channels`` resets them."""
CHANNEL = None
BACKUP_CHANNEL = None


def open_channels():
    global CHANNEL, BACKUP_CHANNEL  # pylint: disable=global-statement
    CHANNEL = object()
    BACKUP_CHANNEL = object()


def close_channels():
    global CHANNEL, BACKUP_CHANNEL  # pylint: disable=global-statement
    CHANNEL = BACKUP_CHANNEL = None
