"""Spies the tests build around the real functions."""
# pylint: disable=unused-argument
import asyncio


def call_after(function, after):
    """``function`` itself, then ``after`` with what it gave."""
    if asyncio.iscoroutinefunction(function):

        async def wrapped(*args, **kwargs):
            out = await function(*args, **kwargs)
            after(out)
            return out

    else:

        def wrapped(*args, **kwargs):
            out = function(*args, **kwargs)
            after(out)
            return out

    return wrapped


def answer_instead(function, answer):
    """Not a spy: it never calls ``function``."""

    def wrapped(*args, **kwargs):
        return answer

    return wrapped
