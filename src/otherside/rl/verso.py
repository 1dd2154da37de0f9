"""Verso as arrays: the fixed action space and the observation of a seat (V19 only).

**Actions.** ``ACTION_COUNT = 198`` integers, the same for every player count:

* ``0`` ``draw``, ``1`` ``flip``, ``2`` ``pass``;
* ``3``–``197``: every ``series`` the notation can write, in this order: colour (blue, green,
  orange; 65 each), lowest value (1–5), highest value (lowest + 1 to 6), then the star (none,
  then standing for each value of the run, lowest first). So ``3`` is ``series blue 1 2``,
  ``4`` ``series blue *1 2``, ``5`` ``series blue 1 *2``, ``6`` ``series blue 1 2 3``.

:func:`decode_action` gives an index's notation, :func:`encode_action` the index of an action or
of its notation.

>>> decode_action(0), decode_action(4), decode_action(ACTION_COUNT - 1)
('draw', 'series blue *1 2', 'series orange 5 *6')
>>> encode_action("series green 3 *4 5")
116

**Observation** of a table of ``N`` players: a ``float32`` vector of
``observation_size(N) = 277 * N + 178`` features, built from ``view(state, seat)`` alone. Seats
are *relative*: block ``k`` describes the seat ``k`` places after the observer, clockwise, so
block 0 is always the observer's own. Faces are numbered as in the engine,
``face = colour * 7 + value + 21 * big`` (colour 0 blue, 1 green, 2 orange; value 0 for a star;
``big`` 1 for a 3-VP face); a tableau *slot* is ``face % 21`` (V8: one card per slot).

* ``N`` seat blocks of ``SEAT_SIZE = 275``, at ``k * 275``:

  - 21 slots × 13 features, at ``slot * 13``: ``+0`` a card is there, ``+1`` its up face is
    worth 3 VP, ``+2`` its down face was shown (V19), ``+3..+5`` the down face's colour and
    ``+6..+12`` its value (star, 1–6), one-hot, only when shown;
  - ``273`` the seat's score (points), ``274`` its square flag (V12).
* then the table, at ``N * 275``:

  - ``+0..+41`` the top face of the pile, one-hot (all zero once the pile is empty);
  - ``+42`` the cards left in the pile;
  - ``+43..+45`` the phase: play, final round (V14), over;
  - ``+46..`` ``N`` features: the seat to move, one-hot by relative seat;
  - then ``N``: the seats still to come in the final round (V14);
  - then 90: deck cards (``DECK`` order) discarded with both faces public;
  - then 42: discarded cards whose down face was never shown, counted by their up face.

Nothing else enters: never a down face that was not shown, never the pile below its top.
:func:`encode_view` is the definition; :func:`encode_state` is the fast path the environments
use, which reads only what the view holds and is tested to give the same array.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from otherside.games import verso
from otherside.games.verso import DECK, VersoAction, VersoState, parse_action, parse_face

COLOURS = ("blue", "green", "orange")
SLOTS = 21
SLOT_SIZE = 13
SEAT_SIZE = SLOTS * SLOT_SIZE + 2
FACES = 42
TABLE_FIXED = FACES + 1 + 3 + len(DECK) + FACES
"""The table block's features that do not depend on the player count."""
PHASES = ("play", "final", "over")
SCORE_BOUND = 2000.0
"""The observation space's bound for a score. No game comes near: cards enter tableaux only from
the pile (90 at most) and every series discards two (V11.4), so a game has at most 45 series, of
at most 18 points; a square scores again only after it was broken (V12), by a series or a turned
card (at most 2 a series, 35 solo): at most 137 squares of 7 points."""


def _notations() -> tuple[str, ...]:
    names = ["draw", "flip", "pass"]
    for colour in COLOURS:
        for low in range(1, 6):
            for high in range(low + 1, 7):
                run = range(low, high + 1)
                for star in (0, *run):
                    values = " ".join(f"*{v}" if v == star else str(v) for v in run)
                    names.append(f"series {colour} {values}")
    return tuple(names)


ACTION_NAMES: tuple[str, ...] = _notations()
"""The notation of every action index."""
ACTION_COUNT = len(ACTION_NAMES)
ACTIONS: tuple[VersoAction, ...] = tuple(parse_action(name) for name in ACTION_NAMES)
"""The engine's action of every index."""
ACTION_INDEX: dict[str, int] = {name: i for i, name in enumerate(ACTION_NAMES)}


def decode_action(index: int) -> str:
    """The notation of an action index (``IndexError`` outside ``0..ACTION_COUNT - 1``)."""
    if not 0 <= index < ACTION_COUNT:
        raise IndexError(f"a Verso action index is 0 to {ACTION_COUNT - 1}, not {index}")
    return ACTION_NAMES[index]


def encode_action(action: VersoAction | str) -> int:
    """The index of an action, or of its notation (``BadNotation`` if malformed)."""
    text = action if isinstance(action, str) else str(action)
    index = ACTION_INDEX.get(text)
    return ACTION_INDEX[str(parse_action(text))] if index is None else index


def observation_size(players: int) -> int:
    """Length of the observation vector for ``players`` seats."""
    return players * (SEAT_SIZE + 2) + TABLE_FIXED


def observation_high(players: int) -> np.ndarray:
    """Upper bounds of every feature (the lower bound is 0)."""
    high = np.ones(observation_size(players), np.float32)
    for k in range(players):
        high[k * SEAT_SIZE + SLOTS * SLOT_SIZE] = SCORE_BOUND
    table = players * SEAT_SIZE
    high[table + FACES] = len(DECK)
    hidden = table + FACES + 4 + 2 * players + len(DECK)
    high[hidden : hidden + FACES] = max(sum(face in card for card in DECK) for face in range(FACES))
    return high


