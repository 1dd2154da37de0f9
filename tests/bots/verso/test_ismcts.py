"""The pieces of the Verso search: the public greedy model, the shortlist and the margin reward."""

from __future__ import annotations

import random

import pytest

from otherside.bots import make_bot
from otherside.bots.ismcts import ISMCTS
from otherside.bots.verso.ismcts import GreedyShortlist, margin_reward, public_greedy
from otherside.games import verso


def _positions(players: int, seed: int) -> list[verso.VersoState]:
    rng = random.Random(seed)
    state = verso.new_game(players, seed=seed)
    out = []
    while not state.is_over:
        out.append(state)
        state = state.apply(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("players", [2, 4])
def test_public_greedy_plays_what_the_greedy_bot_plays(players: int) -> None:
    """In a concrete state the model reads only the view: it never uses the hidden down face."""
    greedy = make_bot("verso", "greedy")
    for state in _positions(players, seed=players):
        view = verso.view(state, state.current_player)
        expected = greedy.choose(view, state.legal_actions(), random.Random(0))
        assert public_greedy(state, random.Random(0)) == expected


def test_public_greedy_is_the_same_in_every_determinization() -> None:
    state = _positions(4, seed=9)[23]
    view = verso.view(state, state.current_player)
    choices = {
        str(public_greedy(verso.determinize(view, random.Random(k)), random.Random(0)))
        for k in range(10)
    }
    assert len(choices) == 1


def test_shortlist_keeps_the_best_ranked_legal_actions() -> None:
    shortlist = GreedyShortlist(mine=3, others=1)
    for state in _positions(4, seed=3):
        legal = state.legal_actions()
        me = state.current_player
        other = (me + 1) % 4
        mine = shortlist(state, me)
        assert set(mine) <= set(legal)
        assert len(mine) == min(3, len(legal))
        assert public_greedy(state, random.Random(0)) in mine
        assert list(shortlist(state, other)) == [public_greedy(state, random.Random(0))]
    with pytest.raises(ValueError, match="at least one"):
        GreedyShortlist(mine=0, others=1)


def test_margin_reward_ranks_by_the_margin_over_the_best_other() -> None:
    final = _positions(4, seed=5)[-1]
    while not final.is_over:
        final = final.apply(final.legal_actions()[-1])
    rewards = margin_reward(4.0)(final)
    scores = final.scores
    best = max(scores)
    for p, s in enumerate(scores):
        if s == best:
            assert rewards[p] >= 0.5
        else:
            assert rewards[p] < 0.5
    order = sorted(range(4), key=lambda p: scores[p])
    assert [rewards[p] for p in order] == sorted(rewards)
    with pytest.raises(ValueError, match="scale"):
        margin_reward(0.0)


def test_the_search_only_answers_from_the_shortlist() -> None:
    state = _positions(4, seed=2)[10]
    legal = state.legal_actions()
    assert len(legal) > 1
    search = ISMCTS(
        verso.determinize,  # type: ignore[arg-type]
        public_greedy,
        margin_reward(4.0),
        iterations=20,
        rollout_depth=4,
        shortlist=lambda s, me: s.legal_actions()[-1:],
    )
    view = verso.view(state, state.current_player)
    assert search.search(view, legal, random.Random(1)) == legal[-1]
