"""Notation: placements, views and actions round-trip; bad input names the problem."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from otherside.core import BadNotation
from otherside.games.rectoverso.construction import Construction
from otherside.games.rectoverso.notation import (
    format_view,
    parse_action,
    parse_placement,
    parse_view,
)
from otherside.games.rectoverso.pieces import PIECES


@given(st.sampled_from(PIECES), st.data())
def test_every_legal_placement_round_trips(piece, data) -> None:  # type: ignore[no-untyped-def]
    placement = data.draw(st.sampled_from(list(Construction().legal_placements(piece))))
    assert parse_placement(str(placement)) == placement
    assert str(parse_action(f"place {placement}")) == f"place {placement}"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "expected"),
        ("purple 0,0,0", "unknown piece"),
        ("black 0,0", "not a cell"),
        ("green 0,0,0", "green has 2 cubes but 1 cells given"),
        ("green 0,0,0 0,0,0", "given twice"),
        ("green 0,0,0 2,0,0", "not a bar-2"),
    ],
)
def test_bad_placements_are_rejected_with_the_reason(text: str, reason: str) -> None:
    with pytest.raises(BadNotation, match=reason):
        parse_placement(text)


def test_views_round_trip_and_reject_bad_levels() -> None:
    assert parse_view(format_view(("..y.", "kbyo"))) == ("..y.", "kbyo")
    assert parse_view("..y. kbyo") == ("..y.", "kbyo")
    with pytest.raises(BadNotation, match="unknown colour letter 'x'"):
        parse_view("..x./kbyo")
    with pytest.raises(BadNotation, match="at least one level"):
        parse_view(" ")


def test_actions() -> None:
    for text in ("done", "turn", "reveal", "timeout", "remove red"):
        assert str(parse_action(text)) == text
    with pytest.raises(BadNotation, match="unknown action"):
        parse_action("done now")
    with pytest.raises(BadNotation, match="expected 'remove <piece>'"):
        parse_action("remove")
