"""A module that imports stdlib and first-party names, as real code does."""

import json as jsonlib
import threading
import time
from time import sleep

from shopfp import config
from shopfp.storage import LOG, Storage
from shopfp.util import helper as renamed_helper

helper = renamed_helper


def run(order_id):
    sleep(config.RETRIES)
    time.sleep(0)
    LOG.info("run %s", order_id)
    return jsonlib.dumps({"id": order_id, "saved": Storage().save(order_id, 1)})


class Runner:
    def claim(self):
        return renamed_helper()

    @staticmethod
    def static():
        return 1

    @classmethod
    def build(cls):
        return cls()


class Worker(threading.Thread):
    """Inherits start() from the stdlib: patching Worker.start replaces stdlib code."""

    def work(self):
        return run("w")


def assign():
    return helper()


def reload(order_id):
    return Storage().load(order_id)
