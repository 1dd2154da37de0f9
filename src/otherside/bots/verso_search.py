"""The Verso pieces of the ``ismcts`` bot: what it plays in rollouts, which actions its tree
tries, and how it judges the position where a rollout stops.

Verso's views are the same for every seat (V19), so the greedy heuristic's choice is a function of
public information only. :func:`public_seen` reads a concrete (sampled) state the way
:func:`~otherside.bots.verso_eval.read_view` reads the real view: the face under the top card is
one of the exact candidates (deck cards bearing the top face, minus every card seen whole), not
the face the determinization happened to draw. A rollout that plays :func:`public_greedy` therefore
plays what a greedy player would play in that position, instead of a greedy player who can see
through the pile, and the search's ranking of actions (:func:`GreedyShortlist`) is the same in
every determinization of one view.

The reward is the target of a table (winning), smoothed: a logistic of the margin over the best
other player (:func:`margin_reward`), so that a search among lost lines still prefers the closer
ones and among won lines the safer ones.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from otherside.bots.verso_eval import Seen, Weights, action_values, estimated_scores
from otherside.core.game import Action, State
from otherside.games.verso.cards import DECK, FACE_CARDS, UP
from otherside.games.verso.state import UP_VP, VersoState

GREEDY_WEIGHTS = Weights()
_SLOT_VP = (*UP_VP, 0)
"""The VP an oriented card shows; index -1 (an empty tableau slot) gives 0."""


def public_seen(state: VersoState) -> Seen:
    """The mover's :class:`Seen` in a concrete state, with only public knowledge of the top card.

    The candidates for the down face are the other faces of the deck cards bearing the top face
    that were never shown whole: exactly what :func:`~otherside.bots.verso_eval.read_view` finds
    in the view of this state.
    """
    p = state.turn
    b = p * 3
    masks = (state.masks[b], state.masks[b + 1], state.masks[b + 2])
    vps = tuple(map(_SLOT_VP.__getitem__, state.tableaux[p]))
    top = state.top
    downs: tuple[int, ...] = ()
    up = None
    if top is not None:
        up = UP[top]
        shown = state.shown
        downs = tuple(
            DECK[c][1] if DECK[c][0] == up else DECK[c][0]
            for c in FACE_CARDS[up]
            if not shown >> c & 1
        )
    return Seen(masks, vps, state.has_square(p), up, downs, state.pile_size, state.phase)


_VALUES: dict[tuple[Seen, int], list[float]] = {}
_VALUES_LIMIT = 200_000


def public_values(state: VersoState) -> list[float]:
    """The greedy value of each legal action of ``state``, read from public knowledge only.

    Memoised: a search meets the same public positions over and over (every determinization of
    one view agrees on them), and the values are a pure function of :func:`public_seen` and the
    legal list, which the seen position and the list's length determine.
    """
    legal = state.legal_actions()
    seen = public_seen(state)
    key = (seen, len(legal))
    values = _VALUES.get(key)
    if values is None:
        if len(_VALUES) >= _VALUES_LIMIT:
            _VALUES.clear()
        values = _VALUES[key] = action_values(seen, legal, GREEDY_WEIGHTS)
    return values


def public_greedy(state: State, rng: random.Random) -> Action:
    """The greedy bot's choice in a sampled state (it reads only what its view would show).

    The first legal action of the highest value, as in
    :func:`~otherside.bots.verso_eval.choose_greedy`.
    """
    assert isinstance(state, VersoState)
    values = public_values(state)
    return state.legal_actions()[max(range(len(values)), key=values.__getitem__)]


class GreedyShortlist:
    """The actions a tree node tries: the best few by the greedy ranking (progressive pruning).

    Args:
        mine: how many of the best-ranked actions to try at the searcher's own nodes.
        others: how many at the other players' nodes (1: they are modelled as the greedy player).
    """

    def __init__(self, mine: int, others: int) -> None:
        if mine < 1 or others < 1:
            raise ValueError(f"shortlists need at least one action, not {mine} and {others}")
        self.mine = mine
        self.others = others

    def __call__(self, state: State, searcher: int) -> Sequence[Action]:
        assert isinstance(state, VersoState)
        legal = state.legal_actions()
        keep = self.mine if state.turn == searcher else self.others
        if len(legal) <= keep:
            return legal
        values = public_values(state)
        # Stable order of equal values: the first legal action wins, as in choose_greedy.
        best = sorted(range(len(legal)), key=lambda i: -values[i])[:keep]
        return [legal[i] for i in sorted(best)]


def margin_reward(scale: float) -> Callable[[State], list[float]]:
    """Rewards in (0, 1): a logistic of each player's margin over the best other player.

    A rollout cut off before the end is judged on the estimated scores (score plus tableau
    potential, :func:`~otherside.bots.verso_eval.estimated_scores`).

    Args:
        scale: points of margin that move the reward from 1/2 to about 3/4.
    """
    if scale <= 0:
        raise ValueError(f"the margin scale must be positive, not {scale}")

    def reward(state: State) -> list[float]:
        assert isinstance(state, VersoState)
        scores: Sequence[float] = state.scores
        if not state.is_over:
            scores = estimated_scores(state, GREEDY_WEIGHTS)
        order = sorted(scores, reverse=True)
        first, second = order[0], order[1] if len(order) > 1 else 0.0
        out = []
        for s in scores:
            margin = s - (second if s == first else first)
            out.append(1.0 / (1.0 + math.exp(-margin / scale)))
        return out

    return reward
