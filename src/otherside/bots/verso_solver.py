"""The clairvoyant solver of solo Verso: the best score reachable when every face of the pile is
known (V16–V17). It is the ceiling the solo bots are measured against.

The value is **exact**: a depth-first search over every legal line of play, memoised on the
position, with two reductions that provably keep the optimum:

1. Among series of one colour that discard the same two cards (V11.4), only the one scoring most
   is tried: the tableau left behind is the same, so the rest of the game is the same.
2. A card whose colour will never be turned again (no card left in the pile can make the
   opponent turn that colour, V16) is keyed by its up face only, so positions differing only in
   down faces nobody will ever turn share one entry.

The final series (V17) is a leaf: the best series of the tableau. The rules are re-implemented
here on bare integers for speed and checked against the engine (``tests/bots``) move for move.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from otherside.games.verso.actions import SERIES_BY_MASK
from otherside.games.verso.cards import DOWN, UP, parse_card

SQUARE_POINTS = 7
_UP_SLOT = tuple(f % 21 for f in UP)
_UP_VP = tuple(3 if f >= 21 else 1 for f in UP)
_TRIGGER = tuple(
    (f % 21) // 7 if (u % 7) and (f % 7) and (f % 7) > (u % 7) else -1
    for u, f in zip(UP, DOWN, strict=True)
)
"""Per oriented card: the colour the solo opponent makes you turn when it takes it, or -1."""

# Series per (colour, mask) reduced to the best one per pair of discarded slots; each entry is
# (slots, discard_slots).
_SERIES: tuple[tuple[tuple[tuple[int, ...], tuple[int, int]], ...], ...] = tuple(
    tuple((s.slots, s.discard_slots) for s in SERIES_BY_MASK[c][m])
    for c in range(3)
    for m in range(128)
)


class _Position:
    __slots__ = ("masks", "square", "tab")

    def __init__(self, tab: list[int], masks: list[int], square: bool) -> None:
        self.tab = tab
        self.masks = masks
        self.square = square


def _gain(p: _Position, oc: int) -> None:
    slot = _UP_SLOT[oc]
    c, bit = slot // 7, 1 << (slot % 7)
    if p.masks[c] & bit:
        return  # V8: a duplicate is discarded
    p.tab[slot] = oc
    p.masks[c] |= bit


def _square(p: _Position) -> int:
    """V12: 7 points when the square is made; the flag clears once it is broken."""
    full = all(m.bit_count() >= 3 for m in p.masks)
    if full and not p.square:
        p.square = True
        return SQUARE_POINTS
    if p.square and not full:
        p.square = False
    return 0


def _turn_highest(p: _Position, colour: int) -> int:
    """V11.2 by the solo opponent: returns the square points this may score."""
    mask = p.masks[colour]
    if not mask:
        return 0
    numbered = mask >> 1
    slot = colour * 7 + (numbered.bit_length() if numbered else 0)
    oc = p.tab[slot]
    p.tab[slot] = -1
    p.masks[colour] &= ~(1 << (slot % 7))
    _gain(p, oc ^ 1)
    return _square(p)


class ClairvoyantSolver:
    """Exact best solo score of one pile (oriented cards, top first)."""

    def __init__(self, pile: Sequence[int]) -> None:
        self.pile = tuple(pile)
        n = len(self.pile)
        # live[pos]: bit c set when a card at index >= pos can make the opponent turn colour c.
        live = [0] * (n + 1)
        for i in range(n - 1, -1, -1):
            t = _TRIGGER[self.pile[i]]
            live[i] = live[i + 1] | (1 << t if t >= 0 else 0)
        self.live = live
        self.memo: dict[bytes, int] = {}

    def solve(self) -> int:
        """The best score reachable from the start."""
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 10_000))
        try:
            return self._value(0, [-1] * 21, [0, 0, 0], False)
        finally:
            sys.setrecursionlimit(limit)

    def _key(self, pos: int, tab: list[int], square: bool) -> bytes:
        # Bytes keep the memo small (millions of positions on a 35-card pile): a slot is 0 when
        # empty, 1 + the oriented card when its colour can still be turned, else 200 + its VP.
        live = self.live[pos]
        key = [
            0 if oc < 0 else oc + 1 if live >> (slot // 7) & 1 else 200 + _UP_VP[oc]
            for slot, oc in enumerate(tab)
        ]
        return bytes((pos, square, *key))

    def _final(self, tab: list[int], masks: list[int]) -> int:
        best = 0
        for c in range(3):
            for slots, _ in _SERIES[c * 128 + masks[c]]:
                points = sum(_UP_VP[tab[s]] for s in slots)
                if points > best:
                    best = points
        return best

    def _after_turn(self, pos: int, p: _Position) -> int:
        """The opponent's card (V16), then the rest of the game; points from here on."""
        n = len(self.pile)
        if pos == n:
            return self._final(p.tab, p.masks)
        oc = self.pile[pos]
        gained = 0
        colour = _TRIGGER[oc]
        if colour >= 0:
            gained = _turn_highest(p, colour)
        pos += 1
        if pos == n:
            return gained + self._final(p.tab, p.masks)
        return gained + self._value(pos, p.tab, p.masks, p.square)

    def _value(self, pos: int, tab: list[int], masks: list[int], square: bool) -> int:
        key = self._key(pos, tab, square)
        known = self.memo.get(key)
        if known is not None:
            return known
        best = 0
        top = self.pile[pos]
        for oc in (top, top ^ 1):  # draw, flip
            slot = _UP_SLOT[oc]
            if oc == top and masks[slot // 7] >> (slot % 7) & 1:
                continue  # V8 decision: draw of a duplicating face is illegal
            p = _Position(list(tab), list(masks), square)
            _gain(p, oc)
            gained = _square(p)
            value = gained + self._after_turn(pos + 1, p)
            if value > best:
                best = value
        for c in range(3):
            by_discard: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
            for slots, discard in _SERIES[c * 128 + masks[c]]:
                points = sum(_UP_VP[tab[s]] for s in slots)
                if discard not in by_discard or points > by_discard[discard][0]:
                    by_discard[discard] = (points, slots)
            for discard, (points, _) in by_discard.items():
                p = _Position(list(tab), list(masks), square)
                for slot in discard:
                    p.tab[slot] = -1
                    p.masks[slot // 7] &= ~(1 << (slot % 7))
                gained = points + _square(p)
                value = gained + self._after_turn(pos, p)
                if value > best:
                    best = value
        self.memo[key] = best
        return best


def clairvoyant_score(pile: Sequence[int] | Sequence[str]) -> int:
    """The best solo score reachable on ``pile`` knowing every face (exact).

    Args:
        pile: oriented cards (``state.table.pile``) or card notations, top first.

    >>> clairvoyant_score(["B3/g4", "G1/o2", "b4/G5"])  # B3 then b4: the final series 3 4
    4
    """
    cards = [parse_card(c) if isinstance(c, str) else c for c in pile]
    return ClairvoyantSolver(cards).solve()
