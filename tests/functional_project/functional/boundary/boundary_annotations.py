"""`# mock-boundary:` excuses one first-party mock per test."""
# pylint: disable=missing-docstring,unused-argument,import-error
from unittest import mock

from shopfp import jobs


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
