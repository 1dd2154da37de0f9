"""R17 on every channel, on half-built standard constructions (random playouts rarely build
high enough to hide a piece): a builder's view, legal actions and refusals, and the spectator's
view, are the same for every construction that looks alike from the builder's side and above."""

from __future__ import annotations

import random

import pytest

from otherside.core.conformance import ConformanceError, check_secrets
from otherside.games.rectoverso import RectoVersoGame
from otherside.games.rectoverso.cards import standard_construction
from otherside.games.rectoverso.construction import SITE, Construction, Placement
from otherside.games.rectoverso.lookalike import lookalike, seen_colours
from tests.games.rectoverso.helpers import build_order

GAME = RectoVersoGame(clock=lambda: 0.0)
CARDS = (3, 17, 40, 58)


def _half_built(number: int) -> list[tuple[object, list[str]]]:
    """States of a round of standard card ``number`` after each of its pieces is placed, with
    placements of the pieces left onto occupied cells as the actions to try."""
    state = GAME.new_state(
        2, seed=number, options={"difficulty": "hard" if number > 32 else "easy", "deck": [number]}
    )
    state = state.apply("reveal")
    order = build_order(standard_construction(number))
    found = []
    for index, placement in enumerate(order):
        state = state.apply_as(index % 2, f"place {placement}")
        found.append((state, _colliding(state.construction, order)))
    return found


def _colliding(construction: Construction, order: list[Placement]) -> list[str]:
    """Placements of the pieces not yet placed onto occupied cells, seen or hidden."""
    tries = []
    for piece in {p.piece for p in order} - set(construction.pieces):
        shape = piece.orientations[0]
        for x, y, z in construction.cells:
            cells = [(x + cx, y + cy, z + cz) for cx, cy, cz in shape]
            if all(0 <= c[0] < SITE and 0 <= c[1] < SITE for c in cells):
                tries.append(f"place {Placement.make(piece, cells)}")
    return sorted(tries)


@pytest.mark.parametrize("number", CARDS)
def test_no_channel_tells_a_builder_what_hides_in_the_construction(number: int) -> None:
    rng = random.Random(number)
    for state, tries in _half_built(number):
        check_secrets(GAME, state, rng, tries)


def test_the_lookalikes_do_hide_pieces_somewhere() -> None:
    # Otherwise the test above would compare each construction with itself.
    rng = random.Random(0)
    moved = 0
    for number in CARDS:
        for state, _ in _half_built(number):
            for side in ("front", "back"):
                other = lookalike(state.construction, side, rng)
                assert other.occupied == state.construction.occupied
                assert seen_colours(other, side) == seen_colours(state.construction, side)
                moved += other != state.construction
    assert moved >= 5


def test_a_refusal_that_names_the_piece_in_the_way_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    honest = Construction.check_place

    def naming(self: Construction, placement: object) -> str | None:
        reason = honest(self, placement)  # type: ignore[arg-type]
        if reason and "occupied" in reason:
            names = {self.cells[c].name for c in placement.cells if c in self.cells}  # type: ignore[attr-defined]
            return f"its cells are taken by {', '.join(sorted(names))} (R4)"
        return reason

    monkeypatch.setattr(Construction, "check_place", naming)
    with pytest.raises(ConformanceError, match="the refusal of"):
        for number in CARDS:
            rng = random.Random(number)
            for state, tries in _half_built(number):
                check_secrets(GAME, state, rng, tries)
