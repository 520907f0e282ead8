"""A class body that re-exports functions as static methods."""

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for annotations only: exporting has no Storage when it runs
    from shopfp.storage import Storage


def _export(orders: "dict[str, Storage]"):
    return dict(orders)


class Exporter:
    """Its methods are module functions, first-party and not."""

    from shopfp.util import helper as _helper  # an import in the class body, as dvc's Repo does

    export = staticmethod(_export)
    dumps = staticmethod(json.dumps)
    helper = staticmethod(_helper)
