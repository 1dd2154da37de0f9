"""S13 end conditions, resign and draw offers, S14 scoring."""

from __future__ import annotations

import pytest

from otherside.core import IllegalAction
from otherside.games.versus import PlatformAction, new_game

from .helpers import game, play


def test_s13_1_the_game_ends_when_every_target_holds_a_stone() -> None:
    state = game(
        "5:-5", "-5:5", [("1:-1", 2, "blue"), ("-1:1", 1, "brown")], targets=("1:0", "-1:0")
    )
    state = state.apply("1:-1>1:0")
    assert not state.is_over
    state = state.apply("-1:1>-1:0")
    assert state.is_over and state.current_player is None
    assert state.outcome is not None and "S13.1" in state.outcome.reason
    assert state.scores == (2, 4) and state.outcome.winners == (1,)


@pytest.mark.parametrize(("b_other", "over"), [(4, True), (0, False)])
def test_s13_3_the_game_ends_when_the_leader_is_out_of_reach(b_other: int, over: bool) -> None:
    # Blue locks a 5; one target stays free. The loose stone is worth 5 - b_other to Brown:
    # 1 cannot catch 5 (over); 5 could still draw (play on).
    state = game(
        "5:-5", "-5:5", [("1:-1", 5, "blue"), ("-4:4", b_other, "brown")], targets=("1:0", "-1:0")
    )
    state = state.apply("1:-1>1:0")
    assert state.is_over is over
    if over:
        assert state.outcome is not None and "S13.3" in state.outcome.reason
        assert state.outcome.winners == (0,)


def test_s13_4_the_game_ends_after_the_quiet_limit_without_a_lock() -> None:
    state = game("5:-5", "-5:5", [("0:-3", 2, "blue"), ("0:3", 2, "brown")], quiet_limit=4)
    state = play(state, "0:-3>0:-2", "0:3>0:2", "0:-2>-1:-2")
    assert not state.is_over and state.position.quiet == 3
    state = state.apply("0:2>1:2")
    assert state.is_over
    assert state.outcome is not None and "S13.4" in state.outcome.reason and state.outcome.is_draw


def test_s13_4_a_lock_resets_the_quiet_count() -> None:
    state = game("5:-5", "-5:5", [("0:-1", 2, "blue"), ("0:3", 2, "brown")], quiet_limit=3)
    state = play(state, "0:-1>1:-1", "0:3>0:2", "1:-1>1:0")
    assert state.position.quiet == 0 and not state.is_over


def test_s13_resign_gives_the_other_player_the_win() -> None:
    state = new_game().apply("0:-4>0:-3").apply("resign")
    assert state.is_over and state.outcome is not None
    assert state.outcome.winners == (0,) and state.outcome.reason == "Brown resigned"
    assert state.to_record()["plies"] == ["0:-4>0:-3", "resign"]


def test_s13_draw_offer_accepted_ends_in_a_draw() -> None:
    state = new_game().apply("offer-draw")
    assert state.current_player == 1
    assert [str(a) for a in state.legal_actions()] == ["accept-draw", "decline-draw"]
    with pytest.raises(IllegalAction, match="offered a draw"):
        state.apply("0:4>0:3")
    state = state.apply("accept-draw")
    assert state.is_over and state.outcome is not None
    assert state.outcome.winners == () and state.outcome.reason == "draw agreed"


def test_s13_draw_offer_declined_play_goes_on_with_the_offering_player() -> None:
    state = new_game().apply("offer-draw").apply("decline-draw")
    assert state.current_player == 0 and not state.is_over
    assert PlatformAction.OFFER_DRAW not in state.legal_actions()  # once per turn
    with pytest.raises(IllegalAction, match="declined this turn"):
        state.apply("offer-draw")
    state = state.apply("0:-4>0:-3")
    assert PlatformAction.OFFER_DRAW in state.legal_actions()  # Brown may offer
    state = state.apply("0:4>0:3")
    assert PlatformAction.OFFER_DRAW in state.legal_actions()  # and Blue again, next turn
    with pytest.raises(IllegalAction, match="no draw offer"):
        state.apply("accept-draw")


def test_s13_platform_actions_do_not_count_as_plies() -> None:
    state = new_game().apply("0:-4>0:-3").apply("offer-draw").apply("decline-draw")
    assert state.position.quiet == 1


def test_s14_each_locked_stone_scores_its_controllers_segments() -> None:
    state = game(
        "5:-5",
        "-5:5",
        [("1:-1", 1, "blue"), ("-1:1", 1, "brown"), ("3:-1", 4, "brown")],
        targets=("1:0", "-1:0", "3:0", "-3:0"),
    )
    state = play(state, "1:-1>1:0", "-1:1>-1:0", "5:-5>5:-4", "3:-1>3:0")
    assert state.scores == (1, 4 + 1)  # Blue's b=1; Brown's b=1 (4) and b=4 (1)
    assert state.outcome is not None and state.outcome.winners == (1,)


def test_s14_equal_scores_are_a_draw() -> None:
    state = game(
        "5:-5", "-5:5", [("1:-1", 3, "blue"), ("-1:1", 2, "brown")], targets=("1:0", "-1:0")
    )
    state = play(state, "1:-1>1:0", "-1:1>-1:0")
    assert state.scores == (3, 3)
    assert state.outcome is not None and state.outcome.is_draw


def test_no_action_is_accepted_after_the_end() -> None:
    state = new_game().apply("resign")
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply("0:4>0:3")
