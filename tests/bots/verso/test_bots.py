"""Verso bots: legal play at every table size, no peeking at hidden information, strength order."""

from __future__ import annotations

import random

import pytest

from otherside.bots import bot_info, bot_names, make_bot, play_match
from otherside.games import verso

FAST = {
    "random": {},
    "greedy": {},
    "ismcts": {"iterations": 12, "depth": 4},
    "expert": {"worlds": 3, "table_iterations": 8},
}


def test_registry_names_match_the_bots() -> None:
    names = bot_names("verso")
    assert {"random", "greedy", "ismcts", "expert", "expectimax", "best"} <= set(names)
    for name in ("random", "greedy", "ismcts", "expert"):
        assert make_bot("verso", name, **FAST[name]).name == name
    assert make_bot("verso", "best").name == "expectimax"
    with pytest.raises(ValueError, match="unknown verso bot"):
        make_bot("verso", "oracle")


def test_the_lobby_offers_at_each_table_only_bots_that_play_differently() -> None:
    """Every name offered at a player count is a different bot (no alias, and no solo bot that
    would play ``ismcts`` at a table); each has a one-line description and a measured figure."""
    infos = bot_info("verso")
    assert {i.name for i in infos} == set(bot_names("verso")) - {"best"}
    for players in range(1, 7):
        offered = [i.name for i in infos if players in i.players]
        assert len(offered) == len(set(offered)) >= 3
        if players > 1:
            assert not {"expert", "expectimax"} & set(offered)
    for info in infos:
        assert info.description and "\n" not in info.description and info.strength
    assert next(i for i in infos if i.name == "expectimax").aliases == ("best",)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("name", ["random", "greedy", "ismcts"])
def test_bots_play_only_legal_actions(name: str, players: int) -> None:
    # play_match raises IllegalAction as soon as a seat answers outside the legal list.
    state = verso.new_game(players, seed=players * 7)
    seats = [make_bot("verso", name, **FAST[name]) for _ in range(players)]
    result = play_match(verso.GAME, state, seats, random.Random(players))
    assert result.final.is_over
    assert verso.replay(result.final.to_record()).scores == result.final.scores


@pytest.mark.parametrize("name", ["greedy", "ismcts"])
@pytest.mark.parametrize("players", [1, 3])
def test_bots_decide_from_the_view_only(name: str, players: int) -> None:
    """Two states with the same view (hidden faces re-drawn) get the same choice, same rng."""
    rng = random.Random(5)
    state = verso.new_game(players, seed=11)
    for _ in range(6 * players):  # reach a mid-game position with some history
        state = state.apply(rng.choice(state.legal_actions()))
    other = verso.redeal(state, state.current_player, random.Random(99))
    assert other.table.pile != state.table.pile
    view = verso.view(state, state.current_player)
    assert verso.view(other, other.current_player) == view
    bot = make_bot("verso", name, **FAST[name])
    first = bot.choose(view, state.legal_actions(), random.Random(3))
    second = bot.choose(
        verso.view(other, other.current_player), other.legal_actions(), random.Random(3)
    )
    assert str(first) == str(second)


def test_greedy_beats_random() -> None:
    wins = 0
    for seed in range(40):
        state = verso.new_game(2, seed=seed, first_player=seed % 2)
        seats = [make_bot("verso", "greedy"), make_bot("verso", "random")]
        outcome = play_match(verso.GAME, state, seats, random.Random(seed)).outcome
        wins += outcome.winners == (0,)
    assert wins >= 34, f"greedy won only {wins} of 40"


def test_ismcts_rejects_bad_budgets() -> None:
    with pytest.raises(ValueError, match="iterations"):
        make_bot("verso", "ismcts", iterations=0)
    with pytest.raises(ValueError, match="seconds"):
        make_bot("verso", "ismcts", seconds=-1.0)


def test_ismcts_rejects_bad_shortlists() -> None:
    with pytest.raises(ValueError, match="mine and others"):
        make_bot("verso", "ismcts", mine=-1)


def test_ismcts_without_shortlist_plays_legal_games() -> None:
    """``mine=0, others=0``: the tree tries every legal action at every node."""
    state = verso.new_game(3, seed=4)
    seats = [make_bot("verso", "ismcts", iterations=12, depth=4, mine=0, others=0)] * 3
    assert play_match(verso.GAME, state, seats, random.Random(4)).final.is_over
