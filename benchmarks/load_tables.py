"""Load benchmark of the table server: N concurrent Verso tables of bot-driven clients.

Starts ``otherside serve`` (a uvicorn subprocess on a fresh SQLite file, or ``--database``) on a
loopback port, then runs N tables of two players each; every player is a websocket client that
plays a random legal action after a think time. When a game ends the pair starts a new one.
Prints the moves per second the server applied and the p50/p99 time from sending an action to
receiving the view that results from it. Loopback only, bounded by ``--duration``.

    python benchmarks/load_tables.py --tables 200 --duration 60 --think 1.0
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

SRC = Path(__file__).resolve().parents[1] / "src"
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def start_server(database: str, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "otherside",
            "serve",
            "--host",
            HOST,
            "--port",
            str(port),
            "--database",
            database,
            "--bot-delay",
            "0",
            # One client process makes every account and table: lift the per-address limits.
            "--limit",
            "guests_per_address=1000000",
            "--limit",
            "tables_per_address=1000000",
            "--limit",
            "tables_per_user=1000000",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://{HOST}:{port}/api/health", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not start within 60 s")


class Stats:
    """Latencies (seconds) and counts shared by every client."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0
        self.games = 0
        self.errors = 0
        self.measure_from = 0.0


async def player(
    base: str,
    cookie: str,
    table_id: str,
    stats: Stats,
    think: float,
    rng: random.Random,
    deadline: float,
) -> bool:
    """Play one seat of a table over a websocket until the game ends (True) or time is up."""
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    sent: dict[int, float] = {}
    async with websockets.connect(url, additional_headers={"Cookie": cookie}, max_size=2**20) as ws:
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "error":
                stats.errors += 1
                continue
            if message["type"] != "view":
                continue
            version = message["version"]
            if version in sent:
                began = sent.pop(version)
                stats.moves += 1
                if time.monotonic() >= stats.measure_from:
                    stats.latencies.append(time.perf_counter() - began)
            if message["view"].get("outcome") is not None:
                return True
            if time.monotonic() > deadline:
                return False
            if message["legal"]:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                sent[version + 1] = time.perf_counter()
                await ws.send(
                    json.dumps(
                        {
                            "type": "action",
                            "version": version,
                            "action": rng.choice(message["legal"]),
                        }
                    )
                )
    return False


async def pair(base: str, stats: Stats, think: float, seed: int, deadline: float) -> None:
    """Two guests playing game after game until the deadline."""
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=base) as host, httpx.AsyncClient(base_url=base) as guest:
        await host.post("/api/guest")
        await guest.post("/api/guest")
        cookies = [f"otherside_session={c.cookies.get('otherside_session')}" for c in (host, guest)]
        while time.monotonic() < deadline:
            made = await host.post("/api/tables", json={"game": "verso", "players": 2})
            table_id = made.json()["id"]
            await guest.post(f"/api/tables/{table_id}/join", json={})
            await host.post(f"/api/tables/{table_id}/start")
            ended = await asyncio.gather(
                *(player(base, c, table_id, stats, think, rng, deadline) for c in cookies)
            )
            stats.games += all(ended)


async def run(
    base: str, tables: int, duration: float, think: float, warmup: float, console: Console
) -> Stats:
    stats = Stats()
    start = time.monotonic()
    deadline = start + duration
    # Latencies while 200 pairs sign up and open tables at once are not the steady state.
    stats.measure_from = start + warmup
    tasks = []
    for index in range(tables):
        tasks.append(asyncio.create_task(pair(base, stats, think, index, deadline)))
        await asyncio.sleep(min(0.02, think / max(tables, 1)))  # ramp up over a moment
    with Progress(
        TextColumn("load"),
        BarColumn(),
        TextColumn("{task.fields[moves]} moves"),
        TimeRemainingColumn(),
        console=console,
    ) as progress:
        bar = progress.add_task("load", total=duration, moves=0)
        while time.monotonic() < deadline:
            await asyncio.sleep(0.5)
            progress.update(bar, completed=time.monotonic() - start, moves=stats.moves)
    # Let the games in flight see their last answers (each client stops at the deadline).
    await asyncio.wait(tasks, timeout=10 + 2 * think)
    for task in tasks:
        task.cancel()
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of load")
    parser.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean seconds a client waits before acting (0: as fast as possible)",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=10.0,
        help="seconds at the start whose latencies are not counted",
    )
    parser.add_argument("--database", help="SQLAlchemy URL (default: a temporary SQLite file)")
    args = parser.parse_args()
    console = Console()
    with tempfile.TemporaryDirectory() as tmp:
        database = args.database or f"sqlite:///{Path(tmp) / 'load.db'}"
        port = free_port()
        server = start_server(database, port)
        try:
            started = time.monotonic()
            stats = asyncio.run(
                run(
                    f"http://{HOST}:{port}",
                    args.tables,
                    args.duration,
                    args.think,
                    args.warmup,
                    console,
                )
            )
            elapsed = time.monotonic() - started
        finally:
            server.terminate()
            server.wait(timeout=20)
    if not stats.latencies:
        raise SystemExit("no move was measured")
    ms = sorted(1000 * x for x in stats.latencies)
    p50 = statistics.median(ms)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    console.print(
        f"{args.tables} tables, {elapsed:.0f} s, think {args.think} s, warm-up {args.warmup} s, "
        f"{'SQLite' if database.startswith('sqlite') else 'PostgreSQL'}: "
        f"{stats.moves} moves ({stats.moves / elapsed:.0f} moves/s), {stats.games} games finished, "
        f"{stats.errors} errors; action→view latency p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
        f"max {ms[-1]:.1f} ms"
    )


if __name__ == "__main__":
    main()
