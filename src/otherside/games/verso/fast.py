"""The fast model of Verso on bare integers, for search: one representation beside the engine.

:class:`~otherside.games.verso.state.VersoState` is immutable and builds a new object per
action, which is what a table, a record and a view need. A search that plays thousands of games
per decision needs less: :class:`World` is one concrete position (the pile, every tableau, the
scores, the square flags, the cards seen whole) that changes in place, about ten times faster. It
plays the engine's rules with the engine's tables (:data:`~otherside.games.verso.state.HIGHEST`
for V11.2, :data:`~otherside.games.verso.state.SOLO_TURNS` for V16,
:data:`~otherside.games.verso.state.SQUARE_POINTS` for V12, the series of
:data:`~otherside.games.verso.actions.SERIES_BY_MASK`) and is checked against the engine on random
positions of 1-6 players (``tests/games/verso/test_fast.py``): every legal action, every
resulting score, tableau and square flag, the solo opponent included.

A tableau colour is one integer, its *key* ``mask | big << 7``: bit ``v`` of the mask is the card
of value ``v`` (bit 0 the star), bit ``v`` of ``big`` is set when that card shows its 3-VP face.
Everything the bots ask of a colour is a lookup by key: the best series (:data:`SERIES_BEST`),
the distinct series to bank (:data:`SERIES_OPTIONS`: series that discard the same two cards leave
the same tableau, so only the best-scoring one of them counts), the cards and the VP it holds.

A move is ``(kind, colour, points, discard bits)``: kind 0 draw, 1 flip, 2 series.

>>> from otherside.games.verso import new_game
>>> world = World.from_state(new_game(1, pile=["B3/g4", "G1/o2", "b4/G5"]))
>>> world.step((0, 0, 0, 0)), world.scores, SERIES_BEST[world.keys[0]]
(False, [0], 0)
>>> world.step((1, 0, 0, 0)), world.scores  # flip b4 to G5; the pile is empty: no final series
(True, [0])
"""

from __future__ import annotations

from collections.abc import Sequence

from otherside.games.verso.actions import SERIES_BY_MASK, Series
from otherside.games.verso.cards import FACE_CARDS, UP, orient
from otherside.games.verso.state import (
    HIGHEST,
    SOLO_TURNS,
    SQUARE_POINTS,
    UP_SLOT,
    VersoState,
    seat_neighbours,
)

KEYS = 1 << 14
"""How many colour keys there are (7 value bits, 7 bits for the 3-VP faces)."""

Move = tuple[int, int, int, int]
"""A move on a :class:`World`: (kind, colour, points, discard bits); kind 0 draw, 1 flip, 2
series (its colour, the points it banks, the bits of the two cards it discards, V11.4)."""
DRAW_MOVE: Move = (0, 0, 0, 0)
FLIP_MOVE: Move = (1, 0, 0, 0)


def _series_tables() -> tuple[list[int], list[tuple[tuple[int, int], ...]]]:
    """Per key: the best series' points, and per pair of discarded cards the best points."""
    best = [0] * KEYS
    options: list[tuple[tuple[int, int], ...]] = [()] * KEYS
    for mask in range(128):
        series = SERIES_BY_MASK[0][mask]  # blue: its slots are the values
        numbered = mask & ~1  # only numbered cards may show 3 VP: a star is a 1-VP face (V1)
        big = numbered
        while True:
            by_discard: dict[int, int] = {}
            for s in series:
                points = sum(3 if big >> slot & 1 else 1 for slot in s.slots)
                disc = (1 << s.discard_slots[0]) | (1 << s.discard_slots[1])
                if points > by_discard.get(disc, 0):
                    by_discard[disc] = points
            key = mask | big << 7
            best[key] = max(by_discard.values(), default=0)
            options[key] = tuple((p, d) for d, p in by_discard.items())
            if big == 0:
                break
            big = (big - 1) & numbered
    return best, options


SERIES_BEST, SERIES_OPTIONS = _series_tables()
"""Per colour key: the points of its best series (0: none, V10), and its distinct series as
``(points, discard bits)``."""

