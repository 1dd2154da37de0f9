"""Random playouts per second and actions per second of the Verso engine, on one core.

    python benchmarks/verso_playouts.py [--seconds 10] [--seed 1]

Each playout deals a seeded game and applies uniformly random legal actions (``legal_actions()``
then ``apply()``, the public immutable interface) until the end. Solo and 4 players.
"""

from __future__ import annotations

import argparse
import random
import time

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from otherside.games import verso


def measure(players: int, seconds: float, seed: int, progress: Progress) -> tuple[int, int, float]:
    rng = random.Random(seed)
    task = progress.add_task(f"{players} player(s)", total=seconds)
    games = actions = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        state = verso.new_game(players, seed=rng.getrandbits(32))
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            actions += 1
        games += 1
        elapsed = time.perf_counter() - start
        if games % 50 == 0:
            progress.update(task, completed=min(elapsed, seconds))
    progress.update(task, completed=seconds)
    return games, actions, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="time per player count")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    console = Console()
    results = []
    with Progress(console=console) as progress:
        for players in (1, 4):
            results.append((players, *measure(players, args.seconds, args.seed, progress)))
    table = Table(title="Verso random playouts (one core, immutable states)")
    for column in ("players", "games", "actions", "playouts/s", "actions/s", "actions/game"):
        table.add_column(column, justify="right")
    for players, games, actions, elapsed in results:
        table.add_row(
            "solo" if players == 1 else str(players),
            f"{games:,}",
            f"{actions:,}",
            f"{games / elapsed:,.0f}",
            f"{actions / elapsed:,.0f}",
            f"{actions / games:.1f}",
        )
    console.print(table)


if __name__ == "__main__":
    main()
