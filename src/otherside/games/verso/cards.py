"""Faces, cards and the 90-card deck (V1–V3), with their notation.

Faces are small integers so that the rules run fast: ``face = colour * 7 + value + 21 * big``
where ``colour`` is 0 blue, 1 green, 2 orange; ``value`` is 1–6 or 0 for a star; ``big`` is 1 for a
3-VP face. ``face % 21`` is the face's *slot*: a tableau holds at most one card per slot (V8).
A card is an index 0–89 into the deck; an *oriented card* ``oc = card * 2 + side`` says which face
is up (``oc ^ 1`` is the same card turned over).
"""

from __future__ import annotations

import json
from importlib import resources

from otherside.core.errors import BadNotation

COLOURS = ("blue", "green", "orange")
LETTERS = "BGO"
SLOTS = 21
STAR = 0


def face_id(colour: int, value: int, big: bool) -> int:
    """The face number of a colour (0–2), a value (1–6, or 0 for a star) and its VP (big = 3 VP)."""
    return colour * 7 + value + (21 if big else 0)


def face_colour(face: int) -> int:
    """Colour index 0–2 (blue, green, orange)."""
    return (face % 21) // 7


def face_value(face: int) -> int:
    """Value 1–6, or 0 for a star."""
    return face % 7


def face_vp(face: int) -> int:
    """Victory points printed on the face: 3 or 1."""
    return 3 if face >= 21 else 1


def face_name(face: int) -> str:
    """Notation of a face.

    >>> [face_name(face_id(*f)) for f in ((0, 3, True), (1, 4, False), (2, 0, False))]
    ['B3', 'g4', 'o*']
    """
    letter = LETTERS[face_colour(face)]
    value = face_value(face)
    return (letter if face >= 21 else letter.lower()) + (str(value) if value else "*")


def parse_face(text: str) -> int:
    """Parse a face such as ``B3``, ``g4`` or ``o*`` (V1: a star is always a 1-VP face).

    >>> face_name(parse_face("o*"))
    'o*'
    >>> parse_face("B*")
    Traceback (most recent call last):
    ...
    otherside.core.errors.BadNotation: 'B*': a star is always on a 1-VP face (lower-case letter)
    """
    if len(text) != 2 or text[0].upper() not in LETTERS or text[1] not in "123456*":
        raise BadNotation(text, "a face is a colour letter B/G/O (upper case 3 VP) and 1-6 or *")
    big = text[0].isupper()
    if big and text[1] == "*":
        raise BadNotation(text, "a star is always on a 1-VP face (lower-case letter)")
    value = 0 if text[1] == "*" else int(text[1])
    return face_id(LETTERS.index(text[0].upper()), value, big)


def _load_deck() -> tuple[tuple[int, int], ...]:
    raw = json.loads(resources.files(__package__).joinpath("data/deck.json").read_text("utf-8"))
    deck = []
    for text in raw["cards"]:
        big, small = text.split("/")
        deck.append((parse_face(big), parse_face(small)))
    return tuple(deck)


DECK: tuple[tuple[int, int], ...] = _load_deck()
"""The 90 cards as (3-VP face, 1-VP face), in the order of ``data/deck.json``."""

CARD_OF_FACES: dict[tuple[int, int], int] = {}
for _card, (_a, _b) in enumerate(DECK):
    CARD_OF_FACES[(_a, _b)] = _card
    CARD_OF_FACES[(_b, _a)] = _card

FACE_CARDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(c for c, faces in enumerate(DECK) if face in faces) for face in range(42)
)
"""For each face number, the deck cards that carry it."""

# Per oriented card (0–179): the face up and the face down.
UP: tuple[int, ...] = tuple(DECK[oc >> 1][oc & 1] for oc in range(180))
DOWN: tuple[int, ...] = tuple(DECK[oc >> 1][1 - (oc & 1)] for oc in range(180))


def orient(card: int, up: int) -> int:
    """The oriented card (``card * 2``, or ``+ 1`` turned over) of deck card ``card`` showing face
    ``up``."""
    return card * 2 + (0 if DECK[card][0] == up else 1)


def card_name(oc: int) -> str:
    """Notation of an oriented card, ``UP/DOWN``.

    >>> card_name(parse_card("g4/B3"))
    'g4/B3'
    """
    return _CARD_NAMES[oc]


# Each record names its whole pile: 180 names written once, not built again for every game.
_CARD_NAMES: tuple[str, ...] = tuple(
    f"{face_name(UP[oc])}/{face_name(DOWN[oc])}" for oc in range(180)
)


def parse_card(text: str) -> int:
    """Parse ``UP/DOWN`` into an oriented card of the V3 deck.

    >>> parse_card("B3/g4") ^ 1 == parse_card("g4/B3")
    True
    >>> parse_card("B3/g3")
    Traceback (most recent call last):
    ...
    otherside.core.errors.BadNotation: 'B3/g3': no card of the deck has these two faces (V2, V3)
    """
    parts = text.strip().split("/")
    if len(parts) != 2:
        raise BadNotation(text, "a card is written UP/DOWN, e.g. B3/g4")
    up, down = parse_face(parts[0]), parse_face(parts[1])
    card = CARD_OF_FACES.get((up, down))
    if card is None:
        raise BadNotation(text, "no card of the deck has these two faces (V2, V3)")
    return orient(card, up)
