"""A global object swapped for a real one of the project: isolation, nothing
faked. A stand-in put in its place is still a first-party mock, and so is a
spy (``wraps=``) the test gives answers of its own after making it
(oauthlib's ``MagicMock(wraps=RequestValidator())`` with
``.check_client_id.return_value = True``)."""
# pylint: disable=missing-docstring,import-error,too-few-public-methods
from unittest import mock

from shopfp import storage
from shopfp.storage import SqlStorage, Storage
from shopfp.storage import Storage as Store


class FakeStorage(Storage):
    def save(self, order_id, total):
        return order_id


def test_fresh_instance_of_the_same_class(monkeypatch):
    with mock.patch("shopfp.storage.DEFAULT", Storage()):
        pass
    monkeypatch.setattr(storage, "DEFAULT", Storage())
    fresh = SqlStorage()
    with mock.patch.object(storage, "DEFAULT", fresh):
        pass


def test_stand_ins_stay_first_party_mocks(monkeypatch):
    with mock.patch("shopfp.storage.DEFAULT", FakeStorage()):  # [first-party-mock]
        pass
    with mock.patch("shopfp.storage.DEFAULT", mock.MagicMock()):  # [first-party-mock]
        pass
    monkeypatch.setattr(storage, "DEFAULT", lambda: None)  # [first-party-mock]
    monkeypatch.setattr(storage, "DEFAULT", 0)  # [first-party-mock]
    with mock.patch("shopfp.storage.Storage.save", Storage().load):  # [first-party-mock]
        pass


def test_spies_let_the_real_code_answer(mocker):
    with mock.patch("shopfp.storage.Storage.save", wraps=Storage().save, autospec=False) as save:
        Storage().save(1, 2)
    assert save.call_count == 1
    mocker.patch("shopfp.storage.Storage.load", wraps=Storage().load)


def test_a_double_wrapping_the_original_is_a_spy(monkeypatch):
    monkeypatch.setattr(Storage, "save", mock.MagicMock(wraps=Storage().save))
    spy = mock.MagicMock(wraps=Storage().load)
    monkeypatch.setattr(Storage, "load", spy)
    monkeypatch.setattr(Storage, "size", mock.MagicMock(wraps=Storage().size, return_value=0))  # [first-party-mock]
    answering = mock.MagicMock(return_value=0)
    monkeypatch.setattr(Storage, "size", answering)  # [first-party-mock]


def test_a_spy_given_an_answer_is_a_stand_in():
    with mock.patch("shopfp.storage.Storage.save", wraps=Storage().save, return_value=0):  # [first-party-mock]
        pass


def test_a_spy_answered_later_is_a_stand_in():
    with mock.patch("shopfp.storage.Storage.save", wraps=Storage().save) as save:  # [first-party-mock]
        save.return_value = 0
        assert Storage().save(1, 2) == 0


def test_a_spy_of_a_function_answering_for_an_attribute_only_is_a_spy():
    with mock.patch("shopfp.storage.Storage.save", wraps=Storage().save) as save:
        save.audit.return_value = None  # not what calling the spy gives
        Storage().save(1, 2)


def test_a_double_wrapping_an_object_answered_later_stands_in_for_its_class():
    store = mock.MagicMock(wraps=Storage())  # [first-party-mock]
    store.load.side_effect = KeyError
    assert store.size() is not None


def test_a_double_wrapping_an_object_not_answered_is_a_spy():
    store = mock.MagicMock(wraps=Storage())
    store.save(1, 2)
    assert store.save.call_count == 1


def test_side_effect_that_is_the_patched_function_itself():
    real = Storage()
    with mock.patch.object(real, "save", side_effect=real.save, autospec=True):
        real.save(1, 2)
    with mock.patch("shopfp.storage.Storage.load", side_effect=storage.Storage.load, autospec=True):
        pass
    with mock.patch.object(real, "save", side_effect=real.load, autospec=True):  # [first-party-mock]
        pass
    with mock.patch("shopfp.storage.Storage.load", mock.MagicMock(side_effect=storage.Storage.load)):
        pass
    with mock.patch.object(real, "save", mock.MagicMock(side_effect=real.load)):  # [first-party-mock]
        pass


def test_side_effect_that_is_the_original_under_another_name():
    with mock.patch("shopfp.storage.Storage.load", side_effect=Store.load, autospec=True):  # imported at the top
        pass
    with mock.patch("shopfp.storage.Storage.load", side_effect=Store.save, autospec=True):  # [first-party-mock]
        pass


