"""What one connection may make the server hold, attacked from outside against a real server
process over raw sockets.

- Request heads (the request line and headers): uvicorn's parser took any number of header
  bytes; four connections streaming small headers for nine seconds held 1.3 GB of the server's
  memory (each header a Python pair), and the request was then answered as usual. A head is
  now held to ``head_bytes`` (32 KiB): past it the request is answered 431 with a stable code,
  the connection closed, and nothing more of it read.
- Pipelined requests (sent ahead of their answers): each read of tiny requests became thousands
  of queued requests (20 connections of 0.8 MB held 260 MB). A connection may now have 16
  waiting; more close it.
"""

from __future__ import annotations

import asyncio
import json
import time

from tests.security.outside import (
    MIB,
    client,
    raw_connection,
    resident,
    shared_fixture,  # noqa: F401 (the fixture "shared")
)
from tests.server.processes import Server

LIMIT = 32768  # Guards.head_bytes, the default


def _refused(answer: bytes) -> None:
    """``answer`` is the 431 refusal, with its stable code and limit."""
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    body = json.loads(answer.split(b"\r\n\r\n", 1)[1])
    assert body["code"] == "headers_too_large" and body["params"] == {"limit": LIMIT}


async def _stream_head(port: int, start: bytes, chunk: bytes, seconds: float) -> tuple[int, bytes]:
    """Send ``start``, then ``chunk`` again and again (a head that never ends) for at most
    ``seconds``; the bytes sent and the answer read (empty if none came)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(start)
    sent, answer = len(start), b""
    deadline = time.monotonic() + seconds
    try:
        while not answer and time.monotonic() < deadline:
            writer.write(chunk)
            await writer.drain()
            sent += len(chunk)
            try:
                answer = await asyncio.wait_for(reader.read(4096), 0.001)
            except TimeoutError:
                continue
            if not answer:
                break  # closed without a word
    except ConnectionError:
        pass
    finally:
        writer.close()
    return sent, answer


async def _one_head(port: int, head: bytes) -> bytes:
    """Send ``head`` whole in one write; the answer."""
    reader, writer = await raw_connection(port, head)
    try:
        return await asyncio.wait_for(reader.read(), 20)
    finally:
        writer.close()


async def test_request_heads_past_the_limit_are_refused_and_hold_no_memory(
    shared: Server,
) -> None:
    api = shared
    start = b"GET /api/health HTTP/1.1\r\nHost: x\r\n"
    # A head over the limit sent whole, and one that never ends: refused, not answered.
    cookie = b"Cookie: a=" + b"b" * (LIMIT + 100) + b"\r\n"
    _refused(await _one_head(api.port, start + cookie + b"\r\n"))
    upgrade = (
        b"GET /ws/tables/x HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    )
    _refused(await _one_head(api.port, upgrade + cookie + b"\r\n"))
    sent, answer = await _stream_head(api.port, start + b"X-Big: ", b"a" * 16384, 10)
    _refused(answer)
    assert sent < 16 * MIB
    # Many small headers from eight connections at once: each cut off early, the server's
    # memory stays put (before: each connection's headers grew by some 100 MB a second).
    before = resident(api.pid)
    many = b"".join(b"X-%d: b\r\n" % index for index in range(2000))
    floods = await asyncio.gather(*(_stream_head(api.port, start, many, 10) for _ in range(8)))
    for sent, answer in floods:
        assert sent < 16 * MIB, sent  # what the kernel buffers took before the close
        if answer:  # the refusal, unless the connection was reset under the client's writes
            _refused(answer)
    assert resident(api.pid) < before + 30 * MIB
    # A head under the limit is served as ever, and so is everyone else.
    async with client(api) as http:
        fine = await http.get("/api/health", headers={"Cookie": "a=" + "b" * (LIMIT // 2)})
        assert fine.status_code == 200
        assert (await http.get("/api/tables")).status_code == 200


async def test_requests_sent_far_ahead_of_their_answers_close_the_connection(
    shared: Server,
) -> None:
    api = shared
    request = b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n"
    # A few pipelined requests are answered in order, as ever.
    reader, writer = await asyncio.open_connection("127.0.0.1", api.port)
    writer.write(request * 5 + b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    answers = await asyncio.wait_for(reader.read(), 20)
    writer.close()
    assert answers.count(b"HTTP/1.1 200 OK") == 6
    # Twenty connections of 20,000 each, never reading the answers: the server's memory stays
    # put (before: some 13 MB more for each connection).
    before = resident(api.pid)

    async def flood() -> None:
        _, writer = await asyncio.open_connection("127.0.0.1", api.port)
        try:
            writer.write(request * 20000)
            await writer.drain()
            await asyncio.sleep(2)
        except ConnectionError:
            pass  # closed by the server under the writes: what is wanted
        finally:
            writer.close()

    await asyncio.gather(*(flood() for _ in range(20)))
    assert resident(api.pid) < before + 30 * MIB
    async with client(api) as http:
        assert (await http.get("/api/health")).status_code == 200
