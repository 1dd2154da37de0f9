"""Swiss pairing of duels (and of partners): who meets whom in the next round.

As in FIDE's Swiss systems and lichess's (which hands the job to bbpPairings), the entrants
are ranked by points, then by seed; each plays someone on the same points where possible,
never the same opponent twice where that can be avoided, and with an odd number the
lowest-ranked entrant who has not had a bye sits the round out with a bye (a win).

The pairing is one maximum-weight perfect matching (Edmonds' blossom algorithm, networkx) over
every pair of entrants plus, with an odd number, a "bye" entrant. Each possible pair costs, in
strict order of importance (one step of a costlier concern outweighs any sum of cheaper ones):

1. a second bye for the same entrant;
2. a repeat pairing (so the matching has the fewest repeats there can be);
3. a bye given to a higher-ranked entrant than needed;
4. the square of the points between the two (a Swiss event pairs equal scores);
5. within a score group, pairs far from "top half against bottom half" (1–4, 2–5, 3–6).

Who takes the first seat (VERSUS: the first colour, who moves first) is the one who had it less
often, then the higher-ranked: colours alternate as they do over a chess event.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from otherside.server.tournaments.results import Game
from otherside.server.tournaments.standings import totals

BYE = -1  # the stand-in opponent of the entrant who sits a round out
TIER = 10**9  # a step of one concern; each concern's total stays below it


@dataclass(frozen=True)
class Pairing:
    """One round's pairing: the tables (entrants by seat) and who has a bye."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()


def ranked(seeds: Sequence[int], games: Sequence[Game]) -> list[int]:
    """The entrants by points, then by seed: the order the pairing works in."""
    points = totals(seeds, games)
    return sorted(seeds, key=lambda e: (-points[e], seeds.index(e)))


def meetings(games: Sequence[Game]) -> Counter[frozenset[int]]:
    """How often each two entrants met (as opponents, or as partners with ``partners``)."""
    met: Counter[frozenset[int]] = Counter()
    for game in games:
        for i, a in enumerate(game.entrants):
            for b in game.entrants[i + 1 :]:
                met[frozenset((a, b))] += 1
    return met


def byes_had(games: Sequence[Game]) -> Counter[int]:
    """How many byes each entrant had."""
    return Counter(game.entrants[0] for game in games if game.bye)


def pair_swiss(seeds: Sequence[int], games: Sequence[Game]) -> Pairing:
    """The next round's duels among ``seeds`` (entrants in seed order) after ``games``.

    Raises:
        ValueError: fewer than two entrants.
    """
    if len(seeds) < 2:
        raise ValueError("a pairing needs two entrants or more")
    order = ranked(seeds, games)
    points = totals(seeds, games)
    met = meetings(games)
    had_bye = byes_had(games)
    rank = {e: i for i, e in enumerate(order)}
    group = _score_groups(order, points)
    # Imported here: networkx takes a third of a second to import, and most server processes
    # never pair a Swiss round.
    import networkx as nx

    graph = nx.Graph()
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            graph.add_edge(a, b, weight=_weight(_cost(a, b, points, met, rank, group)))
        if len(order) % 2:
            bye_cost = (had_bye[a], 0, len(order) - 1 - rank[a], 0, 0)
            graph.add_edge(a, BYE, weight=_weight(bye_cost))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    tables: list[tuple[int, int]] = []
    byes: list[int] = []
    for a, b in matching:
        if BYE in (a, b):
            byes.append(b if a == BYE else a)
        else:
            tables.append(_seated(a, b, games, rank))
    tables.sort(key=lambda t: min(rank[t[0]], rank[t[1]]))
    return Pairing(tuple(tables), tuple(byes))


def _score_groups(order: list[int], points: dict[int, float]) -> dict[int, tuple[int, int]]:
    """Each entrant's place in its score group and the group's size."""
    sizes = Counter(points[e] for e in order)
    seen: Counter[float] = Counter()
    place = {}
    for e in order:
        place[e] = (seen[points[e]], sizes[points[e]])
        seen[points[e]] += 1
    return place


def _cost(
    a: int,
    b: int,
    points: dict[int, float],
    met: Counter[frozenset[int]],
    rank: dict[int, int],
    group: dict[int, tuple[int, int]],
) -> tuple[int, int, int, int, int]:
    """The cost of pairing ``a`` with ``b`` by concern (see the module docstring)."""
    gap = points[a] - points[b]
    fold = 0
    if gap == 0:
        (pa, size), (pb, _) = group[a], group[b]
        fold = (abs(pa - pb) - size // 2) ** 2
    return (0, met[frozenset((a, b))], 0, round(gap * gap * 36), fold)


def _weight(cost: tuple[int, ...]) -> int:
    """A matching weight (higher is better) from a cost by concern, costliest first."""
    total = 0
    for part in cost:
        total = total * TIER + part
    return TIER ** len(cost) - total


def _seated(a: int, b: int, games: Sequence[Game], rank: dict[int, int]) -> tuple[int, int]:
    """``a`` and ``b`` in seat order: the one who had the first seat less often first."""
    first = Counter(g.entrants[0] for g in games if not g.bye)
    return (a, b) if (first[a], rank[a]) <= (first[b], rank[b]) else (b, a)
