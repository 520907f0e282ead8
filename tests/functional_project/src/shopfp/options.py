"""Collaborators chosen through configuration options (oslo.config style)."""

from oslo_config import cfg
from oslo_utils import importutils

NAME = "shopfp.storage.Storage"

backend_opts = [
    cfg.StrOpt("store_class", default="shopfp.storage.Storage", help="The class that keeps orders."),
    cfg.StrOpt("twice_class", default="shopfp.storage.Storage"),
    cfg.StrOpt("computed_class", default=NAME),
]
twice_opt = cfg.StrOpt("twice_class", default="shopfp.storage.SqlStorage")

CONF = cfg.CONF
CONF.register_opts(backend_opts)
CONF.register_opt(twice_opt, group="other")

STORE = importutils.import_class(CONF.store_class)


class Service:
    def __init__(self, store_class=None):
        if not store_class:
            store_class = CONF.store_class
        self.store = importutils.import_object(store_class)
        self.twice = importutils.import_object(CONF.twice_class)
        self.computed = importutils.import_object(CONF.computed_class)
