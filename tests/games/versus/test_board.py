"""S1–S6: the board, targets, players, stones and the start position; notation."""

from __future__ import annotations

import pytest

from otherside.core import BadNotation
from otherside.games.versus import PlatformAction, VersusOptions, new_game, parse_action, view
from otherside.games.versus.hex import CELLS, DIRECTIONS, INDEX, NEIGHBOURS, RAYS, distance
from otherside.games.versus.notation import format_cell, parse_cell


def test_s1_board_has_91_cells_in_a_hexagon_with_six_a_side() -> None:
    assert len(CELLS) == 91 == len(set(CELLS))
    assert all(max(abs(q), abs(r), abs(q + r)) <= 5 for q, r in CELLS)
    corners = [(5, 0), (-5, 0), (0, 5), (0, -5), (5, -5), (-5, 5)]
    for corner in corners:
        assert len(NEIGHBOURS[INDEX[corner]]) == 3
    assert len(NEIGHBOURS[INDEX[(0, 0)]]) == 6
    assert sorted(len(r) for r in RAYS[INDEX[(0, 0)]]) == [5] * 6
    assert len(DIRECTIONS) == 6 and {(-q, -r) for q, r in DIRECTIONS} == set(DIRECTIONS)


def test_s1_rays_run_in_straight_lines_to_the_edge() -> None:
    for index, rays in enumerate(RAYS):
        for (dq, dr), ray in zip(DIRECTIONS, rays, strict=True):
            q, r = CELLS[index]
            for step, cell in enumerate(ray, start=1):
                assert CELLS[cell] == (q + step * dq, r + step * dr)
                assert distance(CELLS[index], CELLS[cell]) == step


def test_s2_targets_are_six_cells_of_the_middle_axis_without_the_centre() -> None:
    assert VersusOptions().targets == ("-3:0", "-2:0", "-1:0", "1:0", "2:0", "3:0")
    assert view(new_game(), None)["options"]["targets"] == list(VersusOptions().targets)


def test_s3_blue_moves_first() -> None:
    state = new_game()
    assert state.current_player == 0
    assert state.apply("0:-4>0:-3").current_player == 1


def test_s4_stone_values_and_majority() -> None:
    stones = view(new_game(), None)["stones"]
    blue = [(s["b"], s["owner"]) for s in stones[:5]]
    assert blue == [(1, 0), (2, 0), (4, 0), (3, 0), (3, 0)]
    # Each side starts with stones worth 4, 3, 3, 2, 1 to itself.
    assert sorted(s["b"] for s in stones[:5]) == sorted(5 - s["b"] for s in stones[5:])


def test_s6_start_position_is_point_symmetric() -> None:
    data = view(new_game(), None)
    assert data["versus"] == ["2:-5", "-2:5"]
    cells = {s["cell"]: (s["b"], s["owner"]) for s in data["stones"]}
    assert cells["0:-4"] == (1, 0) and cells["-4:4"] == (2, 1) and cells["0:4"] == (4, 1)
    for cell, (b, owner) in cells.items():
        q, r = (int(x) for x in cell.split(":"))
        assert cells[f"{-q}:{-r}"] == (5 - b, 1 - owner)


def test_notation_round_trips_every_cell_and_ply() -> None:
    for index in range(len(CELLS)):
        assert parse_cell(format_cell(index)) == index
    for action in new_game().legal_actions():
        assert parse_action(str(action)) == action
    assert parse_action("resign") is PlatformAction.RESIGN


@pytest.mark.parametrize("text", ["", "0:-4", "0:-4>", "a:b>0:0", "0:-4>9:9", "0:-4>0:-3>0:-2"])
def test_malformed_notation_is_rejected_with_its_text(text: str) -> None:
    with pytest.raises(BadNotation) as info:
        new_game().apply(text)
    assert repr(text) in str(info.value)
    assert "0:-4>0:-3" in str(info.value)  # the legal alternatives are listed
