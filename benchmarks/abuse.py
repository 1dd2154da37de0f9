"""Floods against a fresh table server while an honest player plays: does the player notice?

For each flood (a thousand websockets, a thousand slow-header connections, 100 MiB bodies,
2,000-deep JSON, a replay and history flood on finished games, a wrong-password sign-in flood,
lesson moves, the lobby's list of 50 waiting tables — asked for anonymously, and by ten guests of
the address in turn —, one player's page) a
fresh ``otherside serve`` (SQLite, default guards) is started; an honest client from 127.0.0.1
plays Verso against a bot through its websocket and times each of its actions (sent → the view
that results), first quiet, then while an attacker process floods from other loopback addresses
(127.0.0.2 and up). Prints the honest player's p50/p95 quiet and under each flood, the flood's
answers, and the server's CPU seconds; the verdict is whether each flood's p95 stays under three
times the quiet one. Loopback only.

    PYTHONPATH=src:. python benchmarks/abuse.py --seconds 15
    PYTHONPATH=src:. python benchmarks/abuse.py --seconds 15 \\
        --database postgresql+psycopg://user@127.0.0.1/postgres --workers 2

With ``--database`` each flood gets a new database on that PostgreSQL server (dropped after),
and ``--workers N`` starts ``serve --workers N`` on one port: the floods and the honest player
land on whichever process the kernel gives them, and the limits are shared in the database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import websockets
from rich.console import Console
from rich.table import Table
from tests.security.outside import ATTACKER, HONEST, play_to_the_end
from tests.server.processes import Server, free_port

from otherside.testing.servers import LIFTED_CREATION, fresh_database

THINK = 0.05  # the honest player's pause before each action
MIB = 1 << 20


# -- the honest player ------------------------------------------------------------------------


async def _new_game(url: str, http: httpx.AsyncClient) -> str:
    made = await http.post("/api/tables", json={"game": "verso", "players": 2})
    table_id = str(made.json()["id"])
    await http.post(f"/api/tables/{table_id}/bots", json={"bot": "random"})
    (await http.post(f"/api/tables/{table_id}/start")).raise_for_status()
    return table_id


async def honest_play(url: str, seconds: float) -> list[float]:
    """Play Verso games for ``seconds``; the time of each action, in seconds."""
    port = url.rsplit(":", 1)[1]
    times: list[float] = []
    transport = httpx.AsyncHTTPTransport(local_address=HONEST)
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=30) as http:
        (await http.post("/api/guest")).raise_for_status()
        cookie = http.cookies.get("otherside_session")
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            table_id = await _new_game(url, http)
            async with websockets.connect(
                f"ws://127.0.0.1:{port}/ws/tables/{table_id}",
                additional_headers={"Cookie": f"otherside_session={cookie}"},
                local_addr=(HONEST, 0),
            ) as ws:
                sent_at: float | None = None
                sent_version = -1
                while time.monotonic() < deadline:
                    message = json.loads(await ws.recv())
                    if message["type"] == "table" and message["table"]["status"] == "over":
                        break
                    if message["type"] != "view":
                        continue
                    if sent_at is not None and message["version"] > sent_version:
                        times.append(time.perf_counter() - sent_at)
                        sent_at = None
                    if message["legal"] and sent_at is None:
                        await asyncio.sleep(THINK)
                        sent_version = message["version"]
                        action = {
                            "type": "action",
                            "version": sent_version,
                            "action": random.choice(message["legal"]),
                        }
                        sent_at = time.perf_counter()
                        await ws.send(json.dumps(action))
    return times


# -- the floods (each runs in a process of its own until its deadline) -------------------------


async def _websockets(url: str, extra: dict[str, Any], deadline: float) -> Counter[str]:
    port = url.rsplit(":", 1)[1]
    outcomes: Counter[str] = Counter()
    held: list[Any] = []

    async def one() -> None:
        try:
            ws = await websockets.connect(
                f"ws://127.0.0.1:{port}/ws/tables/{extra['table']}",
                local_addr=(ATTACKER, 0),
                open_timeout=10,
            )
            await ws.recv()
            held.append(ws)
            outcomes["held"] += 1
        except websockets.exceptions.InvalidStatus as refused:
            outcomes[f"http {refused.response.status_code}"] += 1
        except websockets.exceptions.ConnectionClosed as closed:
            outcomes[f"closed {closed.rcvd.code if closed.rcvd else None}"] += 1
        except (OSError, TimeoutError):
            outcomes["connect failed"] += 1

    while time.monotonic() < deadline:
        await asyncio.gather(*(one() for _ in range(1000 - len(held))))
        await asyncio.sleep(1)
    await asyncio.gather(*(ws.close() for ws in held), return_exceptions=True)
    return outcomes


async def _slow_headers(url: str, extra: dict[str, Any], deadline: float) -> Counter[str]:
    port = int(url.rsplit(":", 1)[1])
    outcomes: Counter[str] = Counter()

    async def one() -> None:
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(ATTACKER, 0)
            )
        except OSError:
            outcomes["connect failed"] += 1
            return
        answer = b""
        try:
            writer.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            while time.monotonic() < deadline:
                try:
                    data = await asyncio.wait_for(reader.read(4096), 1.0)
                except TimeoutError:
                    writer.write(b"a")
                    continue
                if not data:
                    break
                answer += data
        except OSError:
            pass
        finally:
            writer.close()
        outcomes[answer.split(b" ", 2)[1].decode() if answer else "cut off"] += 1

    while time.monotonic() < deadline:
        await asyncio.gather(*(one() for _ in range(1000)))
    return outcomes


async def _requests(
    url: str, deadline: float, send: Callable[[httpx.AsyncClient], Awaitable[httpx.Response]]
) -> Counter[str]:
    outcomes: Counter[str] = Counter()
    transport = httpx.AsyncHTTPTransport(local_address=ATTACKER)
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=30) as http:

        async def worker() -> None:
            while time.monotonic() < deadline:
                try:
                    outcomes[str((await send(http)).status_code)] += 1
                except httpx.HTTPError as exc:
                    outcomes[type(exc).__name__] += 1

        await asyncio.gather(*(worker() for _ in range(8)))
    return outcomes


async def _big_bodies(url: str, extra: dict[str, Any], deadline: float) -> Counter[str]:
    body = b"x" * 100 * MIB
    return await _requests(url, deadline, lambda http: http.post("/api/signup", content=body))


async def _deep_json(url: str, extra: dict[str, Any], deadline: float) -> Counter[str]:
    deep = ("[" * 2000 + "]" * 2000).encode()
    headers = {"Content-Type": "application/json"}
    return await _requests(
        url, deadline, lambda http: http.post("/api/tables", content=deep, headers=headers)
    )


async def _replays(url: str, extra: dict[str, Any], deadline: float) -> Counter[str]:
    tables = extra["finished"]
    return await _requests(
        url,
        deadline,
        lambda http: http.get(
            f"/api/tables/{random.choice(tables)}/{random.choice(('replay', 'history'))}"
        ),
    )


async def _sign_ins(url: str, extra: dict[str, Any], deadline: float) -> Counter[str]:
    return await _requests(
        url,
        deadline,
        lambda http: http.post(
            "/api/signin", json={"name": f"n{random.randrange(10**6)}", "password": "guess!"}
        ),
    )


async def _lesson_moves(url: str, extra: dict[str, Any], deadline: float) -> Counter[str]:
    path, body = extra["lesson"]
    return await _requests(url, deadline, lambda http: http.post(path, json=body))


async def _lobby_lists(url: str, extra: dict[str, Any], deadline: float) -> Counter[str]:
    return await _requests(url, deadline, lambda http: http.get("/api/tables?status=waiting"))


async def _lobby_lists_signed_in(url: str, extra: dict[str, Any], deadline: float) -> Counter[str]:
    """The lobby's list asked for by ten guests of one address (the guests an address may make
    in an hour), in turn: each counts on its own account, all on the address's share."""
    transport = httpx.AsyncHTTPTransport(local_address=ATTACKER)
    cookies = []
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=30) as http:
        for _ in range(10):
            http.cookies.clear()
            (await http.post("/api/guest")).raise_for_status()
            cookies.append(http.cookies.get("otherside_session"))
    turn = iter(range(10**9))
    return await _requests(
        url,
        deadline,
        lambda http: http.get(
            "/api/tables?status=waiting",
            headers={"Cookie": f"otherside_session={cookies[next(turn) % 10]}"},
        ),
    )


