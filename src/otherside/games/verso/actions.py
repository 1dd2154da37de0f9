"""Verso actions and their notation: ``draw``, ``flip``, ``series <colour> <v> …``, ``pass``.

Every possible action is built once at import and shared, so legal-action lists are table
lookups: ``SERIES_BY_MASK[colour][mask]`` lists the series a tableau can bank in ``colour`` when
``mask`` has bit 0 set for a star and bit ``v`` set for a card of value ``v`` (V10).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

from otherside.core.errors import BadNotation
from otherside.games.verso.cards import COLOURS


@dataclass(frozen=True, slots=True)
class Draw:
    """V7: take the top card as it shows."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Flip:
    """V7: turn the top card over, then take it."""

    def __str__(self) -> str:
        return "flip"


@dataclass(frozen=True, slots=True)
class Pass:
    """V14: decline the final series."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Series:
    """V10/V11: bank a run of one colour; ``star`` is the value the star stands for (0: none).

    ``values`` lists every value of the run in increasing order, the star's included.
    """

    colour: int
    values: tuple[int, ...]
    star: int = 0
    text: str = field(default="", compare=False, repr=False)
    slots: tuple[int, ...] = field(default=(), compare=False, repr=False)
    discard_slots: tuple[int, int] = field(default=(0, 0), compare=False, repr=False)

    def __str__(self) -> str:
        return self.text


VersoAction = Draw | Flip | Pass | Series

DRAW = Draw()
FLIP = Flip()
PASS = Pass()


def _series_text(colour: int, values: tuple[int, ...], star: int) -> str:
    parts = [f"*{v}" if v == star else str(v) for v in values]
    return f"series {COLOURS[colour]} {' '.join(parts)}"


def _make_series(colour: int, values: tuple[int, ...], star: int) -> Series:
    # A card's tableau slot is colour*7 + value, the star's is colour*7 + 0.
    def slot(v: int) -> int:
        return colour * 7 + (0 if v == star else v)

    top_two = values[-2:]
    return Series(
        colour,
        values,
        star,
        _series_text(colour, values, star),
        tuple(slot(v) for v in values),
        (slot(top_two[1]), slot(top_two[0])),
    )


ALL_SERIES: dict[tuple[int, tuple[int, ...], int], Series] = {}
for _c in range(3):
    for _lo in range(1, 7):
        for _hi in range(_lo + 1, 7):
            _run = tuple(range(_lo, _hi + 1))
            for _star in (0, *_run):
                ALL_SERIES[(_c, _run, _star)] = _make_series(_c, _run, _star)


def _series_for_mask(colour: int, mask: int) -> tuple[Series, ...]:
    has_star = bool(mask & 1)
    found = []
    for (c, run, star), series in ALL_SERIES.items():
        if c != colour or (star and not has_star):
            continue
        if all(mask >> v & 1 for v in run if v != star):
            found.append(series)
    return tuple(found)


SERIES_BY_MASK: tuple[tuple[tuple[Series, ...], ...], ...] = tuple(
    tuple(_series_for_mask(c, m) for m in range(128)) for c in range(3)
)


def parse_action(text: str) -> VersoAction:
    """Parse notation into an action (legal or not). Case and spacing are forgiven.

    >>> str(parse_action("series blue 3 *4 5"))
    'series blue 3 *4 5'
    >>> parse_action("Series  Orange 5 *6").star
    6
    >>> parse_action("series blue 3 5")
    Traceback (most recent call last):
    ...
    otherside.core.errors.BadNotation: 'series blue 3 5': unbroken run: 3 is not followed by 5 (V10)
    """
    words = text.lower().split()
    if words == ["draw"]:
        return DRAW
    if words == ["flip"]:
        return FLIP
    if words == ["pass"]:
        return PASS
    if not words or words[0] != "series":
        raise BadNotation(text, "expected draw, flip, pass or series <colour> <values>")
    if len(words) < 2 or words[1] not in COLOURS:
        raise BadNotation(text, "the colour of a series is blue, green or orange")
    colour = COLOURS.index(words[1])
    values: list[int] = []
    star = 0
    for word in words[2:]:
        digits = word[1:] if word.startswith("*") else word
        if len(digits) != 1 or digits not in "123456":
            raise BadNotation(text, f"{word!r} is not a value 1-6 or a star *1-*6")
        if word.startswith("*"):
            if star:
                raise BadNotation(text, "a series holds at most one star of its colour (V8)")
            star = int(digits)
        values.append(int(digits))
    if not 2 <= len(values) <= 6:
        raise BadNotation(text, "a series has 2 to 6 cards (V10)")
    for a, b in pairwise(values):
        if b != a + 1:
            raise BadNotation(text, f"unbroken run: {a} is not followed by {b} (V10)")
    return ALL_SERIES[(colour, tuple(values), star)]
