"""A name a package declares for the type checker alone (``if TYPE_CHECKING:
Watcher: type[Base]``) and binds at run time in the ``else`` branch is what
the ``else`` branch binds, fallbacks included: patching its methods mocks
first-party code (uvicorn's ``ChangeReload``)."""
# pylint: disable=missing-docstring,import-error
from unittest import mock

from shopfp.watchers import Watcher


def test_run_is_first_party():
    with mock.patch.object(Watcher, "run", autospec=True):  # [first-party-mock]
        assert Watcher


def test_poll_by_its_dotted_name():
    with mock.patch("shopfp.watchers.Watcher.poll", autospec=True):  # [first-party-mock]
        assert Watcher
