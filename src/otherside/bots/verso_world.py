"""A fast integer model of solo Verso (V16–V17) and the greedy rollout policy on it.

:class:`World` is one concrete solo position (a determinization of a view): the pile, the tableau
as three 7-bit masks (bit 0 the star, bit v value v) plus the masks of its 3-VP cards, the square
flag, the score, and the cards seen whole. Its methods are the engine's rules re-implemented on
bare integers (checked against the engine in ``tests/bots``), about ten times faster than
:class:`~otherside.games.verso.state.VersoState`, so that a decision can afford thousands of
complete playouts.

Series are looked up, not enumerated: per colour, the key ``mask | big << 7`` indexes the best
series' points and, for every pair of cards a series would discard (V11.4), the best points of a
series discarding them (series that leave the same tableau differ only in their points).

The rollout policy (:func:`rollout`) is the greedy of :mod:`otherside.bots.verso_eval` on these
integers: each action is worth the points it banks plus the potential of the tableau it leaves
(:func:`potential`: the same formula and :class:`~otherside.bots.verso_eval.Weights`), so with
``honest`` it plays the greedy's games, about ten times faster.
"""

from __future__ import annotations

from collections.abc import Sequence

from otherside.bots.verso_eval import Weights
from otherside.games.verso.actions import SERIES_BY_MASK
from otherside.games.verso.cards import DOWN, FACE_CARDS, UP, orient
from otherside.games.verso.state import VersoState

SQUARE_POINTS = 7
_UP_SLOT = tuple(f % 21 for f in UP)
BIG_UP = tuple(f >= 21 for f in UP)
_TRIGGER = tuple(
    (f % 21) // 7 if (u % 7) and (f % 7) and (f % 7) > (u % 7) else -1
    for u, f in zip(UP, DOWN, strict=True)
)


def _series_table() -> tuple[list[int], list[tuple[tuple[int, int], ...]]]:
    """Per colour-independent key ``mask | big << 7`` (big: the 3-VP slots, a subset of mask):
    the best series' points, and for every pair of discarded slots the best points (V10, V11)."""
    best = [0] * (1 << 14)
    options: list[tuple[tuple[int, int], ...]] = [()] * (1 << 14)
    for m in range(128):
        series = SERIES_BY_MASK[0][m]
        sub = m & ~1  # stars are 1 VP: never big
        b = sub
        while True:
            by_discard: dict[int, int] = {}
            for s in series:
                points = sum(3 if b >> slot & 1 else 1 for slot in s.slots)
                disc = (1 << s.discard_slots[0]) | (1 << s.discard_slots[1])
                if points > by_discard.get(disc, 0):
                    by_discard[disc] = points
            key = m | b << 7
            best[key] = max(by_discard.values(), default=0)
            options[key] = tuple((p, d) for d, p in by_discard.items())
            if b == 0:
                break
            b = (b - 1) & sub
    return best, options


_BEST, _OPTIONS = _series_table()


def _flip_table() -> tuple[tuple[int, ...], ...]:
    """Per face: the oriented cards that show it, each turned over (what a flip would give)."""
    out = []
    for face in range(42):
        out.append(tuple(orient(c, face) ^ 1 for c in FACE_CARDS[face]))
    return tuple(out)


_FLIPPED = _flip_table()


