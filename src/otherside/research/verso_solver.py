"""The clairvoyant solver of solo Verso: the best score reachable when every face of the pile is
known (V16–V17). It is the ceiling the solo bots are measured against; its line of play, replayed
next to a bot's game, shows where the bot's points go missing (``benchmarks/verso_solo_gap.py``).

The value is **exact**: a depth-first search over every legal line of play, memoised on the
position, with two reductions that provably keep the optimum:

1. Among series of one colour that discard the same two cards (V11.4), only the one scoring most
   is tried: the tableau left behind is the same, so the rest of the game is the same.
2. A card whose colour will never be turned again (no card left in the pile can make the
   opponent turn that colour, V16) is keyed by its up face only, so positions differing only in
   down faces nobody will ever turn share one entry.

The final series (V17) is a leaf: the best series of the tableau. The search runs on bare
integers packed for its memo, with the engine's rule tables (V11.2's highest card, V16's trigger,
the series of :mod:`otherside.games.verso.fast`), and is checked against the engine
(``tests/research``): its line of play, replayed by the engine, scores its value.

A position is the index of the top card and three integers, so that a move is a handful of bit
operations and the memo key one integer: ``m`` has bit ``slot`` set for every occupied tableau slot
(``colour * 7 + value``, value 0 for the star), ``v`` the same bit when that card shows a 3-VP
face, ``k`` byte ``slot`` holding 1 + the oriented card there. The square flag of V12 needs no
room: it always equals "every colour holds 3+ cards" (it is set or cleared after every change).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from otherside.games.verso.actions import VersoAction
from otherside.games.verso.cards import UP, card_name, parse_card
from otherside.games.verso.fast import SERIES_BEST, SERIES_OPTIONS
from otherside.games.verso.game import new_game
from otherside.games.verso.state import HIGHEST, SOLO_TURNS, SQUARE_POINTS, VersoState

_BIT = tuple(1 << (f % 21) for f in UP)
"""Per oriented card: the bit of the slot its up face fills."""
_BIG = tuple(1 << (f % 21) if f >= 21 else 0 for f in UP)
"""Per oriented card: the same bit when the up face is worth 3 VP, else 0."""
_CODE = tuple((oc + 1) << (8 * (UP[oc] % 21)) for oc in range(180))
"""Per oriented card: its byte in ``K``."""
_THREE = tuple(m.bit_count() >= 3 for m in range(128))
_COLOUR_BYTES = (1 << 56) - 1


def _series_table() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per colour key ``mask | big << 7`` (colour-relative slots): the distinct series as
    ``(points, discarded bits, discarded bytes of K)`` (reduction 1)."""
    return tuple(
        tuple((points, disc, _disc_bytes(disc)) for points, disc in options)
        for options in SERIES_OPTIONS
    )


def _disc_bytes(disc: int) -> int:
    return sum(255 << 8 * slot for slot in range(7) if disc >> slot & 1)


_SERIES = _series_table()


def _full_table() -> bytes:
    """Per 21-bit mask of occupied slots: 1 when every colour holds 3+ cards (V12)."""
    three = bytes(_THREE)
    none = bytes(128)
    return b"".join(
        three if _THREE[high] and _THREE[mid] else none for high in range(128) for mid in range(128)
    )


_FULL = _full_table()


class ClairvoyantSolver:
    """Exact best solo score of one pile (oriented cards, top first), and the line reaching it."""

    def __init__(self, pile: Sequence[int]) -> None:
        self.pile = tuple(pile)
        self.memo: dict[int, int] = {}
        self._value = _searcher(self.pile, self.memo)

    def solve(self) -> int:
        """The best score reachable from the start."""
        known = self.memo.get(0)
        if known is None:
            # the key of the start (pos 0, empty tableau) is 0: no searched position has it
            known = self.memo[0] = self._deep(self._value, 0, 0, 0, 0)
        return known

    def future(self, state: VersoState) -> int:
        """The most points still to come from a solo position of this pile in play or in the
        final series (V17): the best final score is ``state.scores[0] + future(state)``."""
        if state.table.pile != self.pile or state.players != 1:
            raise ValueError("not a solo position of this solver's pile")
        if state.table.allow_duplicate_keep:
            raise ValueError("the solver plays the default rules, not allow_duplicate_keep")
        if state.is_over:
            return 0
        if state.phase_name != "play":  # the final series: its best points
            return max(state.apply(a).scores[0] for a in state.legal_actions()) - state.scores[0]
        m = v = k = 0
        for slot, oc in enumerate(state.tableaux[0]):
            if oc >= 0:
                m |= 1 << slot
                v |= _BIG[oc]
                k |= _CODE[oc]
        return self._deep(self._value, state.pos, m, v, k)

    def line(self) -> list[VersoAction]:
        """A line of play scoring :meth:`solve` on the engine (among equal actions, the first
        legal one)."""
        state = new_game(1, pile=[card_name(oc) for oc in self.pile])
        actions: list[VersoAction] = []
        while not state.is_over:
            best, choice, following = -1, None, state
            for action in state.legal_actions():
                after = state.apply(action)
                total = after.scores[0] + self.future(after)
                if total > best:
                    best, choice, following = total, action, after
            assert choice is not None
            actions.append(choice)
            state = following
        return actions

    @staticmethod
    def _deep(value: Callable[[int, int, int, int], int], *position: int) -> int:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 10_000))
        try:
            return value(*position)
        finally:
            sys.setrecursionlimit(limit)


