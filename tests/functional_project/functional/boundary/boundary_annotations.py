"""`# mock-boundary:` excuses one first-party mock per test."""
# pylint: disable=missing-docstring,unused-argument,import-error
from unittest import mock

from shopfp import jobs
from shopfp.jobs import Runner
from shopfp.storage import Storage


# mock-boundary: the job runner talks to a remote queue
@mock.patch("shopfp.jobs.run")
def test_boundary_above_decorator(run):
    pass


def test_boundary_at_end_of_line():
    with mock.patch("shopfp.jobs.helper"):  # mock-boundary: the helper reads hardware
        pass


def test_boundary_above_with_other_comments(monkeypatch):
    # mock-boundary: remote payment provider
    # (it is slow and costs money)
    monkeypatch.setattr(jobs, "run", lambda order_id: None)


def test_second_boundary(monkeypatch):
    # mock-boundary: remote payment provider
    monkeypatch.setattr(jobs, "run", lambda order_id: None)
    # mock-boundary: and the helper too
    monkeypatch.setattr(jobs, "helper", lambda: 0)  # [multiple-boundary-mocks]


def test_empty_reason(mocker):
    mocker.patch("shopfp.jobs.run")  # mock-boundary:  # [mock-annotation-without-reason]


def test_empty_reason_above(mocker):
    # mock-boundary:
    mocker.patch("shopfp.jobs.helper")  # [mock-annotation-without-reason]


def test_boundary_on_stdlib_mock_is_not_counted(mocker):
    mocker.patch("shopfp.jobs.time")  # mock-boundary: the clock
    mocker.patch("shopfp.jobs.helper")  # mock-boundary: the one first-party boundary


def test_boundary_comment_not_adjacent():
    # mock-boundary: separated from the mock by a blank line

    with mock.patch("shopfp.jobs.run"):  # [first-party-mock]
        pass


def test_boundary_is_an_object(mocker):
    # mock-boundary: storage is a remote database here
    mocker.patch.object(Storage, "save", autospec=True)
    mocker.patch.object(Storage, "load", autospec=True)  # another member of the declared boundary
    # mock-boundary: still the same remote database
    mocker.patch("shopfp.storage.Storage.size")
    mocker.patch("shopfp.jobs.Runner.claim", autospec=True)  # [first-party-mock]
    # mock-boundary: and the runner's queue
    mocker.patch.object(Runner, "build", autospec=True)  # [multiple-boundary-mocks]
