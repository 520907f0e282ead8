"""An object typed only by an annotation (a property's ``-> Storage``) may be
any subclass of that class, a double the tests define among them: a method
that double overrides may be the tests' own code, so patching it is not
reported. Methods it inherits stay the project's."""
# pylint: disable=missing-docstring,import-error
from shopfp import sessions, storage


class QuietStorage(storage.Storage):
    """The tests' double: keeps nothing."""

    def save(self, order_id, total):
        return order_id


def test_declared_property_of_an_object_that_may_be_the_double(mocker):
    keeper = sessions.Keeper(sessions.untyped())
    mocker.patch.object(keeper.storage, "save")  # QuietStorage.save, perhaps
    mocker.patch.object(keeper.storage, "load")  # [first-party-mock]


def test_known_exactly(mocker):
    mocker.patch.object(storage.Storage(), "save")  # [first-party-mock]
