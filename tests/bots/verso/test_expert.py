"""The solo expert: flat Monte Carlo on the fast model with greedy rollouts."""

from __future__ import annotations

import random

import pytest

from otherside.bots import make_bot, play_match
from otherside.bots.verso.expert import ExpertBot, distinct_actions, rollout
from otherside.bots.verso.greedy import Weights
from otherside.games import verso
from otherside.games.verso.actions import Draw, Flip, Series
from otherside.games.verso.fast import World

FAST = {"worlds": 6, "table_iterations": 8}


def test_rollout_finishes_a_game_and_never_loses_points() -> None:
    state = verso.new_game(1, seed=3)
    world = World.from_state(state)
    score = rollout(world, ExpertBot().weights, honest=True)
    assert score == world.scores[0] >= 0
    assert world.pos == len(state.table.pile)


@pytest.mark.parametrize("seed", range(2))
def test_expert_plays_legal_solo_games(seed: int) -> None:
    # play_match raises IllegalAction as soon as the bot answers outside the legal list.
    state = verso.new_game(1, seed=seed)
    bot = make_bot("verso", "expert", **FAST)
    result = play_match(verso.GAME, state, [bot], random.Random(seed))
    assert result.final.is_over
    assert verso.replay(result.final.to_record()).scores == result.final.scores


def test_expert_decides_from_the_view_only() -> None:
    """Same view (hidden faces and pile re-drawn with redeal), same rng: same choice."""
    rng = random.Random(5)
    bot = make_bot("verso", "expert", **FAST)
    state = verso.new_game(1, seed=11)
    for _ in range(8):  # a mid-game position with a history of draws, flips and turns
        state = state.apply(rng.choice(state.legal_actions()))
    other = verso.redeal(state, 0, random.Random(99))
    assert other.table.pile != state.table.pile
    view = verso.view(state, 0)
    assert verso.view(other, 0) == view
    first = bot.choose(view, state.legal_actions(), random.Random(3))
    second = bot.choose(verso.view(other, 0), other.legal_actions(), random.Random(3))
    assert str(first) == str(second)


def test_expert_keeps_one_series_per_discarded_pair() -> None:
    """V11.4: series discarding the same two cards leave the same tableau; the best is kept."""
    # Drawn: b1, b2, B3 (the opponent takes O4, o5, G6 between, which turn nothing, V16).
    pile = ["b1/G2", "O4/g3", "b2/G3", "o5/B4", "B3/g2", "G6/b5", "g1/O2"]
    state = verso.new_game(1, pile=pile)
    for _ in range(3):
        state = state.apply("draw")
    world = World.from_state(state)
    actions, moves = distinct_actions(world, state.legal_actions())
    series = [str(a) for a in actions if isinstance(a, Series)]
    assert series == ["series blue 1 2", "series blue 1 2 3"]
    assert [m[2] for m in moves if m[0] == 2] == [2, 5]
    assert sorted(moves) == sorted(world.moves())
    assert isinstance(actions[0], Draw) and isinstance(actions[1], Flip)


def test_expert_defers_to_ismcts_at_a_table() -> None:
    state = verso.new_game(2, seed=4)
    seats = [make_bot("verso", "expert", **FAST), make_bot("verso", "greedy")]
    assert play_match(verso.GAME, state, seats, random.Random(4)).final.is_over


def test_expert_rejects_bad_budgets() -> None:
    with pytest.raises(ValueError, match="worlds"):
        ExpertBot(worlds=0)
    with pytest.raises(ValueError, match="seconds"):
        ExpertBot(seconds=0)


@pytest.mark.parametrize("seed", range(4))
def test_honest_rollout_plays_the_greedy_game(seed: int) -> None:
    """The integer port of the greedy reaches the engine greedy's final score on the same pile."""
    state = verso.new_game(1, seed=seed)
    greedy = play_match(verso.GAME, state, [make_bot("verso", "greedy")], random.Random(0))
    assert rollout(World.from_state(state), Weights(), honest=True) == greedy.final.scores[0]
