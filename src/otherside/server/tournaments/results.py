"""A game of an event as data, and the points a finished table gives its entrants.

Every game of an event, whatever its size, gives each entrant between 0 and 1 point: a duel the
usual 1, ½ or 0; a table of ``n`` players ``(n - rank) / (n - 1)`` by rank (the first 1, the
last 0), players who tie sharing the points of the places they hold together; a bye 1, as a
win (FIDE's usual full-point bye). A partnership (two partners playing together, Recto Verso)
gives both partners the same points: the pair's rank among the round's pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

BYE_POINTS = 1.0


@dataclass(frozen=True)
class Game:
    """One game of an event: its round (1-based), its entrants by seat and, once it is over,
    the points of each (``None`` while it is played). A bye is a game of one entrant.

    With ``partners`` the entrants played together (a cooperative pair): they are partners,
    not opponents, for the tie-breaks and for the pairing.
    """

    round: int
    entrants: tuple[int, ...]
    points: tuple[float, ...] | None = None
    partners: bool = False

    @property
    def bye(self) -> bool:
        """A round without a game, counted as a win."""
        return len(self.entrants) == 1

    @property
    def over(self) -> bool:
        """The game has its result."""
        return self.points is not None

    def points_of(self, entrant: int) -> float:
        """What ``entrant`` scored here (0 while the game is played)."""
        if self.points is None:
            return 0.0
        return self.points[self.entrants.index(entrant)]


def bye(round_number: int, entrant: int) -> Game:
    """The bye of ``entrant`` in round ``round_number``: a full point."""
    return Game(round_number, (entrant,), (BYE_POINTS,))


def rank_points(strengths: Sequence[float]) -> tuple[float, ...]:
    """Points by rank for players whose results are ``strengths`` (higher is better).

    >>> rank_points([3, 7, 5])
    (0.0, 1.0, 0.5)
    >>> rank_points([2, 2, 0])
    (0.75, 0.75, 0.0)
    >>> rank_points([1, 1])
    (0.5, 0.5)
    """
    n = len(strengths)
    if n == 1:
        return (BYE_POINTS,)
    order = sorted(range(n), key=lambda i: -strengths[i])
    points = [0.0] * n
    place = 0
    while place < n:
        same = place
        while same + 1 < n and strengths[order[same + 1]] == strengths[order[place]]:
            same += 1
        # The tied players share the points of the places from ``place`` to ``same``.
        shared = sum((n - 1 - p) / (n - 1) for p in range(place, same + 1)) / (same - place + 1)
        for p in range(place, same + 1):
            points[order[p]] = shared
        place = same + 1
    return tuple(points)


def table_points(scores: Sequence[float], winners: Sequence[int]) -> tuple[float, ...]:
    """The points of one finished table from its outcome: the winners first, then by score
    (a duel: 1 to the winner, 0 to the loser, ½ each for a draw)."""
    won = set(winners)
    # A winner outranks every non-winner whatever the scores: a forfeit may leave the winner
    # behind on points.
    top = max((abs(s) for s in scores), default=0.0) * 2 + 1
    return rank_points([s + (top if i in won else 0.0) for i, s in enumerate(scores)])


def partnership_points(results: Sequence[tuple[float, bool]]) -> tuple[float, ...]:
    """The points of each pair of a round of partnerships, from each pair's ``(score, won)``:
    their rank among the round's pairs (a pair that won outranks one that did not); a pair
    alone in its round scores 1 if it won, else 0.

    >>> partnership_points([(12, True), (9, True), (20, False)])
    (1.0, 0.5, 0.0)
    >>> partnership_points([(3, False)])
    (0.0,)
    """
    if len(results) == 1:
        return (BYE_POINTS if results[0][1] else 0.0,)
    return table_points([score for score, _ in results], [i for i, r in enumerate(results) if r[1]])
