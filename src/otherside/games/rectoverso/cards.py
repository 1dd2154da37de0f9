"""Construction cards (R11): matching (R10), the seeded generator and the standard set.

A card is a front view, a back view and a difficulty. The generator builds a random legal
construction of every piece of the difficulty, piece by piece in a random order, each placement
drawn uniformly among those that are legal at that moment (inside the site, on free cells,
supported, below :data:`MAX_HEIGHT` levels); it then rejects the card by R11 and tries again with
the same random stream. The standard set (numbers 1–32 easy, 33–64 hard) is generated from
:data:`STANDARD_SEED` and ships as ``data/standard_cards.json``; a test regenerates it.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from otherside.core.rng import derive_seed, make_rng
from otherside.games.rectoverso.construction import Construction, View, unsupported
from otherside.games.rectoverso.notation import parse_placement
from otherside.games.rectoverso.pieces import pieces_of

# Decisions (R11), as data in one place.
MAX_HEIGHT = 4  # generated buildings stay within 4 levels
MIN_HEIGHT = 2  # R11: a building lower than 2 levels is rejected
MIN_COLOURS = 4  # R11: a view with fewer different colours is rejected
STANDARD_SEED = 2021  # the year of the re-edition
STANDARD_COUNT = 32  # cards per difficulty in the standard set
DIFFICULTY_ORDER = ("easy", "hard")  # numbering: easy 1–32, then hard 33–64
GENERATED_BASE = 100  # a game's generated cards are numbered 101, 102, … (decision)
CARD_SOURCES = ("standard", "generated")


@dataclass(frozen=True)
class Card:
    """A construction card: two views and a difficulty; ``number`` for a standard card."""

    difficulty: str
    front: View
    back: View
    number: int | None = None

    @property
    def height(self) -> int:
        """The building's number of levels (both views have that many)."""
        return len(self.front)

    def side(self, side: str) -> View:
        """The view on one side: ``recto`` (front) or ``verso`` (back)."""
        if side not in ("recto", "verso"):
            raise ValueError(f"unknown side {side!r}; known: recto, verso")
        return self.front if side == "recto" else self.back

    def to_json(self) -> dict[str, Any]:
        """``{"number", "difficulty", "front", "back"}`` with views as lists of levels."""
        return {
            "number": self.number,
            "difficulty": self.difficulty,
            "front": list(self.front),
            "back": list(self.back),
        }


def card_of(construction: Construction, difficulty: str, number: int | None = None) -> Card:
    """The card showing ``construction`` (its front and back views)."""
    return Card(difficulty, construction.front_view(), construction.back_view(), number)


def mismatch(construction: Construction, card: Card) -> str | None:
    """Why ``construction`` does not match ``card`` (R10), or ``None`` when it does.

    >>> mismatch(Construction(), Card("easy", ("kwan",), ("nawk",)))
    'pieces not placed (R6): black, white, grey, brown, green, pink, violet, orange, yellow, blue'
    """
    wanted = pieces_of(card.difficulty)
    extra = [p.name for p in construction.pieces if p not in wanted]
    if extra:
        return f"not used at {card.difficulty} (R2): {', '.join(extra)}"
    missing = [p.name for p in wanted if p not in construction.pieces]
    if missing:
        return f"pieces not placed (R6): {', '.join(missing)}"
    occupied = 0
    for placement in construction.placements:
        if placement.outside_site() or placement.mask & occupied:
            return f"{placement.piece.name} is outside the site or overlaps another piece (R4)"
        occupied |= placement.mask
    if unsupported(occupied):
        return "a cube stands above an empty cell (R5)"
    for name, seen, shown in (
        ("front", construction.front_view(), card.front),
        ("back", construction.back_view(), card.back),
    ):
        if seen != shown:
            built = "/".join(seen) or "empty"
            return f"the {name} view is {built}, the card shows {'/'.join(shown)}"
    return None


def matches(construction: Construction, card: Card) -> bool:
    """R10: the construction is legal, uses every piece and shows the card's two views."""
    return mismatch(construction, card) is None


