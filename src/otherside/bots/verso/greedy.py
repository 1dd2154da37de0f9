"""The greedy Verso player and the tableau potential every Verso bot judges positions with.

A :class:`Seen` is the part of a position the heuristic reads: the mover's three colour keys (see
:mod:`otherside.games.verso.fast`), the square flag, the top face of the pile and the faces that
may hide behind it (:func:`~otherside.games.verso.fast.hidden_candidates`), the pile size and the
phase. :func:`action_values` scores each legal action by the points it banks now plus the
:func:`potential` of the tableau it leaves, with weights as data (:class:`Weights`); the greedy
bot plays the best (:func:`choose_greedy`). The ``ismcts`` bot's rollouts and shortlists, the
``expert``'s rollouts and the ``expectimax``'s learned value all start from this potential.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from otherside.games.verso.actions import Draw, Flip, Series, VersoAction
from otherside.games.verso.cards import UP, parse_face
from otherside.games.verso.fast import (
    KEY_THREE,
    KEY_VP,
    SERIES_BEST,
    banked,
    gain,
    hidden_candidates,
    state_keys,
)
from otherside.games.verso.schema import VersoView
from otherside.games.verso.state import FINAL, PLAY, SQUARE_POINTS, VersoState
from otherside.games.verso.view import shown_cards

Keys = tuple[int, int, int]


@dataclass(frozen=True)
class Weights:
    """The potential's weights (tuned by simulation, see ``benchmarks/verso_bots.py``).

    Attributes:
        series: worth of the best series of each colour beyond the best one, per point.
        card: worth of a tableau card, per VP it shows.
        square: worth of progress to a square, as a share of its 7 points.
        horizon: cards left in the pile at which the future terms reach full weight.
    """

    series: float = 0.73
    card: float = 0.98
    square: float = 0.03
    horizon: float = 3.5


GREEDY_WEIGHTS = Weights()


def potential(k0: int, k1: int, k2: int, square: bool, left: int, w: Weights) -> float:
    """What a tableau (three colour keys) is worth beyond the points already banked, with
    ``left`` cards in the pile.

    The best series of one colour can always be banked, even as the final series (V14/V17), so it
    counts fully; the other colours' series, the cards themselves and progress to a square count
    less as the pile runs out.
    """
    b0, b1, b2 = SERIES_BEST[k0], SERIES_BEST[k1], SERIES_BEST[k2]
    top = max(b0, b1, b2)
    if left <= 0:
        return float(top)
    future = min(1.0, left / w.horizon)
    vp = KEY_VP[k0] + KEY_VP[k1] + KEY_VP[k2]
    value = top + future * (w.series * (b0 + b1 + b2 - top) + w.card * vp)
    if not square:
        progress = KEY_THREE[k0] + KEY_THREE[k1] + KEY_THREE[k2]
        value += future * w.square * SQUARE_POINTS * progress / 9
    return value


@dataclass(frozen=True)
class Seen:
    """The mover's side of a position, as the heuristic reads it."""

    keys: Keys
    square: bool
    top: int | None
    downs: tuple[int, ...]
    pile_size: int
    phase: int


def read_view(view: VersoView) -> Seen:
    """The mover's :class:`Seen` from a view (the mover is ``current_player``)."""
    player = view["current_player"]
    assert player is not None, "a finished game has no mover"
    mine = view["tableaux"][player]
    keys = [0, 0, 0]
    for card in mine["cards"]:
        face = parse_face(card["up"])
        slot = face % 21
        keys[slot // 7] |= (1 << slot % 7) * (129 if face >= 21 else 1)
    phase = {"play": PLAY, "final": FINAL}.get(view["phase"], FINAL)
    top, downs = None, tuple[int, ...]()
    if view["top"] is not None:
        top = parse_face(view["top"])
        downs = tuple(UP[oc] for oc in hidden_candidates(top, shown_cards(view)))
    return Seen((keys[0], keys[1], keys[2]), mine["square"], top, downs, view["pile_size"], phase)


def public_seen(state: VersoState) -> Seen:
    """The mover's :class:`Seen` in a concrete state, with only public knowledge of the top card:
    exactly what :func:`read_view` finds in the view of this state."""
    p = state.turn
    top = state.top
    up, downs = None, tuple[int, ...]()
    if top is not None:
        up = UP[top]
        downs = tuple(UP[oc] for oc in hidden_candidates(up, state.shown))
    return Seen(state_keys(state, p), state.has_square(p), up, downs, state.pile_size, state.phase)


def _after_gain(seen: Seen, face: int, w: Weights) -> float:
    k0, k1, k2, square, points = gain(seen.keys, seen.square, face)
    return points + potential(k0, k1, k2, square, seen.pile_size - 1, w)


def _after_series(seen: Seen, series: Series, w: Weights) -> float:
    key = seen.keys[series.colour]
    points = sum(3 if key >> (7 + s % 7) & 1 else 1 for s in series.slots)
    if seen.phase != PLAY:
        return float(points)
    disc = (1 << series.discard_slots[0] % 7) | (1 << series.discard_slots[1] % 7)
    k0, k1, k2, square = banked(seen.keys, seen.square, series.colour, disc)
    return points + potential(k0, k1, k2, square, seen.pile_size, w)


def action_values(seen: Seen, legal: Sequence[VersoAction], w: Weights) -> list[float]:
    """The greedy value of each legal action (points now plus the potential left)."""
    values = []
    for action in legal:
        if isinstance(action, Series):
            values.append(_after_series(seen, action, w))
        elif isinstance(action, Draw):
            assert seen.top is not None
            values.append(_after_gain(seen, seen.top, w))
        elif isinstance(action, Flip):
            downs = seen.downs
            values.append(sum(_after_gain(seen, f, w) for f in downs) / len(downs))
        else:  # pass: nothing more is banked
            values.append(0.0)
    return values


def choose_greedy(seen: Seen, legal: Sequence[VersoAction], w: Weights) -> VersoAction:
    """The legal action of highest greedy value (the first one on ties: deterministic)."""
    values = action_values(seen, legal, w)
    return legal[max(range(len(legal)), key=values.__getitem__)]


def estimated_scores(state: VersoState, w: Weights) -> list[float]:
    """Each player's score plus the potential of their tableau: what a cut-off rollout is worth."""
    left = state.pile_size if state.phase == PLAY else 0
    return [
        state.score_list[p] + potential(*state_keys(state, p), state.has_square(p), left, w)
        for p in range(state.players)
    ]


class GreedyBot:
    """One-action lookahead with the tableau potential and the exact hidden-face candidates."""

    name = "greedy"

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights or GREEDY_WEIGHTS

    def choose(
        self, view: VersoView, legal: Sequence[VersoAction], rng: random.Random
    ) -> VersoAction:
        return choose_greedy(read_view(view), legal, self.weights)
