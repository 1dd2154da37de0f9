"""The pure logic of tournaments: Swiss pairing, round-robin, groups, points and standings."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from otherside.server.tournaments.groups import pair_groups, table_sizes
from otherside.server.tournaments.results import Game, bye, rank_points, table_points
from otherside.server.tournaments.round_robin import round_count, round_robin
from otherside.server.tournaments.standings import standings
from otherside.server.tournaments.swiss import Pairing, meetings, pair_swiss


def play(pairing: Pairing, number: int, rng: random.Random) -> list[Game]:
    """The games of a round with random results (duels: 1-0, 0-1 or ½-½)."""
    games = [bye(number, e) for e in pairing.byes]
    for table in pairing.tables:
        scores = [rng.choice([0, 1, 2]) for _ in table]
        games.append(Game(number, table, rank_points(scores)))
    return games


def everyone_once(pairing: Pairing, seeds: list[int]) -> None:
    seated = [e for t in pairing.tables for e in t] + list(pairing.byes)
    assert sorted(seated) == sorted(seeds)


def can_avoid_repeats(
    seeds: list[int], met: Counter[frozenset[int]], may_sit_out: set[int]
) -> bool:
    """Whether a round of duels (one bye when odd, to one of ``may_sit_out``) can avoid every
    earlier pairing: an exhaustive search, the check the matching is held to."""

    def search(left: list[int], byes_left: int) -> bool:
        if not left:
            return not byes_left
        first, rest = left[0], left[1:]
        if byes_left and first in may_sit_out and search(rest, byes_left - 1):
            return True
        return any(
            not met[frozenset((first, other))]
            and search([e for e in rest if e != other], byes_left)
            for other in rest
        )

    return search(seeds, len(seeds) % 2)


def test_first_round_pairs_top_half_against_bottom_half() -> None:
    pairing = pair_swiss([1, 2, 3, 4, 5, 6], [])
    assert {frozenset(t) for t in pairing.tables} == {
        frozenset((1, 4)),
        frozenset((2, 5)),
        frozenset((3, 6)),
    }
    assert pairing.byes == ()


def test_bye_goes_to_the_lowest_ranked_without_one() -> None:
    seeds = [1, 2, 3, 4, 5]
    first = pair_swiss(seeds, [])
    assert first.byes == (5,)
    games = [bye(1, 5), Game(1, (1, 3), (1.0, 0.0)), Game(1, (2, 4), (1.0, 0.0))]
    second = pair_swiss(seeds, games)
    # Ranked 1, 2, 5 (one point each), then 3, 4: the bye goes to 4, the lowest without one.
    assert second.byes == (4,)
    assert frozenset((1, 3)) not in {frozenset(t) for t in second.tables}


def test_equal_scores_are_paired_together() -> None:
    seeds = [1, 2, 3, 4]
    games = [Game(1, (1, 3), (1.0, 0.0)), Game(1, (2, 4), (1.0, 0.0))]
    pairing = pair_swiss(seeds, games)
    assert {frozenset(t) for t in pairing.tables} == {frozenset((1, 2)), frozenset((3, 4))}


def test_first_seat_goes_to_who_had_it_less() -> None:
    games = [Game(1, (1, 3), (1.0, 0.0)), Game(1, (2, 4), (1.0, 0.0))]
    pairing = pair_swiss([1, 2, 3, 4], games)
    # 1 and 2 both moved first in round 1: the higher-ranked, 1, does it again only if 2
    # had it as often; 3 and 4 had it never: one of them moves first.
    for table in pairing.tables:
        if set(table) == {3, 4}:
            assert table == (3, 4)
        else:
            assert table == (1, 2)


def test_a_repeat_only_when_unavoidable() -> None:
    # Three entrants, three rounds: after 1-2, 1-3 and 2-3 every pairing is a repeat.
    games = [
        Game(1, (1, 2), (1.0, 0.0)),
        bye(1, 3),
        Game(2, (1, 3), (1.0, 0.0)),
        bye(2, 2),
        Game(3, (2, 3), (0.5, 0.5)),
        bye(3, 1),
    ]
    pairing = pair_swiss([1, 2, 3], games)
    assert len(pairing.tables) == 1 and len(pairing.byes) == 1


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 13), st.integers(1, 8), st.randoms(use_true_random=False))
def test_swiss_property(n: int, rounds: int, rng: random.Random) -> None:
    """Each entrant once per round; no repeat pairing when one is avoidable (with the bye to
    one of those who had fewest); no second bye while someone has none."""
    seeds = list(range(10, 10 + n))
    games: list[Game] = []
    for number in range(1, rounds + 1):
        met = meetings(games)
        pairing = pair_swiss(seeds, games)
        everyone_once(pairing, seeds)
        assert len(pairing.byes) == n % 2
        repeated = [t for t in pairing.tables if met[frozenset(t)]]
        had = Counter(g.entrants[0] for g in games if g.bye)
        # A second bye is worse than a repeat (FIDE: one bye each): the bye goes to one of
        # those who had fewest.
        fewest = {e for e in seeds if had[e] == min(had[s] for s in seeds)}
        if can_avoid_repeats(seeds, met, fewest):
            assert not repeated, (number, pairing, games)
        for b in pairing.byes:
            assert had[b] == 0 or all(had[e] for e in seeds)
        games += play(pairing, number, rng)


@pytest.mark.parametrize("n", range(2, 12))
def test_round_robin_meets_everyone_exactly_once(n: int) -> None:
    seeds = list(range(1, n + 1))
    rounds = round_robin(seeds)
    assert len(rounds) == round_count(n)
    met: Counter[frozenset[int]] = Counter()
    firsts: Counter[int] = Counter()
    for pairing in rounds:
        everyone_once(pairing, seeds)
        assert len(pairing.byes) == n % 2
        for a, b in pairing.tables:
            met[frozenset((a, b))] += 1
            firsts[a] += 1
    assert met == Counter({frozenset(p): 1 for p in combinations(seeds, 2)})
    if n % 2:
        byes = Counter(b for p in rounds for b in p.byes)
        assert byes == Counter(seeds)
    # Each plays first about half of the time.
    games = n - 1
    assert all(abs(firsts[e] - games / 2) <= 1 for e in seeds)


def test_round_robin_refuses_bad_entrants() -> None:
    with pytest.raises(ValueError):
        round_robin([1])
    with pytest.raises(ValueError):
        round_robin([1, 1, 2])


@given(st.integers(0, 40), st.integers(2, 6), st.integers(2, 6))
def test_table_sizes(n: int, most: int, least: int) -> None:
    if least > most:
        with pytest.raises(ValueError):
            table_sizes(n, most, least)
        return
    sizes, byes = table_sizes(n, most, least)
    assert sum(sizes) + byes == n
    assert all(least <= s <= most for s in sizes)
    if n >= least:
        assert sizes and byes < least + most


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 14), st.integers(3, 6), st.integers(1, 5), st.randoms(use_true_random=False))
def test_groups_property(n: int, most: int, rounds: int, rng: random.Random) -> None:
    """Tables of 3 to ``most``: everyone once a round, sizes kept, byes shared out."""
    seeds = list(range(n))
    games: list[Game] = []
    for number in range(1, rounds + 1):
        pairing = pair_groups(seeds, games, most, 3)
        everyone_once(pairing, seeds)
        assert all(3 <= len(t) <= most for t in pairing.tables)
        had = Counter(g.entrants[0] for g in games if g.bye)
        for b in pairing.byes:
            assert had[b] <= min(had[e] for e in seeds if e not in pairing.byes)
        games += play(pairing, number, rng)


def test_groups_avoid_repeats_when_the_swaps_can() -> None:
    seeds = list(range(1, 10))
    games: list[Game] = []
    for number in range(1, 5):
        met = meetings(games)
        pairing = pair_groups(seeds, games, 3, 3)
        # Nine players at tables of three can meet new opponents for four rounds (a resolvable
        # design); the greedy seating with swaps finds one.
        assert all(not met[frozenset(p)] for t in pairing.tables for p in combinations(t, 2))
        games += [Game(number, t, rank_points([3 - i for i in range(3)])) for t in pairing.tables]


def test_rank_points_share_ties() -> None:
    assert rank_points([5, 5, 5]) == (0.5, 0.5, 0.5)
    assert rank_points([9, 1, 5, 5]) == (1.0, 0.0, 0.5, 0.5)
    # A forfeit's winner outranks a loser who was ahead on points.
    assert table_points([0, 7], [0]) == (1.0, 0.0)
    assert table_points([3, 3], []) == (0.5, 0.5)


def test_standings_order_and_tie_breaks() -> None:
    # 1 beat 2, 2 beat 3, 3 beat 1 (a cycle), 4 lost to everybody; then tie-breaks decide.
    seeds = [1, 2, 3, 4]
    games = [
        Game(1, (1, 2), (1.0, 0.0)),
        Game(1, (3, 4), (1.0, 0.0)),
        Game(2, (2, 3), (1.0, 0.0)),
        Game(2, (1, 4), (0.5, 0.5)),
        Game(3, (3, 1), (1.0, 0.0)),
        Game(3, (2, 4), (1.0, 0.0)),
    ]
    table = {s.entrant: s for s in standings(seeds, games)}
    assert [s.entrant for s in standings(seeds, games)] == [2, 3, 1, 4]
    assert table[2].points == 2 and table[3].points == 2
    # Buchholz: 2 met 1 (1.5), 3 (2), 4 (0.5) = 4; 3 met 4, 2, 1 = 0.5 + 2 + 1.5 = 4.
    assert table[2].buchholz == table[3].buchholz == 4.0
    # Sonneborn–Berger: 2 beat 3 (2) and 4 (0.5) = 2.5; 3 beat 4 (0.5) and 1 (1.5) = 2.
    assert table[2].sonneborn_berger == 2.5 and table[3].sonneborn_berger == 2.0
    assert table[1].sonneborn_berger == 2.0 + 0.25
    assert table[4].rank == 4 and table[4].wins == 0 and table[2].wins == 2


def test_a_bye_counts_as_a_win_but_not_in_tie_breaks() -> None:
    lines = standings([1, 2, 3], [bye(1, 3), Game(1, (1, 2), (1.0, 0.0))])
    line = next(s for s in lines if s.entrant == 3)
    assert line.points == 1.0 and line.buchholz == 0.0 and line.wins == 0 and line.played == 0
    # Equal on points and tie-breaks but wins: 1 (a win played) before 3 (a bye).
    assert [s.entrant for s in lines] == [1, 3, 2]


def test_partners_share_points_and_are_not_opponents() -> None:
    games = [Game(1, (1, 2), (1.0, 1.0), partners=True), Game(1, (3, 4), (0.0, 0.0), partners=True)]
    lines = {s.entrant: s for s in standings([1, 2, 3, 4], games)}
    assert lines[1].points == lines[2].points == 1.0
    assert lines[1].buchholz == 0.0
