"""How the entrants of an event stand: points, then the usual tie-breaks.

The order (FIDE's usual one for Swiss events, as lichess's Swiss shows it):

1. **points**: the sum of an entrant's points (a bye counts as a win);
2. **Buchholz**: the sum, over the entrant's games, of their opponents' points (at a table of
   more than two, the mean of the others' points) — who had the harder opponents;
3. **Sonneborn–Berger**: the sum, over the games, of the entrant's points in the game times
   that opponent's points (at a bigger table, the others' mean) — whom they beat;
4. **wins**: games won (a bye is not one: it was not played);
5. the seed (the order of entrants at the start, by rating): the higher seed first.

A bye adds nothing to the tie-breaks (no opponent). Partners (a cooperative pair) are not
each other's opponents: their games add nothing to Buchholz or Sonneborn–Berger, since both
partners share one result; their points and wins count. Games still played count for nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from otherside.server.tournaments.results import Game


@dataclass(frozen=True)
class Standing:
    """One entrant's line of the standings (``rank`` from 1; entrants tied on everything but
    the seed still get the ranks of their seeds)."""

    entrant: int
    rank: int
    points: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    played: int


def totals(seeds: Sequence[int], games: Sequence[Game]) -> dict[int, float]:
    """Each entrant's points over the finished games."""
    points = dict.fromkeys(seeds, 0.0)
    for game in games:
        if game.points is not None:
            for entrant, got in zip(game.entrants, game.points, strict=True):
                points[entrant] = points.get(entrant, 0.0) + got
    return points


def standings(seeds: Sequence[int], games: Sequence[Game]) -> list[Standing]:
    """The standings of the entrants ``seeds`` (in seed order) after ``games``, best first."""
    points = totals(seeds, games)
    buchholz = dict.fromkeys(seeds, 0.0)
    berger = dict.fromkeys(seeds, 0.0)
    wins = dict.fromkeys(seeds, 0)
    played = dict.fromkeys(seeds, 0)
    for game in games:
        if game.points is None or game.bye:
            continue
        for entrant, got in zip(game.entrants, game.points, strict=True):
            played[entrant] += 1
            if got == 1.0:
                wins[entrant] += 1
            if game.partners:
                continue
            others = [points[e] for e in game.entrants if e != entrant]
            strength = sum(others) / len(others)
            buchholz[entrant] += strength
            berger[entrant] += got * strength
    seed_of = {entrant: i for i, entrant in enumerate(seeds)}
    order = sorted(
        seeds,
        key=lambda e: (-points[e], -buchholz[e], -berger[e], -wins[e], seed_of[e]),
    )
    return [
        Standing(e, rank, points[e], buchholz[e], berger[e], wins[e], played[e])
        for rank, e in enumerate(order, start=1)
    ]