async def _player_page(url: str, extra: dict[str, Any], deadline: float) -> Counter[str]:
    name = extra["player"]
    return await _requests(url, deadline, lambda http: http.get(f"/api/players/{name}"))


FLOODS: dict[str, Callable[[str, dict[str, Any], float], Awaitable[Counter[str]]]] = {
    "1,000 websockets": _websockets,
    "1,000 slow headers": _slow_headers,
    "100 MiB bodies": _big_bodies,
    "2,000-deep JSON": _deep_json,
    "replay/history": _replays,
    "wrong sign-ins": _sign_ins,
    # Requests that cost work each (tests/security found them starving the players): a Recto
    # Verso lesson move judged, the lobby's list of 50 waiting tables, one player's page —
    # each now a rate per account and per address (server/accounts/rates.py).
    "lesson moves": _lesson_moves,
    "lobby lists": _lobby_lists,
    "ten guests' lists": _lobby_lists_signed_in,
    "a player page": _player_page,
}


def _flood_process(name: str, url: str, extra: dict[str, Any], seconds: float, out: Any) -> None:
    outcomes = asyncio.run(FLOODS[name](url, extra, time.monotonic() + seconds))
    out.put(dict(outcomes))


# -- one round per flood -------------------------------------------------------------------------


def _percentiles(times: list[float]) -> tuple[float, float]:
    if len(times) < 2:
        return float("nan"), float("nan")
    cuts = statistics.quantiles(times, n=100)
    return statistics.median(times) * 1000, cuts[94] * 1000