class PatchableStorage(Storage):
    """Only a new name for the real class, so one module's use of it can be patched."""


def test_a_bare_subclass_is_the_real_class(monkeypatch):
    monkeypatch.setattr(storage, "Storage", PatchableStorage)
    with mock.patch("shopfp.storage.Storage", FakeStorage):  # [first-party-mock]
        pass


def test_a_wrapper_calling_the_saved_original(monkeypatch):
    seen = []
    original_save = Storage.save

    def recording_save(self, order_id, total):
        seen.append(order_id)
        return original_save(self, order_id, total)

    def failing_save(self, order_id, total):
        if order_id == "x":
            raise ValueError(order_id)
        return original_save(self, order_id, total)

    def replacement_save(self, order_id, total):
        return order_id

    monkeypatch.setattr(Storage, "save", recording_save)
    with mock.patch.object(Storage, "save", failing_save):  # [first-party-mock]
        pass
    with mock.patch("shopfp.storage.Storage.save", replacement_save):  # [first-party-mock]
        pass
    assert Storage().save("a", 1) == "a" and seen == ["a"]


class RecordingStorage(Storage):
    """Records each save, then hands it to the real one: a spy."""

    seen: list

    def save(self, order_id, total):
        RecordingStorage.seen.append(order_id)
        return super().save(order_id, total)

    @classmethod
    def reset(cls):
        cls.seen = []


class ChangedStorage(Storage):
    def save(self, order_id, total):
        super().save(order_id, total)
        raise ValueError(order_id)


def test_a_subclass_handing_on_to_the_real_methods():
    with mock.patch("shopfp.storage.Storage", RecordingStorage):
        pass
    with mock.patch("shopfp.storage.Storage", ChangedStorage):  # [first-party-mock]
        pass


from shopfp import settings_defaults  # noqa: E402


def test_a_module_of_settings_is_configuration(monkeypatch):
    with mock.patch("shopfp.settings_defaults", settings_defaults):
        pass
    monkeypatch.setattr("shopfp.jobs.config", settings_defaults)  # [first-party-mock]


def test_a_module_of_objects_is_code():
    with mock.patch("shopfp.hooks"):  # [first-party-mock]
        pass


from shopfp import util  # noqa: E402
from shopfp.util import helper as imported_helper  # noqa: E402


def test_a_spy_defined_once_per_branch(flag):
    original = util.helper
    if flag:
        def counting():
            return original()
        with mock.patch("shopfp.util.helper", counting):
            pass
    else:
        def counting():
            return original()
        with mock.patch("shopfp.util.helper", counting):
            pass


def test_one_branch_defining_a_fake_is_a_stand_in(flag):
    original = util.helper
    if flag:
        def answering():
            return original()
    else:
        def answering():
            raise ValueError("down")
    with mock.patch("shopfp.util.helper", answering):  # [first-party-mock]
        pass


def test_a_spy_calling_the_original_by_another_spelling():
    original = util.helper

    def counting():
        return original()

    def importing():
        return imported_helper()

    def other():
        return util.helper.__name__

    with mock.patch("shopfp.jobs.renamed_helper", counting):
        pass
    with mock.patch("shopfp.jobs.renamed_helper", importing):
        pass
    with mock.patch("shopfp.jobs.renamed_helper", other):  # [first-party-mock]
        pass


def test_the_definition_in_effect_at_each_patch(flag):
    if flag:
        def wrapped():
            return util.helper()
        with mock.patch("shopfp.jobs.renamed_helper", wrapped):
            pass
    else:
        def wrapped():
            return 0
        with mock.patch("shopfp.jobs.renamed_helper", wrapped):  # [first-party-mock]
            pass
    with mock.patch("shopfp.util.helper", wrapped):  # [first-party-mock]
        pass


def test_a_class_handing_on_to_the_original():
    class Recording:
        def __init__(self):
            self.value = imported_helper()

    class Answering:
        def __init__(self):
            self.value = 1

    with mock.patch("shopfp.jobs.renamed_helper", Recording):
        pass
    with mock.patch("shopfp.jobs.renamed_helper", Answering):  # [first-party-mock]
        pass


