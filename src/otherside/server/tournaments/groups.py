"""Tables of more than two (Verso, three to six players): the sizes of a round's tables and
who sits at each.

The sizes: as few tables as hold everyone at ``most`` a table, as even as can be; when that
would leave a table below ``least``, one table fewer and the rest sit the round out with a bye.
The seating, Swiss-like: entrants by points then seed, the byes to the lowest-ranked entrants
who had fewest, then each table filled from the top of the ranking with the entrant who has met
the table's players least often (then the highest-ranked), and last a pass of swaps between
tables that lowers the number of repeated meetings without mixing the score groups more.
Meeting nobody twice at tables of several is not always possible; the swaps make repeats rare.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from otherside.server.tournaments.results import Game
from otherside.server.tournaments.swiss import Pairing, byes_had, meetings, ranked


def table_sizes(entrants: int, most: int, least: int) -> tuple[list[int], int]:
    """The tables' sizes for a round of ``entrants`` at tables of ``least`` to ``most``, and
    how many sit out with a bye.

    >>> table_sizes(7, 4, 3)
    ([4, 3], 0)
    >>> table_sizes(4, 3, 3)
    ([3], 1)
    >>> table_sizes(5, 2, 2)
    ([2, 2], 1)
    """
    if not 1 <= least <= most:
        raise ValueError(f"table sizes from {least} to {most} make no sense")
    tables = -(-entrants // most)
    if tables and entrants >= tables * least:
        base, extra = divmod(entrants, tables)
        return [base + 1] * extra + [base] * (tables - extra), 0
    tables = max(tables - 1, 0)
    return [most] * tables, entrants - tables * most


def pair_groups(seeds: Sequence[int], games: Sequence[Game], most: int, least: int) -> Pairing:
    """The next round's tables of ``least`` to ``most`` among ``seeds`` after ``games``.

    Raises:
        ValueError: fewer entrants than a table needs.
    """
    if len(seeds) < least:
        raise ValueError(f"a table needs {least} entrants, there are {len(seeds)}")
    sizes, bye_count = table_sizes(len(seeds), most, least)
    order = ranked(seeds, games)
    had_bye = byes_had(games)
    # The lowest-ranked among those who had fewest byes.
    by_need = sorted(order, key=lambda e: (had_bye[e], -order.index(e)))
    byes = by_need[:bye_count]
    playing = [e for e in order if e not in byes]
    met = meetings(games)
    tables: list[list[int]] = []
    for size in sizes:
        table = [playing.pop(0)]
        while len(table) < size:
            best = min(playing, key=lambda e: (sum(met[frozenset((e, t))] for t in table),))
            playing.remove(best)
            table.append(best)
        tables.append(table)
    _swap_repeats(tables, met, {e: i for i, e in enumerate(order)})
    return Pairing(tuple(tuple(t) for t in tables), tuple(byes))


def repeats(table: Sequence[int], met: Counter[frozenset[int]]) -> int:
    """How many earlier meetings the players of ``table`` would repeat."""
    return sum(met[frozenset(pair)] for pair in combinations(table, 2))


def _swap_repeats(
    tables: list[list[int]], met: Counter[frozenset[int]], rank: dict[int, int]
) -> None:
    """Swap two players of different tables while a swap lowers the repeats, then seat each
    table in ranking order."""
    improved = True
    while improved:
        improved = False
        for x, y in combinations(range(len(tables)), 2):
            for i, a in enumerate(tables[x]):
                for j, b in enumerate(tables[y]):
                    before = repeats(tables[x], met) + repeats(tables[y], met)
                    tables[x][i], tables[y][j] = b, a
                    after = repeats(tables[x], met) + repeats(tables[y], met)
                    if after < before:
                        improved = True
                        a = b
                        continue
                    tables[x][i], tables[y][j] = a, b
    for table in tables:
        table.sort(key=rank.__getitem__)
