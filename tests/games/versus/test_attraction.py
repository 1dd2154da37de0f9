"""S10 attraction and S11, the tug-of-war rule."""

from __future__ import annotations

import pytest

from otherside.games.versus.hex import DIRECTIONS, INDEX

from .helpers import game, stone_at


def _cell(q: int, r: int) -> str:
    assert (q, r) in INDEX
    return f"{q}:{r}"


@pytest.mark.parametrize("d", range(6))
def test_s10_an_opposing_stone_in_sight_is_pulled_along_each_direction(d: int) -> None:
    dq, dr = DIRECTIONS[d]
    eq, er = DIRECTIONS[(d + 2) % 6]  # the VERSUS arrives on 0:0 along another line
    far, near, start = _cell(3 * dq, 3 * dr), _cell(dq, dr), _cell(2 * eq, 2 * er)
    state = game(start, "5:-5" if d != 4 else "-5:5", [(far, 2, "brown")], targets=("-4:0",))
    after = state.apply(f"{start}>0:0")
    stone = stone_at(after, near)  # pulled all the way, next to the VERSUS
    assert stone["owner"] == 0 and stone["b"] == 2 and stone["streak"] == 1
    with pytest.raises(KeyError):
        stone_at(after, far)


def test_s10_only_the_first_piece_on_a_line_is_in_sight() -> None:
    # From 0:0: a Blue stone then a Brown stone along (+1,0); Brown's VERSUS then a Brown stone
    # along (0,+1). Neither Brown stone is in direct sight.
    state = game(
        "-2:0",
        "0:2",
        [("1:0", 3, "blue"), ("3:0", 1, "brown"), ("0:4", 1, "brown"), ("0:-3", 4, "brown")],
        targets=("5:-5",),
    )
    after = state.apply("-2:0>0:0")
    assert stone_at(after, "3:0")["owner"] == 1
    assert stone_at(after, "0:4")["owner"] == 1
    assert stone_at(after, "1:0")["owner"] == 0  # own stones are never pulled
    assert stone_at(after, "0:-1")["owner"] == 0  # the one in sight was pulled from 0:-3
    assert after.position.versus[1] == INDEX[(0, 2)]  # the other VERSUS is never pulled (S5)


def test_s10_a_stone_already_adjacent_is_neither_pulled_nor_flipped() -> None:
    state = game("-2:0", "5:-5", [("1:0", 1, "brown"), ("0:3", 1, "brown")], targets=("-4:4",))
    after = state.apply("-2:0>0:0")
    assert stone_at(after, "1:0")["owner"] == 1 and stone_at(after, "1:0")["streak"] == 0
    assert stone_at(after, "0:1")["owner"] == 0


def test_s10_a_stone_pulled_onto_a_target_is_locked_under_the_puller() -> None:
    state = game("4:-1", "-5:5", [("1:3", 1, "brown"), ("-4:4", 2, "brown")])
    after = state.apply("4:-1>1:-1")  # line (0,+1) from 1:-1 meets 1:0 (target), 1:1, …
    stone = stone_at(after, "1:0")
    assert stone["owner"] == 0 and stone["locked"]
    assert after.scores == (1, 0)
    assert not any(str(a).startswith("1:0>") for a in after.apply("-5:5>-5:4").legal_plies())


def test_s10_the_pull_distance_is_an_option() -> None:
    state = game("-2:0", "5:-5", [("0:4", 1, "brown")], targets=("-4:4",), pull_distance=1)
    after = state.apply("-2:0>0:0")
    assert stone_at(after, "0:3")["owner"] == 0


def _tug_of_war(b: int, **options: object):  # type: ignore[no-untyped-def]
    """Blue attracts X, Brown attracts it back: X has been attracted 2 plies in a row."""
    state = game(
        "-3:-2",
        "3:2",
        [("0:2", b, "brown"), ("4:-4", 1, "brown"), ("-4:4", 2, "brown")],
        targets=("-5:5",),
        **options,
    )
    state = state.apply("-3:-2>0:-2")  # Blue pulls X from 0:2 to 0:-1
    assert stone_at(state, "0:-1")["owner"] == 0
    state = state.apply("3:2>3:-1")  # Brown pulls X from 0:-1 to 2:-1
    assert stone_at(state, "2:-1") == {**stone_at(state, "2:-1"), "owner": 1, "streak": 2}
    return state.apply("0:-2>2:-4")  # Blue's VERSUS sees X (2:-1) and the stone on 4:-4


def test_s11_after_two_attractions_in_a_row_the_minority_colour_cannot_attract() -> None:
    after = _tug_of_war(b=2)  # X is brown-majority: Blue may not attract it a third time
    x = stone_at(after, "2:-1")
    assert x["owner"] == 1 and x["streak"] == 0  # not pulled, and the count drops to 0
    assert stone_at(after, "3:-4")["owner"] == 0  # the other stone in sight was attracted
    # After another ply, Blue may attract X again.
    again = after.apply("-4:4>-4:3").apply("2:-4>2:-3")
    assert stone_at(again, "2:-2")["owner"] == 0


def test_s11_the_majority_colour_may_attract_a_third_time() -> None:
    after = _tug_of_war(b=3)  # X is blue-majority
    assert stone_at(after, "2:-3") == {**stone_at(after, "2:-3"), "owner": 0, "streak": 3}


def test_s11_can_be_turned_off_by_option() -> None:
    after = _tug_of_war(b=2, tug_limit=None)
    assert stone_at(after, "2:-3")["owner"] == 0


def test_s11_count_drops_to_zero_after_a_ply_that_does_not_attract() -> None:
    state = game("-3:-2", "3:2", [("0:2", 2, "brown"), ("-4:4", 2, "brown")], targets=("5:-5",))
    state = state.apply("-3:-2>0:-2")
    assert stone_at(state, "0:-1")["streak"] == 1
    state = state.apply("-4:4>-4:3")
    assert stone_at(state, "0:-1")["streak"] == 0
