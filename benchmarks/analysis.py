"""How long the bots take to analyse a finished game, and how often they call the random
player's plies mistakes: seeded games of the random bot against the search bot (VERSUS) and of
two random bots (Verso), each analysed decision by decision in this process with the server's
budget (the per-decision work of :func:`otherside.bots.analysis.assess`).

    PYTHONPATH=src python benchmarks/analysis.py --games 3 --depth 3 --think 1.0

Prints, per game, the decisions weighed, the seconds taken and, for VERSUS, the judgements of
each side.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from otherside.bots import make_bot
from otherside.bots.analysis import assess
from otherside.bots.versus.analysis import PlayedPly, annotate
from otherside.games import verso, versus


def versus_game(seed: int, think: float, depth: int) -> None:
    """One VERSUS game, random (Blue) against search at 0.1 s a ply, then its analysis."""
    rng = random.Random(seed)
    bots = [make_bot("versus", "random"), make_bot("versus", "search", think=0.1)]
    state = versus.new_game()
    jobs = []
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        action = bots[seat].choose(versus.view(state, seat), state.legal_actions(), rng)
        jobs.append((versus.view(state, None), PlayedPly(len(jobs) + 1, str(action), seat)))
        state = state.apply(action)
    start = time.perf_counter()
    plies = [annotate(p, assess("versus", v, p.played, think, depth)) for v, p in jobs]
    took = time.perf_counter() - start
    judged = [
        Counter(p["judgement"] for p in plies if p["seat"] == s and p["judgement"]) for s in (0, 1)
    ]
    print(
        f"versus seed {seed}: {len(plies)} plies in {took:.1f} s "
        f"({took / max(1, len(plies)):.2f} s a ply); "
        f"random {dict(judged[0])}, search {dict(judged[1])}"
    )


def verso_game(seed: int, think: float) -> None:
    """One 2-player Verso game of two random bots, then its analysis."""
    rng = random.Random(seed)
    state = verso.new_game(players=2, seed=seed)
    jobs = []
    while not state.is_over:
        legal = state.legal_actions()
        action = rng.choice(legal)
        if len(legal) > 1:
            jobs.append((verso.view(state, state.current_player), str(action)))
        state = state.apply(action)
    start = time.perf_counter()
    costs = [
        a.best_value - a.played_value for a in (assess("verso", v, p, think, 0) for v, p in jobs)
    ]
    took = time.perf_counter() - start
    print(
        f"verso seed {seed}: {len(jobs)} decisions in {took:.1f} s; "
        f"win chance given away: mean {sum(costs) / max(1, len(costs)):.3f}, "
        f"most {max(costs, default=0):.3f}"
    )


def main() -> None:
    """Analyse ``--games`` seeded games of each kind and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--verso-think", type=float, default=0.2)
    args = parser.parse_args()
    for seed in range(args.games):
        versus_game(seed, args.think, args.depth)
    for seed in range(args.games):
        verso_game(seed, args.verso_think)


if __name__ == "__main__":
    main()
