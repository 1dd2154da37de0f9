"""What a server process spends to follow a move made in another one: the move applied from its
notification (``Follow``) against the table read back from the database (``Refresh``, what every
move cost before notifications carried the move).

Two apps in this process on one new PostgreSQL database stand for two server processes; the
second one's own listening is stopped, and it is handed each move of the first, alternately one
way and the other, with a watcher attached so that each way also sends the view. It prints the
median CPU of this process (every thread: the database's pool included, PostgreSQL's own work
not) and the median wall time per move, each way.

    PYTHONPATH=src:. python benchmarks/follow_moves.py \\
        --database postgresql+psycopg://otherside@127.0.0.1:54330/postgres
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from tests.server.conftest import hub_of, people, running, table_with
from tests.server.test_followed_moves import _move

from otherside.server.cluster.catch_up import Follow, Refresh
from otherside.server.cluster.moves import heard_move
from otherside.testing.servers import fresh_database


async def measure(url: str, games: int, moves: int) -> dict[str, list[tuple[float, float]]]:
    """(CPU s, wall s) per followed move, each way."""
    costs: dict[str, list[tuple[float, float]]] = {"follow": [], "refresh": []}
    async with running(url) as first, running(url) as second:
        mover, follower = hub_of(first), hub_of(second)
        await follower.cluster.stop()  # this script hands it each move instead
        for _ in range(games):
            ada, bob = await people(first, 2)
            table = await table_with(first, [ada, bob])
            await follower.attach(table, bob.recorder())
            for i in range(moves):
                note = await _move(mover, table, [ada, bob])
                played = mover.loaded(table)
                if played is None or played.info.status != "playing":
                    break  # the game ended: its last move is always read back
                way = "refresh" if i % 2 else "follow"
                cpu, wall = time.process_time(), time.perf_counter()
                if way == "refresh":
                    await follower.ask(table, Refresh())
                else:
                    move = heard_move(note)
                    if move is None or not await follower.ask(table, Follow(move)):
                        raise SystemExit("a move heard did not follow on")
                costs[way].append((time.process_time() - cpu, time.perf_counter() - wall))
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", required=True, help="a PostgreSQL server's URL")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--moves", type=int, default=12, help="at most, a game")
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as work,
        fresh_database(args.database, "follow_moves", Path(work)) as url,
    ):
        costs = asyncio.run(measure(url, args.games, args.moves))
    for way, rows in costs.items():
        cpu = sorted(r[0] for r in rows)
        wall = sorted(r[1] for r in rows)
        print(
            f"{way}: {len(rows)} moves, CPU median {cpu[len(cpu) // 2] * 1e6:.0f} µs, "
            f"wall median {wall[len(wall) // 2] * 1e3:.2f} ms"
        )


if __name__ == "__main__":
    main()
