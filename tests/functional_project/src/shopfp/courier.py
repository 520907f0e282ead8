"""Deliveries whose failures come as a family of exception classes."""
import json


class CourierError(Exception):
    pass


class Refused(CourierError):
    pass


class Lost(Exception):
    pass


def hand_over(parcel):
    if not parcel:
        raise Refused(parcel)
    return parcel


def read_label(text):
    if not text:
        raise json.JSONDecodeError("empty label", text, 0)
    return text


def deliver(parcel):
    try:
        hand_over(parcel)
    except CourierError:
        return "refused"
    except Exception:  # pylint: disable=broad-exception-caught
        return "broken"
    return "delivered"


def deliver_or_lose(parcel):
    try:
        hand_over(parcel)
    except Lost:
        return "lost"
    except Exception:  # pylint: disable=broad-exception-caught
        return "broken"
    return "delivered"


def label_of(text):
    try:
        read_label(text)
    except ValueError:
        return "unreadable"
    except Exception:  # pylint: disable=broad-exception-caught
        return "broken"
    return "read"


Jammed = type("Jammed", (Exception,), {})  # a class the engine cannot read


class Stuck(Jammed):  # pylint: disable=invalid-name
    pass


def hand_over_slowly(parcel):
    if not parcel:
        raise Stuck(parcel)
    return parcel


def deliver_slowly(parcel):
    try:
        hand_over_slowly(parcel)
    except Jammed:
        return "jammed"
    except Exception:  # pylint: disable=broad-exception-caught
        return "broken"
    return "delivered"


def deliver_unless_jammed(parcel):
    try:
        hand_over(parcel)
    except Jammed:
        return "jammed"
    except Exception:  # pylint: disable=broad-exception-caught
        return "broken"
    return "delivered"
