"""Objects the tests get from coroutines: an ``async def`` fixture (which
pytest-asyncio awaits), ``async with`` (what ``__aenter__`` returns) and
``await`` of a coroutine function of the project. A spy a support module
builds around the real method is not a mock."""
# pylint: disable=missing-docstring,import-error,redefined-outer-name
import pytest

from _support.spies import answer_instead, call_after
from shopfp.aclient import AsyncClient, open_client, opening


@pytest.fixture
async def entered_client():
    async with AsyncClient() as client:
        yield client


@pytest.fixture
async def awaited_client():
    return await open_client()


async def test_fixture_entered_with_async_with(monkeypatch, entered_client):
    monkeypatch.setattr(entered_client, "fetch", lambda key: key)  # [first-party-mock]


async def test_fixture_a_coroutine_returns(monkeypatch, awaited_client):
    monkeypatch.setattr(awaited_client, "fetch", lambda key: key)  # [first-party-mock]


async def test_awaited_in_the_test(monkeypatch):
    client = await open_client()
    monkeypatch.setattr(client, "fetch", lambda key: key)  # [first-party-mock]


async def test_awaited_result_of_a_plain_function(monkeypatch):
    client = await opening()
    monkeypatch.setattr(client, "fetch", lambda key: key)  # what the awaitable gives is not followed


async def test_spy_built_by_a_support_module(monkeypatch, entered_client):
    seen = []
    monkeypatch.setattr(entered_client, "fetch", call_after(entered_client.fetch, seen.append))
    assert await entered_client.fetch("k") == "k"


async def test_stand_in_built_by_a_support_module(monkeypatch, entered_client):
    monkeypatch.setattr(entered_client, "fetch", answer_instead(entered_client.fetch, "k"))  # [first-party-mock]
