"""How long a Swiss round takes to pair, and how often the pairing must repeat a meeting.

For each size of event, a seeded Swiss event of duels is paired round after round with random
results (1-0, ½-½, 0-1), the way the director pairs a real one; prints the mean and the slowest
time to pair a round (Edmonds' matching over every pair of entrants, networkx) and the repeated
pairings over the event (none is needed while rounds < entrants). Also the Verso groups
(tables of up to four). Pure: no server.

    PYTHONPATH=src python benchmarks/tournament_pairing.py
    PYTHONPATH=src python benchmarks/tournament_pairing.py --sizes 16 64 --rounds 9 --seed 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from otherside.server.tournaments.groups import pair_groups
from otherside.server.tournaments.results import Game, bye, rank_points
from otherside.server.tournaments.swiss import Pairing, meetings, pair_swiss


def run(
    entrants: int, rounds: int, seed: int, pair: Callable[[list[int], list[Game]], Pairing]
) -> tuple[list[float], int]:
    """Pair ``rounds`` rounds of an event of ``entrants``; seconds per round and repeats."""
    rng = random.Random(seed)
    seeds = list(range(entrants))
    games: list[Game] = []
    times, repeats = [], 0
    for number in range(1, rounds + 1):
        met = meetings(games)
        start = time.perf_counter()
        pairing = pair(seeds, games)
        times.append(time.perf_counter() - start)
        for table in pairing.tables:
            repeats += sum(
                met[frozenset((a, b))] > 0 for i, a in enumerate(table) for b in table[i + 1 :]
            )
            games.append(Game(number, table, rank_points([rng.random() for _ in table])))
        games += [bye(number, e) for e in pairing.byes]
    return times, repeats


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 16, 32, 64])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    kinds: dict[str, Callable[[list[int], list[Game]], Pairing]] = {
        "swiss duels": pair_swiss,
        "verso tables of 3-4": lambda seeds, games: pair_groups(seeds, games, 4, 3),
    }
    for kind, pair in kinds.items():
        for size in args.sizes:
            times, repeats = run(size, args.rounds, args.seed, pair)
            print(
                f"{kind:20} {size:3} entrants, {args.rounds} rounds: "
                f"{statistics.mean(times) * 1000:7.1f} ms a round (slowest "
                f"{max(times) * 1000:7.1f} ms), {repeats} repeated meeting(s)"
            )


if __name__ == "__main__":
    main()
