"""Round-robin: every entrant meets every other exactly once.

The circle method with Berger's tables: the entrants stand in two rows, the first fixed and
the others turning one place a round; with an odd number a "bye" stands in the circle, so that
``n`` entrants play ``n - 1`` rounds (``n`` when ``n`` is odd, each sitting out one). The
first seat alternates for the fixed entrant and goes to the top row's entrant otherwise, so that
each plays first about half the time.
"""

from __future__ import annotations

from collections.abc import Sequence

from otherside.server.tournaments.swiss import Pairing


def round_count(entrants: int) -> int:
    """The rounds a round-robin of ``entrants`` takes."""
    return entrants - 1 if entrants % 2 == 0 else entrants


def round_robin(seeds: Sequence[int]) -> list[Pairing]:
    """Every round of a round-robin of ``seeds`` (entrants in seed order).

    >>> [p.tables for p in round_robin([1, 2, 3, 4])]
    [((1, 4), (2, 3)), ((3, 1), (4, 2)), ((1, 2), (3, 4))]

    Raises:
        ValueError: fewer than two entrants, or an entrant twice.
    """
    if len(seeds) < 2 or len(set(seeds)) != len(seeds):
        raise ValueError("a round-robin needs two entrants or more, each once")
    circle: list[int | None] = list(seeds)
    if len(circle) % 2:
        circle.append(None)
    n = len(circle)
    rounds = []
    for number in range(n - 1):
        tables: list[tuple[int, int]] = []
        byes: list[int] = []
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            if a is None or b is None:
                byes.append(b if a is None else a)  # type: ignore[arg-type]
                continue
            # The fixed entrant (place 0) alternates seats; the others take the top row's.
            tables.append((b, a) if i == 0 and number % 2 else (a, b))
        rounds.append(Pairing(tuple(tables), tuple(byes)))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds
