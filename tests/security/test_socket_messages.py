"""A flood of messages on table websockets, from outside against a real server process: thirty
sockets of one address sending ``ping`` as fast as they could (13,600 a second) made every
other request wait (a health check 9 → 88 ms, a player's move 7 ms → a second). A socket may
now send 200 messages at once and 50 a second on average; past that it is closed with 4429 and
its reason, and the others are served as before."""

from __future__ import annotations

import asyncio
import json
import time

import websockets

from tests.security.outside import (
    ATTACKER,
    client,
    guest_table,
    open_socket,
    shared_fixture,  # noqa: F401 (the fixture "shared")
)
from tests.server.processes import Server

SOCKETS = 30


async def _flood(ws: websockets.ClientConnection, seconds: float) -> int | None:
    """Send ``ping`` as fast as ``ws`` takes it for ``seconds``, reading every answer (so that
    the socket is never too far behind); the close code the server sent, if it closed it."""
    deadline = time.monotonic() + seconds

    async def read() -> None:
        async for _ in ws:
            pass

    reader = asyncio.create_task(read())
    try:
        while time.monotonic() < deadline:
            for _ in range(20):
                await ws.send('{"type": "ping"}')
            await asyncio.sleep(0)
    except websockets.ConnectionClosed:
        pass
    await ws.close()
    await asyncio.gather(reader, return_exceptions=True)
    return ws.protocol.close_rcvd.code if ws.protocol.close_rcvd is not None else None


async def test_a_socket_that_floods_messages_is_closed_and_the_others_are_served(
    shared: Server,
) -> None:
    api = shared
    async with client(api) as host:
        table_id = await guest_table(api, host)
        sockets = [await open_socket(api, table_id, ATTACKER) for _ in range(SOCKETS)]
        codes = await asyncio.gather(*(_flood(ws, 4) for ws in sockets))
        # Before: a socket that kept up reading its answers was never closed, and every
        # other request waited (some that fell behind were closed as too slow, 4408).
        assert codes == [4429] * SOCKETS, codes
        assert sockets[0].protocol.close_rcvd is not None
        assert sockets[0].protocol.close_rcvd.reason == "too many messages at once; reconnect"
        # Everyone else, and the flooder's next socket at a decent pace, are served.
        assert (await host.get("/api/health")).status_code == 200
        calm = await open_socket(api, table_id, ATTACKER)
        try:
            for _ in range(5):
                await calm.send('{"type": "ping"}')
                await asyncio.sleep(0.05)
            pongs = 0
            async with asyncio.timeout(20):
                while pongs < 5:
                    pongs += json.loads(await calm.recv())["type"] == "pong"
        finally:
            await calm.close()
