"""V1 and the spec's notation: faces, cards, actions round-trip; bad text is named."""

from __future__ import annotations

import pytest

from otherside.core import BadNotation
from otherside.games import verso
from otherside.games.verso.actions import ALL_SERIES, DRAW, FLIP, PASS, parse_action
from otherside.games.verso.cards import card_name, face_name, parse_card, parse_face


def test_v1_every_face_and_card_round_trips() -> None:
    for face in range(42):
        if face % 7 == 0 and face >= 21:
            continue  # no 3-VP star exists (V1)
        assert parse_face(face_name(face)) == face
    for oc in range(180):
        assert parse_card(card_name(oc)) == oc


@pytest.mark.parametrize("text", ["", "X3", "B7", "B*", "b", "B33", "B3/g3", "B3", "B3/g4/o5"])
def test_bad_faces_and_cards_are_named(text: str) -> None:
    with pytest.raises(BadNotation) as info:
        parse_card(text)
    assert repr(text) in str(info.value)


def test_every_action_round_trips() -> None:
    for action in [DRAW, FLIP, PASS, *ALL_SERIES.values()]:
        assert parse_action(str(action)) == action
        assert str(parse_action(str(action))) == str(action)
    assert str(parse_action("  SERIES   Blue 3 *4 5 ")) == "series blue 3 *4 5"


def test_bad_notation_from_a_state_lists_the_legal_actions() -> None:
    state = verso.new_game(2, pile=["B3/g4", "o*/G1"])
    with pytest.raises(BadNotation, match=r"'drw': .*; legal: draw, flip"):
        state.apply("drw")
