"""CPU time of the Verso bots' decisions and of the engine's playouts, for before/after checks.

    python benchmarks/verso_decisions.py [--json]

Each bot decides at the same seeded mid-game positions (4 players for ``greedy`` and ``ismcts``,
solo for ``expert`` and ``expectimax``); the figure is the median CPU time per decision
(``time.process_time``: less sensitive than wall time on a machine shared with other work).
Then random playouts per CPU second (solo and 4 players) and the clairvoyant solver's CPU time on
one pile. To compare two commits, run this file from each checkout in turn, alternating, on the
same machine (``PYTHONPATH=<checkout>/src``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from otherside.bots import make_bot
from otherside.games import verso
from otherside.research.verso_solver import clairvoyant_score

DECISIONS = (("greedy", 4, 200), ("ismcts", 4, 12), ("expectimax", 1, 60), ("expert", 1, 6))
"""(bot, players, positions)."""


def positions(players: int, count: int, seed: int) -> list[verso.VersoState]:
    """``count`` positions in play, a few random actions into seeded games."""
    rng = random.Random(seed)
    out: list[verso.VersoState] = []
    while len(out) < count:
        state = verso.new_game(players, seed=rng.getrandbits(32))
        for _ in range(rng.randrange(2, 12 * players if players > 1 else 25)):
            if state.phase_name != "play":
                break
            state = state.apply(rng.choice(state.legal_actions()))
        if state.phase_name == "play":
            out.append(state)
    return out


def decision_ms(name: str, players: int, count: int, progress: Progress) -> float:
    bot = make_bot("verso", name)
    times = []
    task = progress.add_task(name, total=count)
    for i, state in enumerate(positions(players, count, 7)):
        view = verso.view(state, state.current_player)
        start = time.process_time()
        bot.choose(view, state.legal_actions(), random.Random(i))
        times.append(time.process_time() - start)
        progress.advance(task)
    return 1000 * statistics.median(times)


def playouts(players: int, seconds: float) -> float:
    """Random playouts' actions per CPU second."""
    rng = random.Random(1)
    actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = verso.new_game(players, seed=rng.getrandbits(32))
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            actions += 1
    return actions / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    console = Console()
    figures: dict[str, float] = {}
    with Progress(console=console, transient=True) as progress:
        for name, players, count in DECISIONS:
            figures[f"{name} ms/decision ({players}p)"] = decision_ms(
                name, players, count, progress
            )
        task = progress.add_task("playouts and solver", total=3)
        for players in (1, 4):
            figures[f"playout actions/CPU s ({players}p)"] = playouts(players, 3.0)
            progress.advance(task)
        start = time.process_time()
        clairvoyant_score(verso.new_game(1, seed=101).table.pile)
        figures["clairvoyant solver CPU s (one pile)"] = time.process_time() - start
        progress.advance(task)
    if args.json:
        print(json.dumps({k: round(v, 2) for k, v in figures.items()}))
        return
    table = Table(title="Verso: CPU time (one process)")
    table.add_column("what")
    table.add_column("figure", justify="right")
    for key, value in figures.items():
        table.add_row(key, f"{value:,.2f}")
    console.print(table)


if __name__ == "__main__":
    main()