def _searcher(pile: tuple[int, ...], memo: dict[int, int]) -> Callable[[int, int, int, int], int]:
    """``value(pos, m, v, k)``: the most points from a position of ``pile`` in play, my turn with
    ``pile[pos]`` on top; ``memo`` is filled with the value of every position searched below it.

    The square flag of V12 is not carried: after every action and every turned card it equals
    "every colour holds 3+ cards" of the tableau (``_FULL``), so a position is ``pos, m, v, k``.
    """
    n = len(pile)
    trigger = tuple(SOLO_TURNS[oc] for oc in pile)
    # live[pos]: bit c set when a card at index >= pos can make the opponent turn colour c.
    live = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        live[i] = live[i + 1] | (1 << trigger[i] if trigger[i] >= 0 else 0)
    # The bytes of K kept in the key at each position: those of the live colours (reduction 2).
    key_bytes = tuple(
        sum(_COLOUR_BYTES << (56 * c) for c in range(3) if bits >> c & 1) for bits in live
    )
    get = memo.get
    full_of = _FULL
    best_of = SERIES_BEST
    series_of = _SERIES
    highest = HIGHEST
    bit_of, big_of, code_of = _BIT, _BIG, _CODE

    def value(pos: int, m: int, v: int, k: int) -> int:
        """My turn with ``pile[pos]`` on top, the position not in ``memo`` yet: the most points
        from here to the end."""
        square = full_of[m]
        best = 0
        top = pile[pos]
        # Each option as (points so far, tableau, index of the card the opponent takes next).
        options = []
        for oc in (top, top ^ 1):  # draw, flip
            bit = bit_of[oc]
            if m & bit:
                if oc == top:
                    continue  # V8 decision: draw of a duplicating face is illegal
                options.append((0, m, v, k, pos + 1))  # the flipped face duplicates: discarded
            else:
                m2 = m | bit
                options.append(
                    (
                        SQUARE_POINTS if full_of[m2] and not square else 0,
                        m2,
                        v | big_of[oc],
                        k | code_of[oc],
                        pos + 1,
                    )
                )
        for shift in (0, 7, 14):
            for points, bits, bytes_ in series_of[(m >> shift & 127) | (v >> shift & 127) << 7]:
                # Removing cards never completes a square (V12): no points to check here.
                keep = ~(bits << shift)
                options.append((points, m & keep, v & keep, k & ~(bytes_ << 8 * shift), pos))
        for gained, m2, v2, k2, opp in options:
            if opp < n:
                # V16: the opponent takes pile[opp]; it may make me turn my highest card.
                colour = trigger[opp]
                if colour >= 0 and (cm := m2 >> 7 * colour & 127):
                    square2 = full_of[m2]
                    slot = 7 * colour + highest[cm]
                    oc = ((k2 >> 8 * slot) & 255) - 1 ^ 1
                    keep = ~(1 << slot)
                    m2 &= keep
                    v2 &= keep
                    k2 &= ~(255 << 8 * slot)
                    if not m2 & bit_of[oc]:  # else V8: the turned card is discarded
                        m2 |= bit_of[oc]
                        v2 |= big_of[oc]
                        k2 |= code_of[oc]
                    if full_of[m2] and not square2:
                        gained += SQUARE_POINTS
                opp += 1
            if opp < n:
                key = ((k2 & key_bytes[opp]) << 42 | v2 << 21 | m2) << 7 | opp
                known = get(key)
                if known is None:
                    known = memo[key] = value(opp, m2, v2, k2)
                gained += known
            else:  # V17: the pile is empty, the final series
                a = best_of[(m2 & 127) | (v2 & 127) << 7]
                b = best_of[(m2 >> 7 & 127) | (v2 >> 7 & 127) << 7]
                c = best_of[(m2 >> 14) | (v2 >> 14) << 7]
                gained += (a if a >= c else c) if a >= b else (b if b >= c else c)
            if gained > best:
                best = gained
        return best

    return value


def clairvoyant_score(pile: Sequence[int] | Sequence[str]) -> int:
    """The best solo score reachable on ``pile`` knowing every face (exact).

    Args:
        pile: oriented cards (``state.table.pile``) or card notations, top first.

    >>> clairvoyant_score(["B3/g4", "G1/o2", "b4/G5"])  # B3 then b4: the final series 3 4
    4
    """
    cards = [parse_card(c) if isinstance(c, str) else c for c in pile]
    return ClairvoyantSolver(cards).solve()
