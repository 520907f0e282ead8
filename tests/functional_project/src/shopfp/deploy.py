"""A module with a function of its own name."""
import logging
import os

log = logging.getLogger(__name__)


def _is_repository():
    return os.path.isdir(".git")


def version():
    return "1.0"


def deploy():
    if not _is_repository():
        log.error("Cannot deploy outside a repository")
    return "deployed"