def rejection(card: Card) -> str | None:
    """Why the generator rejects ``card`` (R11), or ``None`` when it keeps it.

    >>> rejection(Card("easy", ("kwan", "kwan"), ("kwan", "kwan")))
    'the two views are equal'
    >>> rejection(Card("easy", ("kwan",), ("nawk",)))
    'the building has 1 level, fewer than 2'
    """
    if card.front == card.back:
        return "the two views are equal"
    for name, view in (("front", card.front), ("back", card.back)):
        colours = len(set("".join(view)) - {"."})
        if colours < MIN_COLOURS:
            return f"the {name} view shows {colours} colours, fewer than {MIN_COLOURS}"
    if card.height < MIN_HEIGHT:
        return f"the building has {card.height} level, fewer than {MIN_HEIGHT}"
    return None


def random_construction(
    rng: random.Random, difficulty: str, max_height: int = MAX_HEIGHT
) -> Construction:
    """A random legal construction of every piece of ``difficulty`` (R4–R6)."""
    pieces = list(pieces_of(difficulty))
    while True:
        rng.shuffle(pieces)
        construction = Construction()
        for piece in pieces:
            options = list(construction.legal_placements(piece, max_height))
            if not options:
                break
            construction = construction.place(rng.choice(options))
        else:
            return construction


def generate(
    seed: int | random.Random, difficulty: str, number: int | None = None
) -> tuple[Card, Construction]:
    """A card accepted by R11 and the construction it was made from, from ``seed``.

    The same seed and difficulty always give the same card.
    """
    rng = make_rng(seed)
    while True:
        construction = random_construction(rng, difficulty)
        card = card_of(construction, difficulty, number)
        if rejection(card) is None:
            return card, construction


def standard_seed(difficulty: str, index: int) -> int:
    """The seed of the ``index``-th (0-based) standard card of ``difficulty``."""
    return derive_seed(STANDARD_SEED, "rectoverso", difficulty, index)


def generate_standard_set() -> list[tuple[Card, Construction]]:
    """Regenerate the 64 standard cards (slow-ish: used to build and to test the data file)."""
    result = []
    for offset, difficulty in enumerate(DIFFICULTY_ORDER):
        for index in range(STANDARD_COUNT):
            number = offset * STANDARD_COUNT + index + 1
            result.append(generate(standard_seed(difficulty, index), difficulty, number))
    return result


def standard_set_json(cards: list[tuple[Card, Construction]]) -> dict[str, Any]:
    """The content of ``data/standard_cards.json`` for ``cards``."""
    return {
        "seed": STANDARD_SEED,
        "max_height": MAX_HEIGHT,
        "cards": [
            {**card.to_json(), "construction": [str(p) for p in construction.placements]}
            for card, construction in cards
        ],
    }


@cache
def _standard() -> tuple[tuple[Card, Construction], ...]:
    data = json.loads(
        resources.files(__package__).joinpath("data/standard_cards.json").read_text("utf-8")
    )
    result = []
    for item in data["cards"]:
        card = Card(item["difficulty"], tuple(item["front"]), tuple(item["back"]), item["number"])
        construction = Construction.of(parse_placement(p) for p in item["construction"])
        result.append((card, construction))
    return tuple(result)


def standard_cards(difficulty: str | None = None) -> list[Card]:
    """The standard cards (of one difficulty, or all 64), in number order."""
    return [c for c, _ in _standard() if difficulty in (None, c.difficulty)]


def standard_card(number: int) -> Card:
    """Standard card ``number`` (1–32 easy, 33–64 hard).

    Raises:
        ValueError: for a number outside 1–64.
    """
    total = STANDARD_COUNT * len(DIFFICULTY_ORDER)
    if not 1 <= number <= total:
        raise ValueError(f"no standard card {number}; standard cards are numbered 1 to {total}")
    return _standard()[number - 1][0]


@cache
def generated_cards(seed: int, difficulty: str) -> tuple[Card, ...]:
    """The deck of a game played with generated cards: :data:`STANDARD_COUNT` cards of
    ``difficulty`` from the game's ``seed``, numbered from ``GENERATED_BASE + 1``.

    >>> [c.number for c in generated_cards(7, "easy")][:3]
    [101, 102, 103]
    """
    return tuple(
        generate(
            derive_seed(seed, "rectoverso-cards", difficulty, index),
            difficulty,
            GENERATED_BASE + index + 1,
        )[0]
        for index in range(STANDARD_COUNT)
    )


def standard_construction(number: int) -> Construction:
    """The construction standard card ``number`` was generated from (one of its solutions)."""
    standard_card(number)
    return _standard()[number - 1][1]
