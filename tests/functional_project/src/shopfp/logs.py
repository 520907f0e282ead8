"""The shop's logger, of a logger class with a level of its own."""
import logging
from typing import cast

SUCCESS = 25


class ShopLogger(logging.getLoggerClass()):
    def success(self, message):
        self.log(SUCCESS, message)


logging.setLoggerClass(ShopLogger)
LOG = cast("ShopLogger", logging.getLogger("shopfp"))
PLAIN = cast(logging.Logger, logging.getLogger("other"))