class World:
    """A concrete solo position on bare integers: the pile, the tableau, the score."""

    __slots__ = ("b", "known", "m", "pile", "pos", "score", "square", "tab")

    def __init__(
        self,
        pile: tuple[int, ...],
        pos: int,
        tab: list[int],
        m: list[int],
        b: list[int],
        square: bool,
        score: int,
        known: int,
    ) -> None:
        self.pile = pile
        self.pos = pos
        self.tab = tab
        self.m = m
        self.b = b
        self.square = square
        self.score = score
        self.known = known

    @classmethod
    def from_state(cls, state: VersoState) -> World:
        tab = list(state.tableaux[0])
        b = [0, 0, 0]
        for slot, oc in enumerate(tab):
            if oc >= 0 and BIG_UP[oc]:
                b[slot // 7] |= 1 << (slot % 7)
        return cls(
            state.table.pile,
            state.pos,
            tab,
            list(state.masks[:3]),
            b,
            state.has_square(0),
            state.score_list[0],
            state.shown,
        )

    def copy(self) -> World:
        return World(
            self.pile,
            self.pos,
            list(self.tab),
            list(self.m),
            list(self.b),
            self.square,
            self.score,
            self.known,
        )

    # --- rules (the engine's, on integers) ---
    def gain(self, oc: int) -> None:
        slot = _UP_SLOT[oc]
        c, bit = slot // 7, 1 << (slot % 7)
        if self.m[c] & bit:
            return
        self.tab[slot] = oc
        self.m[c] |= bit
        if BIG_UP[oc]:
            self.b[c] |= bit

    def check_square(self) -> None:
        m = self.m
        full = m[0].bit_count() >= 3 and m[1].bit_count() >= 3 and m[2].bit_count() >= 3
        if full and not self.square:
            self.square = True
            self.score += SQUARE_POINTS
        elif self.square and not full:
            self.square = False

    def take(self, flip: bool) -> None:
        oc = self.pile[self.pos]
        self.pos += 1
        if flip:
            oc ^= 1
            self.known |= 1 << (oc >> 1)
        self.gain(oc)
        self.check_square()

    def bank(self, colour: int, points: int, disc: int) -> None:
        self.score += points
        self.m[colour] &= ~disc
        self.b[colour] &= ~disc
        for v in range(7):
            if disc >> v & 1:
                self.tab[colour * 7 + v] = -1
        self.check_square()

    def opponent(self) -> None:
        oc = self.pile[self.pos]
        self.pos += 1
        self.known |= 1 << (oc >> 1)
        c = _TRIGGER[oc]
        if c < 0:
            return
        mask = self.m[c]
        if not mask:
            return
        numbered = mask >> 1
        v = numbered.bit_length() if numbered else 0
        slot = c * 7 + v
        turned = self.tab[slot] ^ 1
        self.tab[slot] = -1
        self.m[c] &= ~(1 << v)
        self.b[c] &= ~(1 << v)
        self.known |= 1 << (turned >> 1)
        self.gain(turned)
        self.check_square()

    def final_points(self) -> int:
        m, b = self.m, self.b
        return max(_BEST[m[0] | b[0] << 7], _BEST[m[1] | b[1] << 7], _BEST[m[2] | b[2] << 7])

    def after_action(self) -> bool:
        """The opponent's card if the pile allows, then the final series if it is empty.
        Returns True when the game is over."""
        n = len(self.pile)
        if self.pos < n:
            self.opponent()
        if self.pos >= n:
            self.score += self.final_points()
            return True
        return False


# An action on a World: (kind, colour, points, discard bits); kind 0 draw, 1 flip, 2 series.
WAction = tuple[int, int, int, int]


def _column_tables() -> tuple[list[int], list[int], list[int]]:
    """Per colour key ``mask | big << 7``: the cards, the VP they show, and min(cards, 3)."""
    count, vp, three = [0] * (1 << 14), [0] * (1 << 14), [0] * (1 << 14)
    for key in range(1 << 14):
        n = (key & 127).bit_count()
        count[key], vp[key], three[key] = n, n + 2 * (key >> 7).bit_count(), min(n, 3)
    return count, vp, three


_COUNT, _VP, _THREE = _column_tables()
_GAIN = tuple(
    (s // 7, 1 << (s % 7), (1 << (s % 7)) * (129 if big else 1))
    for s, big in zip(_UP_SLOT, BIG_UP, strict=True)
)
"""Per oriented card: its colour, its bit in that colour's key, and the bits it adds to the key."""


def potential(k0: int, k1: int, k2: int, square: bool, left: int, w: Weights) -> float:
    """What the tableau is worth beyond the points already banked, with ``left`` cards in the
    pile: :func:`otherside.bots.verso_eval.potential` (the same arithmetic) on the three colour
    keys ``mask | big << 7``, by table lookups."""
    b0, b1, b2 = _BEST[k0], _BEST[k1], _BEST[k2]
    top = max(b0, b1, b2)
    if left <= 0:
        return float(top)
    future = min(1.0, left / w.horizon)
    vp = _VP[k0] + _VP[k1] + _VP[k2]
    value = top + future * (w.series * (b0 + b1 + b2 - top) + w.card * vp)
    if not square:
        progress = _THREE[k0] + _THREE[k1] + _THREE[k2]
        value += future * w.square * SQUARE_POINTS * progress / 9
    return value


def full(k0: int, k1: int, k2: int) -> bool:
    """Whether colour keys hold at least 3 cards of each colour (a square, V12)."""
    return _COUNT[k0] >= 3 and _COUNT[k1] >= 3 and _COUNT[k2] >= 3


def gain(keys: Sequence[int], square: bool, face: int) -> tuple[int, int, int, bool, int]:
    """Colour keys, square flag and points after gaining a card showing ``face`` (V8, V12)."""
    slot = face % 21
    c, bit = slot // 7, 1 << (slot % 7)
    k = [keys[0], keys[1], keys[2]]
    if k[c] & bit:  # a duplicate is discarded (V8)
        return k[0], k[1], k[2], square, 0
    k[c] |= bit * 129 if face >= 21 else bit
    if not square and full(k[0], k[1], k[2]):
        return k[0], k[1], k[2], True, SQUARE_POINTS
    return k[0], k[1], k[2], square, 0


def banked(keys: Sequence[int], square: bool, colour: int, disc: int) -> tuple[int, int, int, bool]:
    """Colour keys and square flag after banking a series that discards ``disc`` (V11, V12)."""
    k = [keys[0], keys[1], keys[2]]
    k[colour] &= ~(disc | disc << 7)
    kept = square and full(k[0], k[1], k[2])
    return k[0], k[1], k[2], kept


def _gain_value(keys: tuple[int, int, int], square: bool, oc: int, left: int, w: Weights) -> float:
    """Points and potential after gaining ``oc`` (V8: a duplicate is discarded, V12: square)."""
    c, bit, add = _GAIN[oc]
    if keys[c] & bit:
        return potential(keys[0], keys[1], keys[2], square, left, w)
    ks = list(keys)
    ks[c] |= add
    gained = 0
    if not square and _COUNT[ks[0]] >= 3 and _COUNT[ks[1]] >= 3 and _COUNT[ks[2]] >= 3:
        gained, square = SQUARE_POINTS, True  # full(*ks), inlined: the rollouts' hot path
    return gained + potential(ks[0], ks[1], ks[2], square, left, w)


def options(wd: World) -> list[WAction]:
    """Distinct actions of a world in play: draw (if legal), flip, one series per discard."""
    top = wd.pile[wd.pos]
    slot = _UP_SLOT[top]
    out: list[WAction] = []
    if not wd.m[slot // 7] >> (slot % 7) & 1:
        out.append((0, 0, 0, 0))
    out.append((1, 0, 0, 0))
    for c in range(3):
        for points, disc in _OPTIONS[wd.m[c] | wd.b[c] << 7]:
            out.append((2, c, points, disc))
    return out


def values(wd: World, acts: Sequence[WAction], w: Weights, honest: bool) -> list[float]:
    """The greedy value of each action: points now plus the potential left."""
    left = len(wd.pile) - wd.pos
    top = wd.pile[wd.pos]
    m, b, square = wd.m, wd.b, wd.square
    keys = (m[0] | b[0] << 7, m[1] | b[1] << 7, m[2] | b[2] << 7)
    out = []
    for kind, c, points, disc in acts:
        if kind == 0:
            out.append(_gain_value(keys, square, top, left - 1, w))
        elif kind == 1:
            if honest:
                known = wd.known
                cands = [oc for oc in _FLIPPED[UP[top]] if not known >> (oc >> 1) & 1]
                if not cands:
                    cands = [top ^ 1]
                total = sum(_gain_value(keys, square, oc, left - 1, w) for oc in cands)
                out.append(total / len(cands))
            else:
                out.append(_gain_value(keys, square, top ^ 1, left - 1, w))
        else:
            ks = list(keys)  # banked(keys, square, c, disc), inlined: the rollouts' hot path
            ks[c] &= ~(disc | disc << 7)
            kept = square and _COUNT[ks[0]] >= 3 and _COUNT[ks[1]] >= 3 and _COUNT[ks[2]] >= 3
            out.append(points + potential(ks[0], ks[1], ks[2], kept, left, w))
    return out


def play(wd: World, act: WAction) -> bool:
    """Apply one action and the opponent's card; True when the game is over."""
    kind, c, points, disc = act
    if kind == 2:
        wd.bank(c, points, disc)
    else:
        wd.take(kind == 1)
    return wd.after_action()


def rollout(wd: World, w: Weights, honest: bool) -> int:
    """Finish the game with the greedy policy (changes ``wd``); the final score."""
    while True:
        acts = options(wd)
        vals = values(wd, acts, w, honest)
        best = max(range(len(acts)), key=vals.__getitem__)
        if play(wd, acts[best]):
            return wd.score
