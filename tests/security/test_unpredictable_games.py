"""No game can be predicted from another (issue 31): every game's seed, every ``random`` first
seat and every bot decision is one draw from the operating system's cryptographic source
(:mod:`otherside.server.tables.entropy`), so the seeds that finished records publish tell nothing
about the games still being played.

A test that looks for patterns in a handful of seeds proves little; these check the structure
(every draw in the server goes through :mod:`.entropy`, which only reads :mod:`secrets`, and
no generator is kept), and, from outside, that finished records publish independent seeds."""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from otherside.games import get_game
from otherside.server.store.db import sqlite_url
from otherside.server.tables import entropy
from tests.server.conftest import hub_of, people, running, settle, table_with
from tests.server.processes import REQUEST_SECONDS, Server, free_port

SERVER = Path(entropy.__file__).resolve().parents[1]
COOKIE = "otherside_session"
# A generator, or a draw from one, anywhere in the server's code.
GENERATOR_DRAWS = re.compile(
    r"\b_rng\b|getrandbits|randrange"
    r"|random\.(random|choices?|shuffle|randint|seed|sample|uniform|gauss|triangular)\("
    r"|random\.Random\(\s*\)|random\.Random\((?!seed\))"
)


class CountingSource:
    """Stands in for :mod:`secrets` in :mod:`.entropy`: known, distinct draws, counted."""

    def __init__(self) -> None:
        self.bits: list[int] = []
        self.below: list[int] = []

    def randbits(self, k: int) -> int:
        self.bits.append((len(self.bits) + 1) * 1_000_003 % (1 << k))
        return self.bits[-1]

    def randbelow(self, n: int) -> int:
        self.below.append(len(self.below) % n)
        return self.below[-1]


def test_no_module_of_the_server_keeps_or_draws_from_a_generator() -> None:
    for path in sorted(SERVER.rglob("*.py")):
        text = path.read_text()
        found = GENERATOR_DRAWS.search(text)
        assert found is None, f"{path.relative_to(SERVER)} draws from a generator: {found}"
        if path.name != "entropy.py":
            assert "secrets.randbits" not in text, path


async def test_every_seed_seat_and_bot_decision_is_a_draw_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = CountingSource()
    monkeypatch.setattr(entropy, "secrets", source)
    async with running(sqlite_url(tmp_path / "otherside.db")) as app:
        hub = hub_of(app)
        players = await people(app, 2)
        tables = [
            await table_with(app, players, options={"first_player": "random"}) for _ in range(3)
        ]
        assert source.bits == [1_000_003, 2_000_006, 3_000_009]
        assert len(source.below) == 3  # one draw per random first seat
        for table, seed in zip(tables, source.bits, strict=True):
            # Each game is the deal of its own draw (Verso's records publish the pile).
            record = (await hub.live(table)).state.to_record()
            dealt = get_game("verso").new_state(2, seed=seed, options=record["options"])
            assert record["pile"] == dealt.to_record()["pile"]
        built = await table_with(app, players, game="rectoverso")
        assert (await hub.live(built)).state.to_record()["seed"] == source.bits[-1]
        # A bot moving first draws its decision's randomness the same way, one draw each.
        with_bot = await table_with(app, players[:1], bots=1, options={"first_player": 1})
        await settle(hub, with_bot)
        live = await hub.live(with_bot)
        bot_moves = live.info.version
        assert bot_moves >= 1
        assert len(source.bits) == 5 + bot_moves  # 5 game seeds, then one per bot decision
        assert not hasattr(hub.services, "rng")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    started = Server(sqlite_url(tmp_path / "otherside.db"), free_port())
    try:
        yield started
    finally:
        started.kill()


async def test_finished_records_publish_seeds_that_predict_no_other_game(server: Server) -> None:
    # Recto Verso records publish their seeds; a host who gives up at once finishes a game.
    games = 6
    async with httpx.AsyncClient(base_url=server.url, timeout=REQUEST_SECONDS) as host:
        await host.post("/api/guest")
        cookie = {"Cookie": f"{COOKIE}={host.cookies.get(COOKIE)}"}
        records = []
        for _ in range(games):
            made = await host.post(
                "/api/tables",
                json={"game": "rectoverso", "players": 2},
            )
            table = made.json()["id"]
            await host.post(f"/api/tables/{table}/bots", json={"bot": "partner"})
            assert (await host.post(f"/api/tables/{table}/start")).status_code == 200
            url = f"ws://127.0.0.1:{server.port}/ws/tables/{table}"
            async with websockets.connect(url, additional_headers=cookie) as ws:
                await ws.send(json.dumps({"type": "resign"}))
                while True:
                    message = json.loads(await ws.recv())
                    if message["type"] == "table" and message["table"]["status"] == "over":
                        break
            record = await host.get(f"/api/tables/{table}/record")
            assert record.status_code == 200
            records.append(record.json())
    seeds = [r["seed"] for r in records]
    assert len(set(seeds)) == games and all(0 <= s < 2**63 for s in seeds)
    assert max(seeds).bit_length() > 55  # full-width draws, not small counters
    for earlier, later in itertools.pairwise(seeds):
        # The next seed is not what a generator seeded with the published one draws next.
        follower = random.Random(earlier)
        assert later not in {follower.getrandbits(63) for _ in range(8)}
