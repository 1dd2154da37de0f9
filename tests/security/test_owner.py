"""A flood of wrong passwords for one name from many addresses (through a trusted proxy),
against a real server process: the owner's signed-in browser keeps playing, signs in again at
once, and a new browser gets in after the name's short slowdown — never locked out."""

from __future__ import annotations

import asyncio
import math
import time
from collections import Counter
from collections.abc import Callable

import httpx

from otherside.testing.servers import shared_tls
from tests.security.conftest import limit_args
from tests.server.processes import Server

ADA = {"name": "Ada", "password": "lovelace"}
FLOOD = 30


def test_the_owner_is_never_locked_out_by_a_flood(serve: Callable[..., Server]) -> None:
    server = serve(
        "--trusted-proxy",
        "127.0.0.1",
        *limit_args(signin_failures_per_name=3, signin_slowdown_max=1),
    )
    home = {"X-Forwarded-For": "192.0.2.10"}
    with httpx.Client(base_url=server.url, headers=home, timeout=60) as owner:
        assert owner.post("/api/signup", json=ADA).status_code == 200

        async def flood() -> list[httpx.Response]:
            async def one(n: int) -> httpx.Response:
                spoofed = {"X-Forwarded-For": f"198.51.{n // 200}.{n % 200 + 1}"}
                async with httpx.AsyncClient(
                    base_url=server.url, headers=spoofed, timeout=60, verify=shared_tls()
                ) as bot:
                    return await bot.post("/api/signin", json={"name": "ada", "password": "x!"})

            return list(await asyncio.gather(*(one(n) for n in range(FLOOD))))

        began = time.monotonic()
        answered = Counter(r.status_code for r in asyncio.run(flood()))
        elapsed = time.monotonic() - began
        # Three free failures, then one attempt per second of slowdown at most.
        assert answered[401] <= 3 + 1 + math.ceil(elapsed)
        assert answered[429] == FLOOD - answered[401]
        # Meanwhile the signed-in browser plays on, and signs in again without waiting.
        assert owner.get("/api/me").json()["user"]["name"] == "Ada"
        assert owner.post("/api/tables", json={"game": "verso", "players": 2}).status_code == 201
        assert owner.post("/api/signout").status_code == 200
        began = time.monotonic()
        again = Counter(r.status_code for r in asyncio.run(flood()))
        assert again[401] <= 1 + math.ceil(time.monotonic() - began)  # slowed right now
        assert owner.post("/api/signin", json=ADA).status_code == 200
    # A browser that never signed in waits the short slowdown, then gets in.
    with httpx.Client(
        base_url=server.url, headers={"X-Forwarded-For": "192.0.2.77"}, timeout=60
    ) as fresh:
        deadline = time.monotonic() + 10
        answer = fresh.post("/api/signin", json=ADA)
        while answer.status_code == 429 and time.monotonic() < deadline:
            assert int(answer.headers["Retry-After"]) == 1
            time.sleep(1)
            answer = fresh.post("/api/signin", json=ADA)
        assert answer.status_code == 200
