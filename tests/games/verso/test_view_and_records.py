"""V19 views and the game record: what is shown, what is hidden, records that replay exactly."""

from __future__ import annotations

import json
import random

import pytest

from otherside.core import BadRecord
from otherside.core.conformance import check_game
from otherside.games import verso


def _random_game(players: int, seed: int, steps: int | None = None) -> verso.VersoState:
    rng = random.Random(seed)
    state = verso.new_game(players, seed=seed)
    while not state.is_over and (steps is None or state.version < steps):
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def test_conformance_suite_for_one_to_six_players() -> None:
    report = check_game(verso.GAME, games_per_count=2)
    assert report.games == 12 and report.actions > 500


def test_v19_view_keys_and_spectator_sees_the_same_public_data() -> None:
    state = _random_game(4, 11, steps=25)
    seat = verso.view(state, 2)
    spectator = verso.view(state, None)
    assert spectator["player"] is None and seat["player"] == 2
    assert {k: v for k, v in seat.items() if k != "player"} == {
        k: v for k, v in spectator.items() if k != "player"
    }
    assert set(seat) >= {"tableaux", "scores", "pile_size", "top", "discards", "current_player"}
    json.dumps(seat)


def test_each_view_is_a_dict_of_its_own_and_the_next_state_is_seen_afresh() -> None:
    state = _random_game(2, 5, steps=12)
    first, second = verso.view(state, 0), verso.view(state, 0)
    assert first == second and first is not second
    first["tableaux"] = []  # a reader replacing a part of its view changes no other view
    assert verso.view(state, 1)["tableaux"] == second["tableaux"] != []
    after = state.apply(state.legal_actions()[0])
    assert verso.view(after, 0)["version"] == state.version + 1
    assert verso.view(after, 0)["events"] != second["events"] or after.events == state.events


def test_v19_a_down_face_is_shown_exactly_for_cards_turned_at_some_time() -> None:
    for seed in range(8):
        state = _random_game(3, seed, steps=30)
        view = verso.view(state, 0)
        assert "pile" not in view  # only the pile size and its top face
        for p, tableau in enumerate(view["tableaux"]):
            for card, oc in zip(tableau["cards"], state.tableau(p), strict=True):
                assert card["up"] == verso.face_name(verso.cards.UP[oc])
                assert (card["down"] is not None) == state.is_shown(oc)


def test_views_do_not_change_when_every_unseen_face_is_redrawn() -> None:
    for seed in range(5):
        state = _random_game(6, seed, steps=40)
        for k in range(3):
            other = verso.redeal(state, 0, random.Random(k))
            assert verso.view(other, 0) == verso.view(state, 0)
            assert other.to_record()["pile"] != state.to_record()["pile"]


def test_determinize_gives_a_state_with_the_same_view() -> None:
    for players in (1, 3, 6):
        state = _random_game(players, 5, steps=20)
        view = verso.view(state, 0)
        sample = verso.determinize(view, random.Random(1))
        mine = verso.view(sample, 0)
        for key in (
            "tableaux",
            "scores",
            "top",
            "pile_size",
            "current_player",
            "phase",
            "discards",
        ):
            assert mine[key] == view[key], key
        assert [str(a) for a in sample.legal_actions()] == [str(a) for a in state.legal_actions()]


def test_record_round_trip_and_replay_step_by_step() -> None:
    for players in (1, 2, 5):
        state = _random_game(players, 3)
        record = json.loads(json.dumps(state.to_record()))
        assert set(record) == {"game", "players", "options", "pile", "actions"}
        again = verso.replay(record)
        assert again.to_record() == record and again.scores == state.scores
        assert [s.version for s in again.iter_states()] == list(range(len(record["actions"]) + 1))


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r.update(game="versus"), "record of 'versus'"),
        (lambda r: r.update(players=7), "players must be an integer from 1 to 6"),
        (lambda r: r.update(pile="B3/g4"), "'pile' must be a list"),
        (lambda r: r["pile"].__setitem__(0, "B3/g3"), "no card of the deck"),
        (lambda r: r["pile"].__setitem__(1, r["pile"][0]), "same card"),
        (lambda r: r["actions"].insert(0, "pass"), "action 0: 'pass' is illegal"),
        (lambda r: r["actions"].append("flip"), "is illegal: the game is over"),
        (lambda r: r["actions"].__setitem__(2, "dance"), "action 2: 'dance'"),
        (lambda r: r.update(options={"turbo": True}), "unknown options"),
    ],
)
def test_bad_records_are_rejected_with_a_clear_message(mutate, message) -> None:  # type: ignore[no-untyped-def]
    record = _random_game(2, 8).to_record()
    mutate(record)
    with pytest.raises(BadRecord, match=message):
        verso.replay(record)


def test_a_rejected_action_changes_nothing() -> None:
    state = _random_game(3, 2, steps=10)
    before = (state.to_record(), verso.view(state, 0))
    for bad in ["pass", "series blue 1 2 3 4 5 6", "xyz"]:
        with pytest.raises(ValueError):
            state.apply(bad)
    assert (state.to_record(), verso.view(state, 0)) == before
