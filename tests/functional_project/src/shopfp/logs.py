"""The shop's logger, of a logger class with a level of its own."""
import logging
from typing import cast

from shopfp.storage import SqlStorage, Storage  # noqa: F401  (Storage: named in a cast)

SUCCESS = 25


class ShopLogger(logging.getLoggerClass()):
    def success(self, message):
        self.log(SUCCESS, message)


logging.setLoggerClass(ShopLogger)
LOG = cast("ShopLogger", logging.getLogger("shopfp"))
PLAIN = cast(logging.Logger, logging.getLogger("other"))


class AuditHandler(logging.Handler):
    def emit(self, record):
        self.format(record)


AUDIT = AuditHandler()
STORE = cast("Storage", SqlStorage())  # declared as the base class, made as the subclass
