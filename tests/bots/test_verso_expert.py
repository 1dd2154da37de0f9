"""The solo expert and its fast model of solo Verso (V16–V17)."""

from __future__ import annotations

import random

import pytest

from otherside.bots import make_bot, play_match
from otherside.bots.verso_eval import Weights
from otherside.bots.verso_expert import ExpertBot, distinct_actions
from otherside.bots.verso_world import World, options, play, rollout
from otherside.games import verso
from otherside.games.verso.actions import Draw, Flip, Series

FAST = {"worlds": 6, "table_iterations": 8}


def _same(world: World, state: verso.VersoState) -> None:
    assert world.pos == state.pos
    assert world.score == state.scores[0]
    assert world.square == state.has_square(0)
    assert world.m == list(state.masks)
    assert world.tab == list(state.tableaux[0])


@pytest.mark.parametrize("seed", range(12))
def test_world_follows_the_engine_move_for_move(seed: int) -> None:
    """V7, V8, V11, V12, V16, V17: the integer model and the engine agree after every action."""
    rng = random.Random(seed)
    state = verso.new_game(1, seed=seed)
    world = World.from_state(state)
    while state.phase_name == "play":
        legal = state.legal_actions()
        actions, moves = distinct_actions(world, legal)
        assert sorted(moves) == sorted(options(world))
        k = rng.randrange(len(actions))
        over = play(world, moves[k])
        state = state.apply(actions[k])
        if state.phase_name != "play":  # V17: the model banks the best final series at once
            finals = [a for a in state.legal_actions() if isinstance(a, Series)]
            top = max((state.apply(a).scores[0] for a in finals), default=state.scores[0])
            assert over and world.score == top
            return
        assert not over
        _same(world, state)
    pytest.fail("the game never reached the final series")


def test_rollout_finishes_a_game_and_never_loses_points() -> None:
    state = verso.new_game(1, seed=3)
    world = World.from_state(state)
    score = rollout(world, ExpertBot().weights, honest=True)
    assert score == world.score >= 0
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
