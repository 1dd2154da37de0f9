"""The solo rating of V18, as data."""

from __future__ import annotations

RATING_BANDS: tuple[tuple[int, str], ...] = (
    (60, "60+ Deck legend"),
    (55, "55-59 A true pro"),
    (50, "50-54 A model player"),
    (45, "45-49 What talent"),
    (40, "40-44 Nice move"),
    (35, "35-39 The average Verso score"),
    (0, "below 35"),
)
"""(lowest score of the band, label), best band first. The designers' best is 64."""

DESIGNERS_BEST = 64


def rating(score: int) -> str:
    """The V18 band of a solo score.

    >>> rating(64), rating(35), rating(12)
    ('60+ Deck legend', '35-39 The average Verso score', 'below 35')
    """
    for low, label in RATING_BANDS:
        if score >= low:
            return label
    return RATING_BANDS[-1][1]