# ----------------------------------------------------------------- the fast path's tables
# An oriented card is ``card * 2 + side`` with ``DECK[card][side]`` face up (the engine's).
_UP = tuple(DECK[oc >> 1][oc & 1] for oc in range(2 * len(DECK)))
_DOWN = tuple(DECK[oc >> 1][1 - (oc & 1)] for oc in range(2 * len(DECK)))


def _slot_features(up: int, down: int | None) -> tuple[int, ...]:
    """Offsets within a seat block of a tableau card's features."""
    base = (up % SLOTS) * SLOT_SIZE
    features = [base]
    if up >= SLOTS:
        features.append(base + 1)
    if down is not None:
        features += [base + 2, base + 3 + (down % SLOTS) // 7, base + 6 + down % 7]
    return tuple(features)


# Per relative seat k and oriented card: the absolute indices its features set, hidden or shown.
_FEATURES: tuple[tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]], ...] = tuple(
    (
        tuple(tuple(k * SEAT_SIZE + f for f in _slot_features(up, None)) for up in _UP),
        tuple(
            tuple(k * SEAT_SIZE + f for f in _slot_features(up, down))
            for up, down in zip(_UP, _DOWN, strict=True)
        ),
    )
    for k in range(verso.GAME.player_counts[-1])
)
_CARD_OF_FACES = {faces: card for card, (a, b) in enumerate(DECK) for faces in ((a, b), (b, a))}
_FACE_OF_NAME = {verso.face_name(face): face for face in range(FACES)}


def encode_state(state: VersoState, player: int) -> np.ndarray:
    """The observation of seat ``player``, read from the state's public parts.

    Reads what :func:`~otherside.games.verso.view` publishes and nothing else: up faces, down
    faces only of cards that were shown (``state.shown``), the top face, counts and flags. Equal
    to ``encode_view(view(state, player))`` (tested on random games), about ten times faster.
    """
    n = state.players
    shown = state.shown
    # Every feature set here is a 0/1 flag at its own index, except the counts of hidden
    # discards by face: one bincount of all the indices builds the array.
    features: list[int] = []
    for k in range(n):
        seat = (player + k) % n
        hidden_features, shown_features = _FEATURES[k]
        for oc in state.tableaux[seat]:
            if oc >= 0:
                features += (shown_features if shown >> (oc >> 1) & 1 else hidden_features)[oc]
        if state.has_square(seat):
            features.append(k * SEAT_SIZE + SLOTS * SLOT_SIZE + 1)
    table = n * SEAT_SIZE
    top = state.top
    if top is not None:
        features.append(table + _UP[top])
    features.append(table + FACES + 1 + PHASES.index(state.phase_name))
    seats = table + FACES + 4
    current = state.current_player
    if current is not None:
        features.append(seats + (current - player) % n)
    features += [seats + n + (seat - player) % n for seat in state.final_order]
    cards = seats + 2 * n
    hidden = cards + len(DECK)
    node = state.discards  # discarded cards, newest first: (card, rest)
    while node is not None:
        oc, node = node
        features.append(cards + (oc >> 1) if shown >> (oc >> 1) & 1 else hidden + _UP[oc])
    size = observation_size(n)
    obs = np.bincount(features, minlength=size).astype(np.float32)
    scores = state.scores
    for k in range(n):
        obs[k * SEAT_SIZE + SLOTS * SLOT_SIZE] = scores[(player + k) % n]
    obs[table + FACES] = state.pile_size
    return obs


def encode_view(view: Mapping[str, Any]) -> np.ndarray:
    """The observation of the seat a view was made for (``view["player"]``): the definition.

    Raises:
        ValueError: the view is a spectator's (no seat to be relative to).
    """
    player = view["player"]
    if player is None:
        raise ValueError("a spectator's view has no seat: observations are relative to one")
    n = view["players"]
    obs = np.zeros(observation_size(n), np.float32)
    for k in range(n):
        tableau = view["tableaux"][(player + k) % n]
        base = k * SEAT_SIZE
        for card in tableau["cards"]:
            up = _FACE_OF_NAME[card["up"]]
            down = _FACE_OF_NAME[card["down"]] if card["down"] else None
            for f in _slot_features(up, down):
                obs[base + f] = 1.0
        obs[base + SLOTS * SLOT_SIZE] = tableau["score"]
        obs[base + SLOTS * SLOT_SIZE + 1] = tableau["square"]
    table = n * SEAT_SIZE
    if view["top"] is not None:
        obs[table + parse_face(view["top"])] = 1.0
    obs[table + FACES] = view["pile_size"]
    obs[table + FACES + 1 + PHASES.index(view["phase"])] = 1.0
    seats = table + FACES + 4
    if view["current_player"] is not None:
        obs[seats + (view["current_player"] - player) % n] = 1.0
    for seat in view["final_order"]:
        obs[seats + n + (seat - player) % n] = 1.0
    cards = seats + 2 * n
    for card in view["discards"]:
        up = _FACE_OF_NAME[card["up"]]
        if card["down"]:
            obs[cards + _CARD_OF_FACES[(up, _FACE_OF_NAME[card["down"]])]] = 1.0
        else:
            obs[cards + len(DECK) + up] += 1.0
    return obs


def action_mask(legal: Sequence[VersoAction]) -> np.ndarray:
    """``int8`` mask over the action space: 1 exactly for the actions of ``legal``."""
    mask = np.zeros(ACTION_COUNT, np.int8)
    mask[[ACTION_INDEX[str(action)] for action in legal]] = 1
    return mask
