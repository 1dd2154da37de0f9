"""Elo ratings, written once for every game: pure functions, no storage.

A two-player game is one Elo game. A game of several rated players is scored as the large
board-game sites do: each pair of players is a game won by the better finishing place (a draw
for equal places), and a player's change is the sum over their opponents with the K factor
divided by the number of opponents, so that a table of six moves a rating about as much as a
duel does.
"""

from __future__ import annotations

from collections.abc import Sequence

START = 1500.0
K_FACTOR = 32.0
SCALE = 400.0


def expected(rating: float, opponent: float) -> float:
    """The expected score of a player rated ``rating`` against ``opponent``.

    >>> round(expected(1500, 1500), 3), round(expected(1600, 1400), 3)
    (0.5, 0.76)
    """
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / SCALE))


def update(rating: float, opponent: float, score: float, k: float = K_FACTOR) -> float:
    """The new rating after one game scored ``score`` (1 win, 0.5 draw, 0 loss).

    The textbook example: a 1613 player scoring 0.5 against a 1609 opponent (K = 32).

    >>> round(update(1613, 1609, 0.5), 2)
    1612.82
    >>> round(update(1500, 1500, 1.0), 1)
    1516.0
    """
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a game's score is from 0 to 1, not {score!r}")
    return rating + k * (score - expected(rating, opponent))


def duel(first: float, second: float, score: float, k: float = K_FACTOR) -> tuple[float, float]:
    """Both new ratings after a two-player game scored ``score`` for ``first``.

    >>> [round(r, 1) for r in duel(1500, 1500, 1.0)]
    [1516.0, 1484.0]
    """
    return update(first, second, score, k), update(second, first, 1.0 - score, k)


def by_places(ratings: Sequence[float], places: Sequence[int], k: float = K_FACTOR) -> list[float]:
    """New ratings after a game of several players finishing at ``places`` (0 = first; equal
    places tie). With two players this is exactly :func:`duel`.

    >>> [round(r, 1) for r in by_places([1500, 1500], [0, 1])]
    [1516.0, 1484.0]
    >>> [round(r, 1) for r in by_places([1500, 1500, 1500], [0, 1, 2])]
    [1516.0, 1500.0, 1484.0]
    """
    if len(ratings) != len(places):
        raise ValueError("one place per rating")
    n = len(ratings)
    if n < 2:
        return list(ratings)
    share = k / (n - 1)
    new = []
    for i, (rating, place) in enumerate(zip(ratings, places, strict=True)):
        change = 0.0
        for j, (other, other_place) in enumerate(zip(ratings, places, strict=True)):
            if i == j:
                continue
            score = 1.0 if place < other_place else 0.5 if place == other_place else 0.0
            change += share * (score - expected(rating, other))
        new.append(rating + change)
    return new
