"""Game records, options as data, the conformance suite and property tests."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from otherside.core import BadRecord
from otherside.core.conformance import check_game
from otherside.games import get_game
from otherside.games.versus import (
    GAME,
    BadOptions,
    VersusOptions,
    new_game,
    position_from_view,
    replay,
    view,
)
from otherside.games.versus.rules import EMPTY, STONE0, VERSUS_CODE


def _random_game(seed: int, limit: int = 400):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    state = new_game()
    states = [state]
    while not state.is_over and len(states) < limit:
        state = state.apply(rng.choice(state.legal_plies()))
        states.append(state)
    return states


def test_conformance_suite_passes() -> None:
    report = check_game(get_game("versus"), player_counts=(2,), games_per_count=4)
    assert report.games == 4


def test_record_round_trip_and_json() -> None:
    final = _random_game(3)[-1]
    record = json.loads(json.dumps(final.to_record()))
    assert record["game"] == "versus" and record["options"] == VersusOptions().to_json()
    assert view(replay(record), None) == view(final, None)


def test_replay_names_the_first_bad_action() -> None:
    record = {"game": "versus", "options": {}, "plies": ["0:-4>0:-3", "0:-3>0:-2"]}
    reason = "action 1: '0:-3>0:-2' is illegal: the stone on 0:-3 is controlled by Blue"
    with pytest.raises(BadRecord, match=reason):
        replay(record)
    with pytest.raises(BadRecord, match="not 'versus'"):
        replay({"game": "verso", "plies": []})
    with pytest.raises(BadRecord, match="unknown option"):
        replay({"game": "versus", "options": {"board": 7}, "plies": []})


def test_options_are_data_that_can_change() -> None:
    options = VersusOptions.from_json({"targets": ["0:0"], "quiet_limit": 10})
    assert options.targets == ("0:0",) and options.versus == VersusOptions().versus
    state = new_game(options)
    assert state.to_record()["options"]["targets"] == ["0:0"]
    with pytest.raises(BadOptions, match="share a cell"):
        VersusOptions.from_json({"versus": ["0:-4", "-2:5"]})
    with pytest.raises(BadOptions, match="not stand on a target"):
        VersusOptions.from_json({"versus": ["1:0", "-2:5"]})
    with pytest.raises(ValueError, match="2 players"):
        GAME.new_state(3)


def test_position_from_view_rebuilds_the_position() -> None:
    for state in _random_game(5, limit=60):
        position = position_from_view(view(state, 0))
        assert position.key() == state.position.key()
        assert position.moves() == state.position.moves()


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_pieces_never_overlap_and_locked_stones_never_move(seed: int) -> None:
    states = _random_game(seed)
    locked: dict[int, int] = {}
    locked_owner: dict[int, int] = {}
    for state in states:
        pos = state.position
        assert len(pos.board) == 91
        occupied = [c for c in range(91) if pos.board[c] != EMPTY]
        assert len(occupied) == len(pos.cells) + 2  # nothing created, lost or stacked
        assert pos.board[pos.versus[0]] == VERSUS_CODE[0]
        assert pos.board[pos.versus[1]] == VERSUS_CODE[1]
        for k, cell in enumerate(pos.cells):
            assert pos.board[cell] == STONE0 + k
            if k in locked:
                assert cell == locked[k] and pos.owners[k] == locked_owner[k]
            elif pos.locked(k):
                locked[k] = cell
                locked_owner[k] = pos.owners[k]
        assert not any(pos.edition.is_target[v] for v in pos.versus)
    final = states[-1]
    assert final.scores[0] + final.scores[1] <= 5 * len(final.options.targets)


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_scores_never_decrease(seed: int) -> None:
    previous = (0, 0)
    for state in _random_game(seed):
        assert state.scores[0] >= previous[0] and state.scores[1] >= previous[1]
        previous = state.scores