KEY_CARDS = tuple((key & 127).bit_count() for key in range(KEYS))
"""Per colour key: how many cards the colour holds."""
KEY_VP = tuple((key & 127).bit_count() + 2 * (key >> 7).bit_count() for key in range(KEYS))
"""Per colour key: the VP its cards show."""
KEY_THREE = tuple(min(n, 3) for n in KEY_CARDS)
"""Per colour key: its cards towards a square (V12), at most 3."""
GAIN = tuple(
    (slot // 7, 1 << (slot % 7), (1 << (slot % 7)) * (129 if face >= 21 else 1))
    for slot, face in zip(UP_SLOT, UP, strict=True)
)
"""Per oriented card: the colour of its up face, its bit in that colour's mask, and the bits it
adds to the colour key."""
FLIPPED = tuple(tuple(orient(c, face) ^ 1 for c in FACE_CARDS[face]) for face in range(42))
"""Per face: every deck card that shows it, turned over (what a flip of it may give)."""


_BIG_BITS = (*(1 << s if f >= 21 else 0 for s, f in zip(UP_SLOT, UP, strict=True)), 0)
"""Per oriented card, the bit of its slot when its up face shows 3 VP; index -1 (an empty
slot) gives 0."""


def state_keys(state: VersoState, player: int) -> tuple[int, int, int]:
    """The three colour keys of ``player``'s tableau in an engine state."""
    m, b = state.masks, 3 * player
    big = sum(map(_BIG_BITS.__getitem__, state.tableaux[player]))
    return m[b] | (big & 127) << 7, m[b + 1] | (big >> 7 & 127) << 7, m[b + 2] | (big >> 14) << 7


def hidden_candidates(face: int, known: int) -> tuple[int, ...]:
    """What a card showing ``face`` may show once turned over: the deck cards bearing ``face``
    that were never seen whole (bit ``card`` of ``known``), turned over, in deck order.

    The one place the hidden face of a card is guessed (the top of the pile, a tableau card never
    turned): the greedy, the search's shortlist, the expectimax's chances and the value training
    all ask here.
    """
    return tuple(oc for oc in FLIPPED[face] if not known >> (oc >> 1) & 1)


def full(k0: int, k1: int, k2: int) -> bool:
    """Whether three colour keys hold 3+ cards each: a square (V12)."""
    return KEY_CARDS[k0] >= 3 and KEY_CARDS[k1] >= 3 and KEY_CARDS[k2] >= 3


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
    return k[0], k[1], k[2], square and full(k[0], k[1], k[2])


def final_points(keys: Sequence[int]) -> int:
    """The points of the best series of three colour keys (the final series, V14/V17)."""
    return max(SERIES_BEST[keys[0]], SERIES_BEST[keys[1]], SERIES_BEST[keys[2]])


def series_move(keys: Sequence[int], series: Series) -> Move:
    """The move of an engine series on a tableau with these colour keys."""
    key = keys[series.colour]
    points = sum(3 if key >> (7 + s % 7) & 1 else 1 for s in series.slots)
    disc = sum(1 << (s % 7) for s in series.discard_slots)
    return (2, series.colour, points, disc)


class World:
    """A concrete position of 1-6 players on bare integers; it changes in place.

    Attributes:
        pile: the oriented cards of the pile as dealt, top first; ``pos`` the index of the top.
        tab: per player 21 slots (``colour * 7 + value``) of oriented cards or -1, one list.
        keys: per player three colour keys, one list (player ``p``'s at ``3 * p``).
        squares: bit ``p`` set while player ``p`` holds a square scored and not broken (V12).
        scores: per player.
        known: bit ``card`` set for every card seen whole (turned at some time).
        neighbours: per player, who turns a card when they bank a series (V11.2).
    """

    __slots__ = ("keys", "known", "neighbours", "pile", "pos", "scores", "squares", "tab")

    def __init__(
        self,
        pile: tuple[int, ...],
        pos: int,
        tab: list[int],
        keys: list[int],
        squares: int,
        scores: list[int],
        known: int,
        neighbours: tuple[tuple[int, ...], ...],
    ) -> None:
        self.pile = pile
        self.pos = pos
        self.tab = tab
        self.keys = keys
        self.squares = squares
        self.scores = scores
        self.known = known
        self.neighbours = neighbours

    @classmethod
    def start(cls, pile: tuple[int, ...], players: int = 1) -> World:
        """The start of a game on ``pile``: empty tableaux, no point, nothing seen."""
        return cls(
            pile,
            0,
            [-1] * (21 * players),
            [0] * (3 * players),
            0,
            [0] * players,
            0,
            seat_neighbours(players),
        )

    @classmethod
    def from_state(cls, state: VersoState) -> World:
        """The same position as an engine state (every face of it, hidden ones included)."""
        return cls(
            state.table.pile,
            state.pos,
            [oc for slots in state.tableaux for oc in slots],
            [k for p in range(state.players) for k in state_keys(state, p)],
            state.squares,
            list(state.score_list),
            state.shown,
            state.table.neighbours,
        )

    def copy(self) -> World:
        return World(
            self.pile,
            self.pos,
            list(self.tab),
            list(self.keys),
            self.squares,
            list(self.scores),
            self.known,
            self.neighbours,
        )

    @property
    def players(self) -> int:
        return len(self.scores)

    @property
    def left(self) -> int:
        """Cards left in the pile."""
        return len(self.pile) - self.pos

    def colour_keys(self, player: int) -> tuple[int, int, int]:
        """The three colour keys of ``player``'s tableau."""
        k, i = self.keys, 3 * player
        return k[i], k[i + 1], k[i + 2]

    # --- the rules, in the engine's order ---
    def gain(self, player: int, oc: int) -> None:
        """V8: add a card to a tableau, or discard it if it duplicates one there."""
        c, bit, add = GAIN[oc]
        i = 3 * player + c
        if self.keys[i] & bit:
            return
        self.tab[21 * player + UP_SLOT[oc]] = oc
        self.keys[i] |= add

    def check_square(self, player: int) -> None:
        """V12: score a square when every colour holds 3+ cards; clear the flag once broken."""
        k, i = self.keys, 3 * player
        whole = KEY_CARDS[k[i]] >= 3 and KEY_CARDS[k[i + 1]] >= 3 and KEY_CARDS[k[i + 2]] >= 3
        flag = self.squares >> player & 1
        if whole and not flag:
            self.squares |= 1 << player
            self.scores[player] += SQUARE_POINTS
        elif flag and not whole:
            self.squares &= ~(1 << player)

    def take(self, player: int, flip: bool) -> None:
        """V7: take the top card, turned over first for a flip."""
        oc = self.pile[self.pos]
        self.pos += 1
        if flip:
            oc ^= 1
            self.known |= 1 << (oc >> 1)
        self.gain(player, oc)
        self.check_square(player)

    def turn_highest(self, player: int, colour: int) -> None:
        """V11.2: turn the highest card of ``colour`` (a star only when alone)."""
        i = 3 * player + colour
        mask = self.keys[i] & 127
        if not mask:
            return
        value = HIGHEST[mask]
        slot = 21 * player + colour * 7 + value
        turned = self.tab[slot] ^ 1
        self.tab[slot] = -1
        self.keys[i] &= ~(129 << value)
        self.known |= 1 << (turned >> 1)
        self.gain(player, turned)
        self.check_square(player)

    def bank(self, player: int, colour: int, points: int, disc: int, neighbours: bool) -> None:
        """V11: the neighbours turn (not in a final series, not solo), score, discard two."""
        if neighbours:
            for other in self.neighbours[player]:
                self.turn_highest(other, colour)
        self.scores[player] += points
        self.keys[3 * player + colour] &= ~(disc | disc << 7)
        base = 21 * player + colour * 7
        for value in range(7):
            if disc >> value & 1:
                self.tab[base + value] = -1
        self.check_square(player)

    def act(self, player: int, move: Move, final: bool = False) -> None:
        """``player`` plays ``move`` (``final``: a series of the final round, V14)."""
        kind, colour, points, disc = move
        if kind == 2:
            self.bank(player, colour, points, disc, not final)
        else:
            self.take(player, kind == 1)

    def opponent(self) -> None:
        """V16: the solo opponent takes the top card; it may make you turn your highest card."""
        oc = self.pile[self.pos]
        self.pos += 1
        self.known |= 1 << (oc >> 1)
        colour = SOLO_TURNS[oc]
        if colour >= 0:
            self.turn_highest(0, colour)

    # --- solo (V16-V17) ---
    def step(self, move: Move) -> bool:
        """A solo turn: ``move``, then :meth:`after_action`. True when the game is over."""
        self.act(0, move)
        return self.after_action()

    def after_action(self) -> bool:
        """What follows a solo move: the opponent's card if the pile allows, then the final series
        (V17, its best points) if the pile is empty. True when the game is over."""
        n = len(self.pile)
        if self.pos < n:
            self.opponent()
        if self.pos >= n:
            self.scores[0] += final_points(self.keys)
            return True
        return False

    def moves(self) -> list[Move]:
        """The distinct moves of a solo position in play: draw (unless the top face duplicates,
        V8), flip, one series per pair of discarded cards."""
        c, bit, _ = GAIN[self.pile[self.pos]]
        keys = self.keys
        out: list[Move] = []
        if not keys[c] & bit:
            out.append(DRAW_MOVE)
        out.append(FLIP_MOVE)
        for colour in range(3):
            for points, disc in SERIES_OPTIONS[keys[colour]]:
                out.append((2, colour, points, disc))
        return out
