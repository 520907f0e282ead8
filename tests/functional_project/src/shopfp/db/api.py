"""The database API: a proxy that hands every call to the backend module's connection."""
from oslo_db import api as db_api

_BACKEND_MAPPING = {"sqlalchemy": "shopfp.db.backend"}
IMPL = db_api.DBAPI.from_config(None, backend_mapping=_BACKEND_MAPPING, lazy=True)
TWO = db_api.DBAPI("sqlalchemy", backend_mapping={"sqlalchemy": "shopfp.db.backend", "other": "shopfp.db.other"})


def get_instance():
    return IMPL
