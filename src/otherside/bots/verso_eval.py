"""What the Verso heuristics read from a view, and the greedy policy built on it.

A :class:`Seen` is the part of a position the heuristics use: the mover's tableau as three 7-bit
masks (bit 0 star, bit v value v) and the VP of the card in each of its 21 slots, the top face of
the pile and the faces that may hide behind it, the pile size and the phase. It is read either
from a view (:func:`read_view`, the exact candidates of the V3 deck minus every card seen) or from
a concrete state inside a search (:func:`read_state`, where the sampled down face is the only
candidate). :func:`choose_greedy` scores each legal action by the points it banks now plus a
potential of the tableau it leaves (:func:`potential`), with weights as data (:class:`Weights`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from otherside.core.game import Action
from otherside.games.verso.actions import SERIES_BY_MASK, Draw, Flip, Series
from otherside.games.verso.cards import (
    CARD_OF_FACES,
    DECK,
    DOWN,
    FACE_CARDS,
    UP,
    face_vp,
    parse_face,
)
from otherside.games.verso.state import FINAL, PLAY, VersoState

SQUARE_POINTS = 7


@dataclass(frozen=True)
class Weights:
    """The greedy potential's weights (tuned by simulation, see ``benchmarks/verso_bots.py``).

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


@dataclass(frozen=True)
class Seen:
    """The mover's side of a position, as the heuristics read it."""

    masks: tuple[int, int, int]
    vps: tuple[int, ...]
    square: bool
    top: int | None
    downs: tuple[int, ...]
    pile_size: int
    phase: int


def _slot_vps(up_faces: Sequence[int]) -> tuple[tuple[int, int, int], tuple[int, ...]]:
    masks = [0, 0, 0]
    vps = [0] * 21
    for face in up_faces:
        slot = face % 21
        masks[slot // 7] |= 1 << (slot % 7)
        vps[slot] = face_vp(face)
    return (masks[0], masks[1], masks[2]), tuple(vps)


def _known_cards(view: Mapping[str, Any]) -> set[int]:
    known = set()
    groups = [t["cards"] for t in view["tableaux"]] + [view["discards"]]
    for cards in groups:
        for entry in cards:
            if entry["down"] is not None:
                known.add(CARD_OF_FACES[(parse_face(entry["up"]), parse_face(entry["down"]))])
    return known


def candidate_downs(view: Mapping[str, Any]) -> tuple[int, ...]:
    """The faces that may be under the top card: the other face of every deck card bearing the
    top face that has not been seen whole (both faces) anywhere. One entry per candidate card."""
    if view["top"] is None:
        return ()
    top = parse_face(view["top"])
    known = _known_cards(view)
    downs = []
    for card in FACE_CARDS[top]:
        if card not in known:
            a, b = DECK[card]
            downs.append(b if a == top else a)
    return tuple(downs)


def read_view(view: Mapping[str, Any]) -> Seen:
    """The mover's :class:`Seen` from a view (the mover is ``current_player``)."""
    player = view["current_player"]
    mine = view["tableaux"][player]
    masks, vps = _slot_vps([parse_face(c["up"]) for c in mine["cards"]])
    phase = {"play": PLAY, "final": FINAL}.get(view["phase"], FINAL)
    top = parse_face(view["top"]) if view["top"] is not None else None
    return Seen(masks, vps, mine["square"], top, candidate_downs(view), view["pile_size"], phase)


def read_state(state: VersoState) -> Seen:
    """The mover's :class:`Seen` from a concrete (sampled) state: the down face is known."""
    p = state.turn
    b = p * 3
    masks = (state.masks[b], state.masks[b + 1], state.masks[b + 2])
    vps = tuple(face_vp(UP[oc]) if oc >= 0 else 0 for oc in state.tableaux[p])
    top = state.top
    return Seen(
        masks,
        vps,
        state.has_square(p),
        UP[top] if top is not None else None,
        (DOWN[top],) if top is not None else (),
        state.pile_size,
        state.phase,
    )


def best_series(colour: int, mask: int, vps: Sequence[int]) -> int:
    """Points of the best series of ``colour`` the tableau can bank (0 if none)."""
    best = 0
    for series in SERIES_BY_MASK[colour][mask]:
        points = sum(vps[s] for s in series.slots)
        if points > best:
            best = points
    return best


def potential(
    masks: Sequence[int], vps: Sequence[int], square: bool, pile_size: int, w: Weights
) -> float:
    """What a tableau is worth beyond the points already banked.

    The best series of one colour can always be banked, even as the final series (V14/V17), so it
    counts fully; the other colours' series, the cards themselves and progress to a square count
    less as the pile runs out.
    """
    bests = [best_series(c, masks[c], vps) for c in range(3)]
    top = max(bests)
    future = min(1.0, pile_size / w.horizon)
    if future == 0.0:
        return float(top)
    cards = sum(vps)
    value = top + future * (w.series * (sum(bests) - top) + w.card * cards)
    if not square:
        progress = sum(min(m.bit_count(), 3) for m in masks) / 9
        value += future * w.square * SQUARE_POINTS * progress
    return value


def _after_gain(seen: Seen, face: int, w: Weights) -> float:
    slot = face % 21
    c, bit = slot // 7, 1 << (slot % 7)
    left = seen.pile_size - 1
    if seen.masks[c] & bit:  # V8: the card is discarded, the tableau unchanged
        return potential(seen.masks, seen.vps, seen.square, left, w)
    masks = list(seen.masks)
    masks[c] |= bit
    vps = list(seen.vps)
    vps[slot] = face_vp(face)
    gained = 0
    square = seen.square
    if not square and all(m.bit_count() >= 3 for m in masks):
        gained, square = SQUARE_POINTS, True
    return gained + potential(masks, vps, square, left, w)


def _after_series(seen: Seen, series: Series, w: Weights) -> float:
    points = sum(seen.vps[s] for s in series.slots)
    masks = list(seen.masks)
    vps = list(seen.vps)
    for slot in series.discard_slots:
        masks[slot // 7] &= ~(1 << (slot % 7))
        vps[slot] = 0
    if seen.phase != PLAY:
        return float(points)
    square = seen.square and all(m.bit_count() >= 3 for m in masks)
    return points + potential(masks, vps, square, seen.pile_size, w)


def action_values(seen: Seen, legal: Sequence[Action], w: Weights) -> list[float]:
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


def choose_greedy(seen: Seen, legal: Sequence[Action], w: Weights) -> Action:
    """The legal action of highest greedy value (the first one on ties: deterministic)."""
    values = action_values(seen, legal, w)
    return legal[max(range(len(legal)), key=values.__getitem__)]


def estimated_scores(state: VersoState, w: Weights) -> list[float]:
    """Each player's score plus the potential of their tableau: what a cut-off rollout is worth."""
    out = []
    for p in range(state.players):
        b = p * 3
        masks = (state.masks[b], state.masks[b + 1], state.masks[b + 2])
        vps = [face_vp(UP[oc]) if oc >= 0 else 0 for oc in state.tableaux[p]]
        left = state.pile_size if state.phase == PLAY else 0
        out.append(state.score_list[p] + potential(masks, vps, state.has_square(p), left, w))
    return out
