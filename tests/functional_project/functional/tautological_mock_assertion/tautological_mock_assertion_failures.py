"""A test making a mock raise checks that the code copes with the failure,
and one running code that may raise on what the mock gave checks that the
code did not, as does one whose code first calls a check that may raise
(or that passes a failure on from a handler),
and one expecting another number of arguments than the code passes, or a
value it derives itself from its own (``verb.upper()``), or a constant of
its class the code had to pick; so does one whose code leaves early on
some paths before the mocked call (``sys.exit()`` in a guard, a handler
returning): none passes whatever the real code does."""
# pylint: disable=missing-docstring,unused-argument,import-error
from unittest import mock

from shopfp import adapters, daemons, healing


@mock.patch("shopfp.healing.heal", side_effect=RuntimeError("down"))  # [first-party-mock]
def test_start_survives_a_failed_heal(heal):
    healing.start()
    heal.assert_called_once_with()


def test_start_survives_failures_in_turn(mocker):
    heal = mocker.patch("shopfp.healing.heal")  # [first-party-mock]
    heal.side_effect = [3, OSError("disk")]
    healing.start()
    healing.start()
    heal.assert_called_with()


def test_start_survives_a_generator_running_out(mocker):
    def run_out():
        yield  # the code under test iterates what the mock gives: its end raises StopIteration there

    heal = mocker.patch("shopfp.healing.heal", side_effect=run_out)  # [first-party-mock]
    healing.start()
    heal.assert_called_once_with()


def test_start_heals_through_a_lambda_calling_the_saved_original(mocker):
    original = healing.heal
    heal = mocker.patch(  # [first-party-mock]
        "shopfp.healing.heal", return_value=0, side_effect=lambda: original(),  # given an answer: a stand-in
    )
    healing.start()  # real code makes the call; the lambda's call of the original is not the test's
    heal.assert_called_once_with()  # [tautological-mock-assertion]


def test_start_heals(mocker):
    heal = mocker.patch("shopfp.healing.heal", return_value=0)  # [first-party-mock]
    healing.start()
    heal.assert_called_once_with()  # [tautological-mock-assertion]


def test_unique_name(mocker):
    read = mocker.patch("shopfp.healing.read_names", return_value=["a"])  # [first-party-mock]
    healing.check_unique("a")
    read.assert_called_once_with("a")


def test_record(mocker):
    write = mocker.patch("shopfp.healing.write")  # [first-party-mock]
    healing.record("a")
    write.assert_called_once()  # [tautological-mock-assertion]


def test_resume_when_waiting(mocker):
    write = mocker.patch("shopfp.healing.write")  # [first-party-mock]
    healing.resume("a", "waiting")
    write.assert_called_once()


def test_resume_quietly(mocker):
    write = mocker.patch("shopfp.healing.write")  # [first-party-mock]
    healing.resume_quietly("a", "waiting")
    write.assert_called_once()  # [tautological-mock-assertion]


def test_record_passes_the_name(mocker):
    write = mocker.patch("shopfp.healing.write")  # [first-party-mock]
    healing.record("a")
    write.assert_called_once_with("a", mock.ANY)  # [tautological-mock-assertion]


def test_record_with_the_name_alone(mocker):
    write = mocker.patch("shopfp.healing.write")  # [first-party-mock]
    healing.record("a")
    write.assert_called_once_with("a")  # the code passes two: this fails against it


@mock.patch("shopfp.healing.Healer.write", autospec=True)  # [first-party-mock]
def test_healer_records(write):
    healer = healing.Healer()
    healer.record("a")
    write.assert_called_once_with(healer, "a", mock.ANY)  # [tautological-mock-assertion]


def test_each_verb_its_method():
    adapter = adapters.Adapter()
    for verb in ["get", "patch"]:
        with mock.patch.object(adapter, "request") as request:  # [first-party-mock]
            getattr(adapter, verb)("u")
            request.assert_called_once_with("u", verb.upper())


def test_a_verb_not_named():
    adapter = adapters.Adapter()
    with mock.patch.object(adapter, "request") as request:  # [first-party-mock]
        getattr(adapter, "pa" + "tch")("u")  # mock.patch names no Adapter.patch
        request.assert_called_once_with("u", mock.ANY)


def test_patch_verb():
    adapter = adapters.Adapter()
    with mock.patch.object(adapter, "request") as request:  # [first-party-mock]
        adapter.patch("u")
        request.assert_called_once_with("u", mock.ANY)  # [tautological-mock-assertion]


def test_resume_journaled(mocker):
    write = mocker.patch("shopfp.healing.write")  # [first-party-mock]
    healing.resume_journaled("a")  # _journal passes a failure of read_names on
    write.assert_called_once()


def test_resume_with_the_check_mocked(mocker):
    mocker.patch("shopfp.states.check_resumable")  # [first-party-mock]
    write = mocker.patch("shopfp.healing.write")  # [first-party-mock]
    healing.resume("a", "paused")  # the check is mocked: it decides nothing
    write.assert_called_once()  # [tautological-mock-assertion]


def test_start_when_not_running():
    pidfile = mock.Mock(spec=["is_running"])
    pidfile.is_running.return_value = False
    daemon = daemons.Daemon(pidfile)
    with mock.patch.object(daemon, "run", autospec=True) as run:  # [first-party-mock]
        daemon.start()
        run.assert_called_once_with()


def test_sync_when_found():
    daemon = daemons.Daemon(None)
    with mock.patch.object(daemon, "notify", autospec=True) as notify:  # [first-party-mock]
        with mock.patch.object(daemon, "lookup", autospec=True, return_value="u1"):  # [first-party-mock]
            daemon.sync("host")
            assert notify.call_count == 1


class TestLimits:
    SLOT = "0000:06:00.1"
    MAX_RATE = daemons.RATE

    def test_clear_max(self):
        limits = daemons.Limits()
        with mock.patch.object(limits, "_clear") as clear:  # [first-party-mock]
            limits.clear_max(self.SLOT)
            clear.assert_called_once_with(self.SLOT, self.MAX_RATE)

    def test_clear_given(self):
        limits = daemons.Limits()
        with mock.patch.object(limits, "_clear") as clear:  # [first-party-mock]
            limits.clear(self.SLOT, self.MAX_RATE)
            clear.assert_called_once_with(self.SLOT, self.MAX_RATE)  # [tautological-mock-assertion]
