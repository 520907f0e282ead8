"""An asynchronous client: entered with ``async with``, made by coroutines."""


class AsyncClient:
    async def __aenter__(self):
        await self.connect()
        return self

    async def __aexit__(self, *exc):
        await self.close()

    async def connect(self):
        return None

    async def close(self):
        return None

    async def fetch(self, key):
        return key


async def open_client():
    client = AsyncClient()
    await client.connect()
    return client


def opening():
    """Not a coroutine function: what awaiting its result gives is not known here."""
    return open_client()
