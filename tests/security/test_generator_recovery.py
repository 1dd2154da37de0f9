"""The generator-recovery attack of issue 31, replayed from outside against a real server.

The old server drew every game's seed from one Mersenne Twister per process, and finished
Recto Verso records publish their seeds (``GET /api/tables/{id}/record``, ``"seed"``, a 63-bit
``getrandbits(63)``: two outputs, the second without its lowest bit). From the seeds of 520
games started one after the other, :mod:`.mt_untwister` solves for the generator's state and
predicts the next seed, hence the next Verso table's whole pile with every hidden back.

Here an attacker finishes those 520 games (a guest hosts each with a partner bot, starts them
one at a time so that the order of the draws is known, and resigns), and the attack must fail:
the published seeds are no Twister's outputs, and the best state fitting part of them predicts
a pile that is not the next game's. The control runs the same pipeline on a ``random.Random``,
as the old server drew, and predicts the next deal exactly: the attack works, so its failure
against the server says something.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import websockets

from otherside.games import get_game
from otherside.server.store.db import sqlite_url
from tests.security.mt_untwister import NotATwister, recover_partial, seed_words
from tests.server.processes import Server, free_port

COOKIE = "otherside_session"
GAMES = 520  # seeds that pin every missing bit of the last 624 words (500 leave 10 open)
AT_ONCE = 12  # games prepared and finished at the same time (starts go one by one)
VERSO_OPTIONS: dict[str, Any] = {}  # the next Verso table's options, as the attacker chose
T = TypeVar("T")


def verso_pile(seed: int, options: dict[str, Any]) -> list[str]:
    """The pile (top first, both faces of each card) that a two-player Verso game with
    ``seed`` and ``options`` deals."""
    pile: list[str] = get_game("verso").new_state(2, seed=seed, options=options).to_record()["pile"]
    return pile


def predict_next_pile(seeds: list[int], *, lenient: bool = False) -> list[str]:
    """The attack: the pile of the next Verso game, from the published seeds of the games
    started just before it, in the order they were started (see :func:`recover_partial`)."""
    twister = recover_partial(
        [word for seed in seeds for word in seed_words(seed)], lenient=lenient
    )
    return verso_pile(twister.getrandbits(63), VERSO_OPTIONS)


def test_the_attack_predicts_the_next_deal_of_a_twister() -> None:
    # The control: seeds drawn as the old server drew them give the next deal away exactly.
    old_server = random.Random(20261125)
    seeds = [old_server.getrandbits(63) for _ in range(GAMES)]
    predicted = predict_next_pile(seeds)
    assert predicted == predict_next_pile(seeds, lenient=True)
    assert predicted == verso_pile(old_server.getrandbits(63), VERSO_OPTIONS)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    # The bots wait a minute before acting: the only draws between two starts are the seeds.
    started = Server(
        sqlite_url(tmp_path / "otherside.db"),
        free_port(),
        "--bot-workers",
        "0",
        "--guard",
        "replays_per_minute=1000000",
        "--limit",
        "waiting_tables_per_user=1000000",
        bot_delay=60.0,
    )
    try:
        yield started
    finally:
        started.kill()


async def at_most(count: int, jobs: list[Awaitable[T]]) -> list[T]:
    """The results of ``jobs``, at most ``count`` running at a time."""
    gate = asyncio.Semaphore(count)

    async def one(job: Awaitable[T]) -> T:
        async with gate:
            return await job

    return await asyncio.gather(*(one(job) for job in jobs))


class Attacker:
    """A guest who hosts games against a partner bot and gives them up at once."""

    def __init__(self, server: Server, http: httpx.AsyncClient) -> None:
        self.server = server
        self.http = http

    async def prepare(self, game: str, options: dict[str, Any]) -> str:
        """A waiting table of ``game`` with a bot in the other seat; its id."""
        made = await self.http.post(
            "/api/tables", json={"game": game, "players": 2, "options": options}
        )
        assert made.status_code == 201, made.text
        table: str = made.json()["id"]
        bot = "partner" if game == "rectoverso" else "greedy"
        (await self.http.post(f"/api/tables/{table}/bots", json={"bot": bot})).raise_for_status()
        return table

    async def start(self, table: str) -> None:
        """Start ``table``: its seed is drawn now."""
        (await self.http.post(f"/api/tables/{table}/start")).raise_for_status()

    async def finish(self, table: str) -> dict[str, Any]:
        """Resign at ``table``; the record that the server then publishes."""
        cookie = {"Cookie": f"{COOKIE}={self.http.cookies.get(COOKIE)}"}
        url = f"ws://127.0.0.1:{self.server.port}/ws/tables/{table}"
        async with websockets.connect(url, additional_headers=cookie) as ws:
            await ws.send(json.dumps({"type": "resign"}))
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "table" and message["table"]["status"] == "over":
                    break
        record = await self.http.get(f"/api/tables/{table}/record")
        assert record.status_code == 200, record.text
        published: dict[str, Any] = record.json()
        return published


@pytest.mark.slow
async def test_published_seeds_do_not_give_the_generator_away(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        (await http.post("/api/guest")).raise_for_status()
        attacker = Attacker(server, http)
        tables = await at_most(AT_ONCE, [attacker.prepare("rectoverso", {}) for _ in range(GAMES)])
        for table in tables:  # one at a time: the seeds are drawn in this order
            await attacker.start(table)
        records = await at_most(AT_ONCE, [attacker.finish(table) for table in tables])
        seeds = [record["seed"] for record in records]
        assert len(set(seeds)) == GAMES and all(0 <= seed < 2**63 for seed in seeds)

        # No Twister state makes these seeds: the equations contradict each other.
        with pytest.raises(NotATwister):
            predict_next_pile(seeds)
        # The attacker's best guess anyway, a state fitting as many equations as it can.
        guessed = predict_next_pile(seeds, lenient=True)

        verso = await attacker.prepare("verso", VERSO_OPTIONS)
        await attacker.start(verso)
        dealt = await attacker.finish(verso)
    # A whole deal of the same rules, and not the one predicted.
    assert len(guessed) == len(dealt["pile"]) == len(verso_pile(0, dealt["options"]))
    assert guessed != dealt["pile"]
