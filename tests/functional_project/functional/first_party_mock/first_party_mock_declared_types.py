"""What a test asserts an object is (``assert isinstance(x, C)``), and what a
class declares an attribute set later to be (``self._x: C | None = None``),
say where a patch lands, as they do for a type checker."""
# pylint: disable=missing-docstring,import-error,protected-access
import threading

import pytest

from shopfp import commands, storage
from shopfp.commands import StorageCommand


class Holder:
    command = commands.find("store")


@pytest.fixture
def command():
    return commands.find("store")


def test_asserted_type_of_a_fixture(command, mocker):
    assert isinstance(command, commands.StorageCommand)
    mocker.patch.object(command.storage, "save")  # [first-party-mock]


def test_asserted_type_of_an_attribute(mocker):
    holder = Holder()
    assert isinstance(holder.command, StorageCommand)
    mocker.patch.object(holder.command.storage, "load")  # [first-party-mock]


def test_no_assert_no_type(command, mocker):
    mocker.patch.object(command.storage, "save")


def test_a_check_inside_a_branch_narrows_nothing(command, mocker):
    if isinstance(command, StorageCommand):
        mocker.patch.object(command.storage, "save")


def test_a_tuple_of_classes_narrows_nothing(command, mocker):
    assert isinstance(command, (StorageCommand, threading.Timer))
    mocker.patch.object(command.storage, "save")


def test_conflicting_asserts_narrow_nothing(command, mocker):
    assert isinstance(command, StorageCommand)
    assert isinstance(command, threading.Timer)
    mocker.patch.object(command.storage, "save")


def test_declared_attributes(mocker):
    made = StorageCommand()
    mocker.patch.object(made._storage, "save")  # [first-party-mock]
    mocker.patch.object(made._quoted, "load")  # [first-party-mock]
    mocker.patch.object(made._many, "append")
    mocker.patch.object(made._broken, "save")


def test_asserted_equal_to_a_class_then_built(mocker):
    kind = commands.find("kind")
    assert kind == StorageCommand
    built = kind()
    mocker.patch.object(built.storage, "save")  # [first-party-mock]


def test_asserted_equal_to_a_value_narrows_nothing(mocker):
    kind = commands.find("kind")
    assert kind == "store"
    mocker.patch.object(kind().storage, "save")


def test_instance_made_without_init(mocker):
    made = object.__new__(storage.Storage)
    mocker.patch.object(made, "save")  # [first-party-mock]


from shopfp import sessions  # noqa: E402


def test_declared_results(mocker):
    mocker.patch.object(sessions.current(), "save")  # [first-party-mock]
    mocker.patch.object(sessions.untyped(), "save")
    with sessions.session() as opened:
        mocker.patch.object(opened, "load")  # [first-party-mock]
    with sessions.loose_session() as loose:
        mocker.patch.object(loose, "load")


def test_a_parameter_left_out_is_its_default(mocker):
    mocker.patch.object(sessions.build(), "vacuum")  # [first-party-mock]
    mocker.patch.object(sessions.build(storage.Storage), "load")  # [first-party-mock]
    mocker.patch.object(sessions.given(), "load")


def test_generic_bases_and_declared_globals(mocker):
    mocker.patch("shopfp.sessions.StoragePool.acquire")  # [first-party-mock]
    mocker.patch("shopfp.sessions.current_pool")  # [first-party-mock]


def test_union_declared_globals(mocker):
    mocker.patch("shopfp.sessions.active")  # [first-party-mock]
    mocker.patch("shopfp.sessions.mixed")


def test_annotated_parameters_and_a_property_with_a_setter(mocker):
    keeper = sessions.Keeper(sessions.untyped())
    mocker.patch.object(keeper.kept, "save")  # [first-party-mock]
    mocker.patch.object(keeper.storage, "load")  # [first-party-mock]


@pytest.fixture
def loosely_built():
    return sessions.untyped()


def test_annotated_test_parameter(loosely_built: storage.Storage, mocker):
    mocker.patch.object(loosely_built, "save")  # [first-party-mock]


class TestClassFixtures:
    @pytest.fixture
    def made(self):
        return storage.SqlStorage()

    def test_a_fixture_of_the_test_class(self, made, mocker):
        mocker.patch.object(made, "vacuum")  # [first-party-mock]


def test_globals_filled_on_first_use(mocker):
    mocker.patch("shopfp.sessions._POOL")  # [first-party-mock]
    mocker.patch("shopfp.sessions._SPARE")
    mocker.patch("shopfp.sessions._LOOSE")
    mocker.patch("shopfp.sessions._POOL", None)  # back to its first state: nothing faked
    mocker.patch.object(sessions, "current_pool", None)
    mocker.patch.object(sessions, "_POOL", 0)  # [first-party-mock]
    mocker.patch.object(sessions, "_RUNNER", lambda order_id: None)  # [first-party-mock]
    mocker.patch.object(sessions, "_RUNNER", None)  # back to its first state: nothing faked


from shopfp.db import api as db_api  # noqa: E402


class TestBackendProxy:
    def setup_method(self):
        self.dbapi = db_api.get_instance()

    def test_the_proxy_stands_for_its_backend(self, mocker):
        mocker.patch.object(self.dbapi, "get_order", autospec=True)  # [first-party-mock]
        mocker.patch.object(db_api.IMPL, "get_order", autospec=True)  # [first-party-mock]

    def test_two_backends_say_nothing(self, mocker):
        mocker.patch.object(db_api.TWO, "get_order", autospec=True)


from shopfp import logs  # noqa: E402


def test_what_a_cast_declares(mocker):
    """``cast("ShopLogger", getLogger(...))`` declares the logger a ShopLogger."""
    mocker.patch.object(logs.LOG, "success", autospec=True)  # [first-party-mock]
    mocker.patch.object(logs.PLAIN, "info", autospec=True)
    mocker.patch("shopfp.logs.LOG", autospec=True)  # the whole logger, as a stdlib one is not reported


def test_a_handler_is_no_logger(mocker):
    mocker.patch("shopfp.logs.AUDIT", autospec=True)  # [first-party-mock]


def test_a_cast_to_the_base_of_what_is_made(mocker):
    mocker.patch.object(logs.STORE, "vacuum", autospec=True)  # [first-party-mock]


from shopfp.pooling import Pool  # noqa: E402


def test_either_operand_decided_by_the_annotation(mocker):
    pool = Pool()
    mocker.patch.object(pool.get_conn(), "close")  # [first-party-mock]
    mocker.patch.object(pool.get_untyped(), "close")  # [first-party-mock]  (a queued item is one the pool made)