async def _waiting_tables(url: str, count: int) -> str:
    """``count`` waiting Recto Verso tables, from guests of addresses of their own (each
    makes five); the name of the first host (whose page the player-page flood asks for)."""
    names = []
    for number in range(10, 10 + (count + 4) // 5):
        transport = httpx.AsyncHTTPTransport(local_address=f"127.0.0.{number}")
        async with httpx.AsyncClient(base_url=url, transport=transport, timeout=30) as host:
            (await host.post("/api/guest")).raise_for_status()
            names.append((await host.get("/api/me")).json()["user"]["name"])
            for _ in range(5):
                made = await host.post("/api/tables", json={"game": "rectoverso", "players": 2})
                made.raise_for_status()
    return names[0]


async def _lesson(url: str) -> tuple[str, dict[str, str]]:
    """A Recto Verso lesson step's path and a move to try there."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        step = (await http.get("/api/lessons/rectoverso")).json()["steps"][-1]
    return f"/api/lessons/rectoverso/{step['id']}", {"action": step["legal"][0]}


async def _finished_games(url: str, count: int) -> list[str]:
    """Play ``count`` Verso games to their end (the replay flood's targets)."""
    port = url.rsplit(":", 1)[1]
    ids = []
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        (await http.post("/api/guest")).raise_for_status()
        cookie = http.cookies.get("otherside_session")
        for _ in range(count):
            table_id = await _new_game(url, http)
            async with websockets.connect(
                f"ws://127.0.0.1:{port}/ws/tables/{table_id}",
                additional_headers={"Cookie": f"otherside_session={cookie}"},
            ) as ws:
                await play_to_the_end(ws)
            ids.append(table_id)
    return ids


def run_round(
    name: str, seconds: float, workdir: Path, postgres: str | None, workers: int
) -> dict[str, Any]:
    """A fresh server, the honest player quiet then under ``name``; the figures."""
    database = f"abuse_{os.getpid()}_{abs(hash(name)) % 10**8}"
    with fresh_database(postgres, database, workdir) as url:
        extra_args = ("--workers", str(workers)) if workers > 1 else ()
        # The default rates of costly reads: the floods of lists, pages and lesson moves meet
        # them as any address would (only creation is lifted, for the 50 tables made here).
        api = Server(url, free_port(), *extra_args, limits=LIFTED_CREATION)
        try:
            return _measure(api, name, seconds)
        finally:
            api.kill()


def _measure(api: Server, name: str, seconds: float) -> dict[str, Any]:
    """The honest player quiet, then under the flood ``name``, against ``api``."""
    extra: dict[str, Any] = {}
    if name == "replay/history":
        extra["finished"] = asyncio.run(_finished_games(api.url, 3))
    if name in ("lobby lists", "ten guests' lists", "a player page"):
        extra["player"] = asyncio.run(_waiting_tables(api.url, 50))
    if name == "lesson moves":
        extra["lesson"] = asyncio.run(_lesson(api.url))

    async def a_table() -> str:
        async with httpx.AsyncClient(base_url=api.url) as http:
            await http.post("/api/guest")
            return await _new_game(api.url, http)

    extra["table"] = asyncio.run(a_table())
    quiet = asyncio.run(honest_play(api.url, seconds))
    results: Any = multiprocessing.get_context("spawn").Queue()
    flood = multiprocessing.get_context("spawn").Process(
        target=_flood_process, args=(name, api.url, extra, seconds + 2, results)
    )
    cpu_before = api.cpu_seconds()
    flood.start()
    time.sleep(2)  # the flood under way
    loud = asyncio.run(honest_play(api.url, seconds))
    outcomes = results.get(timeout=120)
    flood.join(timeout=30)
    cpu = api.cpu_seconds() - cpu_before
    return {"quiet": quiet, "loud": loud, "outcomes": outcomes, "cpu": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="quiet and flood spans")
    parser.add_argument("--only", default=None, help="run only the floods containing this")
    parser.add_argument(
        "--database", default=None, help="a PostgreSQL server's URL: a new database per flood"
    )
    parser.add_argument("--workers", type=int, default=1, help="server processes on one port")
    args = parser.parse_args()
    if args.workers > 1 and not args.database:
        parser.error("--workers above 1 needs --database (PostgreSQL)")
    console = Console(width=180)
    where = f"PostgreSQL, {args.workers} process(es)" if args.database else "SQLite, one process"
    table = Table(
        title=f"the honest player's action time (ms) under each flood ({where}, "
        f"load average {os.getloadavg()[0]:.1f} at the start)"
    )
    for column in ("flood", "quiet p50", "quiet p95", "flood p50", "flood p95", "p95 ×"):
        table.add_column(column, justify="right")
    table.add_column("server CPU s", justify="right")
    table.add_column("the flood's answers")
    table.add_column("verdict")
    with tempfile.TemporaryDirectory() as workdir:
        for name in FLOODS:
            if args.only and args.only not in name:
                continue
            console.print(f"[bold]{name}[/] …")
            figures = run_round(name, args.seconds, Path(workdir), args.database, args.workers)
            q50, q95 = _percentiles(figures["quiet"])
            l50, l95 = _percentiles(figures["loud"])
            ratio = l95 / q95
            answers = ", ".join(f"{k}: {v}" for k, v in sorted(figures["outcomes"].items()))
            table.add_row(
                name,
                f"{q50:.1f}",
                f"{q95:.1f}",
                f"{l50:.1f}",
                f"{l95:.1f}",
                f"{ratio:.2f}",
                f"{figures['cpu']:.1f}",
                answers,
                "[green]holds[/]" if ratio < 3 else "[red]over 3×[/]",
            )
    console.print(table)


if __name__ == "__main__":
    main()
