"""Random playouts of the VERSUS engine: plies per second on one core.

    python benchmarks/versus_playouts.py [--seconds 10] [--seed 1]

Two measurements, each for ``--seconds``:

* **state API** — the public immutable interface: ``legal_plies()`` (board plies; platform
  actions such as ``resign`` are left out so that random games are real games), a uniform
  choice, ``apply()``. This is the figure the target (20,000 plies/s) refers to.
* **position** — the rules core the search bot uses: ``Position.moves()`` and ``play()`` on
  ply codes, without history or action objects.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from otherside.games.versus import Position, new_game


def _state_game(rng: random.Random) -> int:
    state = new_game()
    plies = 0
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_plies()))
        plies += 1
    return plies


def _position_game(rng: random.Random) -> int:
    position = Position.start()
    plies = 0
    while position.end_reason is None:
        position = position.play(rng.choice(position.moves()))
        plies += 1
    return plies


def measure(
    name: str,
    playout: Callable[[random.Random], int],
    seconds: float,
    seed: int,
    progress: Progress,
) -> tuple[str, int, int, float]:
    """Play ``playout`` games for ``seconds``: (name, games, plies, elapsed)."""
    rng = random.Random(seed)
    task = progress.add_task(name, total=seconds)
    games = plies = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        plies += playout(rng)
        games += 1
        elapsed = time.perf_counter() - start
        if games % 20 == 0:
            progress.update(task, completed=min(elapsed, seconds))
    progress.update(task, completed=seconds)
    return name, games, plies, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="time per measurement")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    console = Console()
    with Progress(console=console, transient=True) as progress:
        results = [
            measure("state API", _state_game, args.seconds, args.seed, progress),
            measure("position", _position_game, args.seconds, args.seed, progress),
        ]
    table = Table(title="VERSUS random playouts (one core)")
    for column in ("interface", "games", "plies", "plies/s", "playouts/s", "plies/game"):
        table.add_column(column, justify="right")
    for name, games, plies, elapsed in results:
        table.add_row(
            name,
            f"{games:,}",
            f"{plies:,}",
            f"{plies / elapsed:,.0f}",
            f"{games / elapsed:,.1f}",
            f"{plies / games:.1f}",
        )
    console.print(table)


if __name__ == "__main__":
    main()
