"""V1–V3: the shipped deck data satisfies the card rules and has the stated counts."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

from otherside.games.verso.cards import DECK, face_colour, face_name, face_value, face_vp

CYCLE = "BGO"


def test_v3_deck_file_is_package_data_with_90_distinct_cards() -> None:
    raw = json.loads(
        resources.files("otherside.games.verso").joinpath("data/deck.json").read_text("utf-8")
    )
    assert len(raw["cards"]) == 90 and len(set(raw["cards"])) == 90
    assert len(DECK) == 90


def test_v2_every_card_obeys_the_card_rules() -> None:
    for big, small in DECK:
        assert face_colour(big) != face_colour(small)
        assert (face_vp(big), face_vp(small)) == (3, 1)
        assert face_value(big) != 0, "a star is always on the 1-VP face"
        if face_value(small):
            assert (face_value(big) - face_value(small)) % 6 in (1, 5), "cyclic neighbours"


def test_v3_counts_72_numbered_18_stars_30_faces_each_way_per_colour() -> None:
    stars = [(b, s) for b, s in DECK if face_value(s) == 0]
    assert len(stars) == 18 and len(DECK) - len(stars) == 72
    assert sorted(face_name(b) for b, _ in stars) == sorted(
        f"{c}{n}" for c in CYCLE for n in range(1, 7)
    )
    per_colour = Counter((face_colour(f), face_vp(f)) for card in DECK for f in card)
    assert all(per_colour[(c, vp)] == 30 for c in range(3) for vp in (1, 3))
    star_count = Counter(face_colour(s) for _, s in stars)
    assert star_count == {0: 6, 1: 6, 2: 6}


def test_v3_numbered_cards_one_per_3vp_face_other_colour_and_neighbour_value() -> None:
    backs = Counter((face_name(b), face_name(s)) for b, s in DECK if face_value(s))
    for c in range(3):
        for n in range(1, 7):
            for c2 in range(3):
                if c2 == c:
                    continue
                for m in ((n - 2) % 6 + 1, n % 6 + 1):
                    assert backs[(f"{CYCLE[c]}{n}", f"{CYCLE[c2].lower()}{m}")] == 1


def test_v3_star_colour_is_after_for_odd_and_before_for_even() -> None:
    for big, small in DECK:
        if face_value(small):
            continue
        c, n = face_colour(big), face_value(big)
        expected = (c + 1) % 3 if n % 2 else (c - 1) % 3
        assert face_colour(small) == expected, face_name(big)