@mock.patch("shopfp.util.helper", lambda: 0)  # [first-party-mock]
def test_a_spy_as_the_side_effect():
    def counting():
        return imported_helper()

    def answering():
        return 0

    with mock.patch("shopfp.jobs.renamed_helper", side_effect=counting):
        pass
    with mock.patch("shopfp.jobs.renamed_helper", side_effect=answering):  # [first-party-mock]
        pass
    with mock.patch("shopfp.jobs.renamed_helper", side_effect=counting, return_value=1):  # [first-party-mock]
        pass


def test_a_wrapper_answering_on_its_own_is_a_fake():
    calls = []

    def first_calls_answered():
        calls.append(1)
        if len(calls) > 2:
            return imported_helper()
        return []

    def keeping_the_answer():
        answer = imported_helper()
        calls.append(answer)
        return answer

    class Entered:
        def __enter__(self):
            self.value = imported_helper()
            return self.value

        def __exit__(self, *exc):
            return None

    with mock.patch("shopfp.jobs.renamed_helper", first_calls_answered):  # [first-party-mock]
        pass
    with mock.patch("shopfp.jobs.renamed_helper", side_effect=first_calls_answered):  # [first-party-mock]
        pass
    def filtering():
        for answer in [imported_helper()]:
            if answer:
                yield answer

    with mock.patch("shopfp.jobs.renamed_helper", keeping_the_answer):
        pass
    with mock.patch("shopfp.jobs.renamed_helper", filtering):
        pass
    with mock.patch("shopfp.jobs.renamed_helper", Entered):
        pass


def test_a_wrapper_changing_or_cutting_the_real_answer_is_a_fake():
    def cutting():
        answer = imported_helper()
        return answer[:1]

    def changing():
        answer = imported_helper()
        del answer[1:]
        return answer

    def setting():
        answer = imported_helper()
        answer.flag = True
        return answer

    async def awaiting():
        return await imported_helper()

    with mock.patch("shopfp.jobs.renamed_helper", side_effect=cutting):  # [first-party-mock]
        pass
    with mock.patch("shopfp.jobs.renamed_helper", side_effect=changing):  # [first-party-mock]
        pass
    with mock.patch("shopfp.jobs.renamed_helper", side_effect=setting):  # [first-party-mock]
        pass
    with mock.patch("shopfp.jobs.renamed_helper", side_effect=awaiting):
        pass


def test_the_real_function_put_back(monkeypatch):
    monkeypatch.setattr(storage.Storage, "save", storage.Storage.save)


def test_a_class_replaced_by_a_factory_of_real_instances():
    def build_storage():
        return Storage()

    def build_fake():
        return FakeStorage()

    with mock.patch("shopfp.storage.Storage", new=build_storage):
        pass
    with mock.patch("shopfp.storage.Storage", new=build_fake):  # [first-party-mock]
        pass


def counting(func):
    calls = []

    def counted(*args, **kwargs):
        calls.append(args)
        return func(*args, **kwargs)

    return counted, calls


def answering(func):
    def answered(*args, **kwargs):
        func(*args, **kwargs)
        return 0

    return answered


def test_a_spy_made_by_a_factory_handed_the_original():
    counted, calls = counting(Storage.load)
    with mock.patch("shopfp.storage.Storage.load", counted):
        Storage().load(1)
    assert calls
    answered = answering(Storage.load)
    with mock.patch("shopfp.storage.Storage.load", answered):  # [first-party-mock]
        Storage().load(1)
    other, _ = counting(Storage.save)
    with mock.patch("shopfp.storage.Storage.load", other):  # [first-party-mock]
        Storage().load(1)


def test_a_lambda_calling_the_saved_original_is_a_spy():
    load = Storage.load
    with mock.patch("shopfp.storage.Storage.load", side_effect=lambda self, order_id: load(self, order_id), autospec=True):
        pass
    with mock.patch("shopfp.storage.Storage.load", side_effect=lambda self, order_id: 0, autospec=True):  # [first-party-mock]
        pass


class TestSpyCallingTheOriginalSavedOnTheTest:
    def test_spy(self):
        real = Storage()

        def load(order_id):
            return self.original_load(order_id)

        self.original_load = real.load
        with mock.patch.object(real, "load", load):
            real.load(1)

    def test_stand_in(self):
        real = Storage()

        def load(order_id):
            return self.other_load(order_id)

        self.other_load = real.save
        with mock.patch.object(real, "load", load):  # [first-party-mock]
            real.load(1)
