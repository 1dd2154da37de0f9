"""S7–S9 and S12: stone moves, VERSUS moves, locked stones, no passing."""

from __future__ import annotations

import pytest

from otherside.core import IllegalAction

from .helpers import game, stone_at


def _legal(state) -> set[str]:  # type: ignore[no-untyped-def]
    return {str(a) for a in state.legal_plies()}


def test_s7_a_stone_moves_one_cell_in_six_directions_onto_empty_cells() -> None:
    state = game("5:-5", "-5:5", [("0:0", 2, "blue"), ("1:0", 3, "brown"), ("0:1", 3, "blue")])
    stone_moves = {m for m in _legal(state) if m.startswith("0:0>")}
    # 1:0 holds a stone and 0:1 too: four of six neighbours are free.
    assert stone_moves == {"0:0>-1:0", "0:0>0:-1", "0:0>1:-1", "0:0>-1:1"}
    with pytest.raises(IllegalAction, match="exactly one cell"):
        state.apply("0:0>0:-2")
    with pytest.raises(IllegalAction, match="not empty"):
        state.apply("0:0>1:0")
    with pytest.raises(IllegalAction, match="controlled by Brown"):
        state.apply("1:0>2:0")


def test_s7_a_stone_may_step_onto_a_target_and_is_then_locked_s9() -> None:
    state = game("5:-5", "-5:5", [("0:-1", 2, "blue"), ("4:-4", 3, "brown"), ("-4:4", 1, "blue")])
    after = state.apply("0:-1>1:-1").apply("-5:5>-5:4").apply("1:-1>1:0")
    assert stone_at(after, "1:0")["locked"]
    after = after.apply("-5:4>-5:3")
    assert not any(str(a).startswith("1:0>") for a in after.legal_plies())
    with pytest.raises(IllegalAction, match="locked on a target"):
        after.apply("1:0>1:1")


def test_s8_versus_moves_in_straight_lines_over_empty_cells_only() -> None:
    state = game("0:-5", "0:5", [("0:-2", 2, "blue"), ("3:2", 1, "brown")])
    moves = {m.split(">")[1] for m in _legal(state) if m.startswith("0:-5>")}
    assert "0:-3" in moves and "0:-2" not in moves and "0:-1" not in moves  # no jumping
    assert "5:-5" in moves and "-5:0" in moves
    with pytest.raises(IllegalAction, match="blocked at 0:-2"):
        state.apply("0:-5>0:-1")
    with pytest.raises(IllegalAction, match="straight line"):
        state.apply("0:-5>1:-3")


def test_s8_versus_crosses_a_target_but_never_stops_on_one() -> None:
    state = game("-3:-2", "5:0", [("4:-4", 2, "blue"), ("-4:4", 1, "brown")])
    moves = {m.split(">")[1] for m in _legal(state) if m.startswith("-3:-2>")}
    assert "-3:0" not in moves  # a target on the line (0, +1)
    assert "-3:1" in moves and "-3:2" in moves  # crossed it
    with pytest.raises(IllegalAction, match="not stop on it"):
        state.apply("-3:-2>-3:0")


def test_s9_a_locked_stone_blocks_movement_and_sight_and_is_never_pulled() -> None:
    # Brown's stone already sits on the target 1:0 (locked); Blue's VERSUS lands on 1:-3.
    state = game("4:-3", "-5:5", [("1:0", 2, "brown"), ("1:2", 1, "brown"), ("-4:3", 2, "blue")])
    assert stone_at(state, "1:0")["locked"]
    after = state.apply("4:-3>1:-3")
    assert stone_at(after, "1:0")["owner"] == 1  # not pulled, not flipped
    assert stone_at(after, "1:2")["owner"] == 1  # behind the locked stone: out of sight
    assert not any(m.startswith("4:-3>") and m.endswith(">1:1") for m in _legal(state))


def test_s12_s13_2_a_player_without_a_legal_move_ends_the_game() -> None:
    # Brown's VERSUS in the corner 0:5 walled in by locked and Blue stones; Brown has no stone.
    state = game(
        "3:-5",
        "0:5",
        [("1:4", 2, "blue"), ("-1:5", 2, "blue"), ("0:3", 2, "blue"), ("4:-1", 3, "blue")],
        targets=("-3:0",),
    )
    assert not state.is_over
    # Brown's only free line is (0,-1) up to 0:4; Blue blocks 0:4 with a stone.
    after = state.apply("0:3>0:4")
    assert after.is_over
    assert after.outcome is not None and "S13.2" in after.outcome.reason
    assert after.legal_actions() == []
