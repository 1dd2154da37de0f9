"""R12–R17: tokens, rounds, the clock and the score, the end, the cooperative levels, views."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from otherside.core import IllegalAction
from otherside.core.conformance import check_game
from otherside.games.rectoverso import GAME, RectoVersoGame, new_game, replay
from otherside.games.rectoverso.cards import standard_cards, standard_construction
from otherside.games.rectoverso.flow import LEVEL_LIMITS, RectoVersoState, points_for, token_sets

from .helpers import FakeClock, build_order


def _build_card(state: RectoVersoState) -> RectoVersoState:
    """Both partners build the round's card: recto places everything, by notation."""
    assert state.card is not None
    for placement in build_order(standard_construction(state.card)):
        state = state.apply(f"place {placement}")
    return state


def test_r12_tokens_one_per_other_player_two_with_three() -> None:
    for players in (3, 4, 5, 6):
        state = GAME.new_state(players, seed=players)
        for seat, tokens in enumerate(state.tokens):
            copies = 2 if players == 3 else 1
            assert Counter(tokens) == {o: copies for o in range(players) if o != seat}
    assert sorted(token_sets(4)[0]) == [1, 2, 3]


def test_r13_a_round_partner_card_clock_and_both_done() -> None:
    clock = FakeClock()
    game = RectoVersoGame(clock=clock)
    state = game.new_state(4, seed=1)
    assert state.legal_actions() == [state.parse_action("turn")]
    partner = state.tokens[0][0]
    state = state.apply("turn")
    assert (state.recto, state.verso, state.phase) == (0, partner, "build")
    assert state.turned[0] == (partner,)
    # the verso partner acts at will, though the serialisation expects the recto partner
    order = build_order(standard_construction(state.card or 0))
    state = state.apply_as(partner, f"place {order[0]}")
    for placement in order[1:]:
        state = state.apply(f"place {placement}")
    clock.now += 15
    state = state.apply("done")  # recto says "Recto"
    assert state.current_player == partner
    with pytest.raises(IllegalAction, match="has said done"):
        state.apply_as(0, "remove black")
    with pytest.raises(IllegalAction, match="not building"):
        state.apply_as(next(p for p in range(4) if p not in (0, partner)), "done")
    state = state.apply("done")  # verso says "Verso": the clock stops
    result = state.results[-1]
    assert (result.matched, result.points, result.seconds) == (True, 6, 15.0)
    assert state.totals[0] == state.totals[partner] == 6 and sum(state.totals) == 12
    assert state.phase == "start" and state.active == 1


def test_r14_score_table_by_time() -> None:
    assert [points_for(s) for s in (0, 20, 21, 40, 60, 80, 100, 120, 120.5)] == [
        6, 6, 5, 5, 4, 3, 2, 1, 0,
    ]  # fmt: skip


def test_r14_a_construction_that_does_not_match_scores_nothing() -> None:
    clock = FakeClock()
    state = RectoVersoGame(clock=clock).new_state(3, seed=2).apply("turn")
    state = state.apply("done").apply("done")
    assert state.results[-1].matched is False and state.totals == (0, 0, 0)


def test_r14_after_120_seconds_the_round_ends_with_no_score() -> None:
    clock = FakeClock()
    state = RectoVersoGame(clock=clock).new_state(3, seed=2).apply("turn")
    state = _build_card(state)
    clock.now += 120.5
    assert [str(a) for a in state.legal_actions()] == ["timeout"]
    with pytest.raises(IllegalAction, match=r"time is up \(120 s\)"):
        state.apply("done")
    state = state.apply("timeout")
    assert state.results[-1].reason == "time is up" and state.totals == (0, 0, 0)
    with pytest.raises(IllegalAction, match="to turn"):
        state.apply("timeout")


def test_r15_everyone_active_equally_often_and_the_game_ends_when_tokens_are_turned() -> None:
    state = RectoVersoGame(seconds_per_action=60).new_state(3, seed=5)
    actives = []
    while not state.is_over:
        if state.phase == "start":
            actives.append(state.active)
        state = state.apply(state.legal_actions()[-1])  # "done" while it is legal
    assert actives == [0, 1, 2] * 4
    assert state.outcome is not None and state.outcome.reason == "every token is turned (R15)"
    assert not any(state.tokens) and all(len(t) == 4 for t in state.turned)


def test_r15_ties_share_the_victory() -> None:
    clock = FakeClock()
    state = RectoVersoGame(clock=clock).new_state(3, seed=3)
    while not state.is_over:
        state = state.apply("turn")
        state = _build_card(state)
        state = state.apply("done").apply("done")
    assert state.outcome is not None
    assert set(state.outcome.winners) == {0, 1, 2}  # everyone built 8 cards in 0 s
    assert state.totals == (48, 48, 48)


def test_r16_cooperative_levels_climb_retry_and_crown() -> None:
    clock = FakeClock()
    state = RectoVersoGame(clock=clock).new_state(2, seed=4)
    assert [str(a) for a in state.legal_actions()] == ["reveal"]
    # level 1: too slow (90 s), try again with a new card
    state = _build_card(state.apply("reveal"))
    clock.now += 91
    state = state.apply("timeout")
    assert state.level == 0 and state.results[-1].points == 0
    for level, limit in enumerate(LEVEL_LIMITS):
        revealer = state.current_player
        state = _build_card(state.apply("reveal"))
        # The partners take turns: who reveals builds recto, the other verso.
        assert (state.recto, state.verso) == (revealer, 1 - revealer)
        assert state.limit == limit
        clock.now += limit
        state = state.apply_as(state.recto, "done").apply_as(state.verso, "done")
        assert state.level == level + 1
    assert state.is_over and state.outcome is not None
    assert state.outcome.reason == "level 7 cleared: builder king"
    assert state.scores == (7, 7)


def test_r16_the_partners_take_turns_at_revealing_and_at_the_recto_side() -> None:
    state = GAME.new_state(2, seed=1, options={"deck": [3, 4, 5]})
    sides = []
    for _ in range(3):
        state = state.apply("reveal")
        sides.append((state.recto, state.verso))
        state = state.apply_as(state.recto, "done").apply_as(state.verso, "done")
    assert sides == [(0, 1), (1, 0), (0, 1)]


def test_r16_the_game_ends_when_the_cards_run_out() -> None:
    state = GAME.new_state(2, seed=1, options={"deck": [3, 4]})
    for _ in range(2):
        state = state.apply("reveal").apply("done").apply("done")
    assert state.is_over and state.outcome is not None
    assert state.outcome.reason == "no card left (0 levels cleared)"


def test_r17_partners_see_their_own_side_only_others_see_everything() -> None:
    state = GAME.new_state(3, seed=8).apply("turn")
    state = state.apply(f"place {build_order(standard_construction(state.card or 0))[0]}")
    recto, verso = state.recto, state.verso
    other = next(p for p in range(3) if p not in (recto, verso))
    card = state.current_card
    assert card is not None
    mine = GAME.view(state, recto)
    assert mine["card"] == {"front": list(card.front)}
    assert mine["construction"] == {"front": list(state.construction.front_view())}
    theirs = GAME.view(state, verso)
    assert theirs["card"] == {"back": list(card.back)}
    assert set(theirs["construction"]) == {"back"}
    for partner_view in (mine, theirs):
        assert partner_view["top"] == list(state.construction.top_view())
        assert partner_view["clock"]["limit"] == 120
        assert len(partner_view["unplaced"]) == 9
        text = json.dumps(partner_view)
        assert "placements" not in text and str(card.number) not in json.dumps(partner_view["card"])
    everything = GAME.view(state, other)
    assert everything["card"]["number"] == card.number
    assert set(everything["construction"]) == {"front", "back", "placements"}
    # Without a seat, only what both builders see while the round is played.
    spectator = GAME.view(state, None)
    assert spectator["card"] is None and spectator["construction"] is None
    assert spectator["top"] == mine["top"] and spectator["unplaced"] == mine["unplaced"]


def test_r17_spectators_see_a_round_whole_once_it_is_over() -> None:
    state = GAME.new_state(2, seed=3).apply("reveal")
    card = state.card
    first = build_order(standard_construction(card or 0))[0]
    state = state.apply_as(0, f"place {first}")
    assert "placements" not in json.dumps(GAME.view(state, None))
    state = state.apply_as(0, "done").apply_as(1, "done")
    (finished,) = GAME.view(state, None)["rounds"]
    assert finished["card"] == card and finished["placements"] == [str(first)]


def test_r17_the_building_at_the_end_both_sides_but_to_its_builders() -> None:
    # The page's "building at the end" is drawn from the view between rounds, for a spectator
    # too (who had no side while the round was played), at 3 to 6 players and at 2.
    for players in (3, 2):
        state = GAME.new_state(players, seed=8).apply("turn" if players > 2 else "reveal")
        card = state.current_card
        assert card is not None
        recto, verso = state.recto, state.verso
        assert all(GAME.view(state, p)["last"] is None for p in (None, *range(players)))
        state = _build_card(state)
        built = state.construction
        state = state.apply_as(recto or 0, "done").apply_as(verso or 0, "done")
        assert state.phase == "start" and state.results[-1].matched
        both = {
            "card": {"front": list(card.front), "back": list(card.back)},
            "construction": {"front": list(built.front_view()), "back": list(built.back_view())},
        }
        seated = [p for p in range(players) if p not in (recto, verso)]
        for reader in (None, *seated):
            assert GAME.view(state, reader)["last"] == both, (players, reader)
        for builder, side in ((recto, "front"), (verso, "back")):
            own = GAME.view(state, builder)["last"]
            assert own == {
                "card": {side: both["card"][side]},
                "construction": {side: both["construction"][side]},
            }
        # The next round hides it again; it is the next round's once that one is over.
        state = state.apply("turn" if players > 2 else "reveal")
        assert GAME.view(state, None)["last"] is None


def test_records_replay_exactly_with_the_clock_readings() -> None:
    clock = FakeClock()
    game = RectoVersoGame(clock=clock)
    state = game.new_state(3, seed=9).apply("turn")
    order = build_order(standard_construction(state.card or 0))
    for placement in order:
        clock.now += 3
        state = state.apply(f"place {placement}")
    state = state.apply("done").apply("done")
    record = json.loads(json.dumps(state.to_record()))
    assert record["at"][1:4] == [3.0, 6.0, 9.0]
    again = game.replay(record)
    assert again.results == state.results and again.totals == state.totals
    assert replay(GAME.new_state(2, seed=1).apply("reveal").to_record()).phase == "build"


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="2 to 6 players"):
        GAME.new_state(7)
    with pytest.raises(ValueError, match="unknown option 'colour'"):
        GAME.new_state(3, options={"colour": "red"})
    with pytest.raises(ValueError, match="card 40 is hard, not easy"):
        GAME.new_state(3, options={"deck": [40]})
    assert new_game(3, seed=1, difficulty="hard").deck[0] > 32


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_conformance_with_the_simulated_clock(players: int) -> None:
    check_game(RectoVersoGame(seconds_per_action=30), player_counts=[players], games_per_count=1)


def test_conformance_with_a_fixed_clock_and_a_short_deck() -> None:
    class ShortDeck(RectoVersoGame):
        def new_state(self, players, *, seed=None, options=None):  # type: ignore[no-untyped-def]
            return super().new_state(players, seed=seed, options={"deck": [1, 2]})

    # a fixed clock: rounds end only by "done" from both, no timeout ever
    check_game(ShortDeck(clock=lambda: 0.0), player_counts=[2], games_per_count=1)


def test_states_are_immutable_values() -> None:
    state = GAME.new_state(3, seed=4).apply("turn")
    before = GAME.view(state, None)
    after = state.apply(state.legal_actions()[0])
    assert GAME.view(state, None) == before and after != state
    assert len({state, GAME.new_state(3, seed=4).apply("turn")}) == 1
    with pytest.raises(IllegalAction):
        state.apply("remove yellow")
    assert GAME.view(state, None) == before


def test_generated_cards_come_from_the_seed_replay_and_keep_the_secret() -> None:
    """R11: a game may use 32 new cards made from its seed instead of the standard set."""
    options = {"difficulty": "hard", "cards": "generated"}
    state = GAME.new_state(3, seed=11, options=options)
    again = GAME.new_state(3, seed=11, options=options)
    other = GAME.new_state(3, seed=12, options=options)
    assert state.deck == again.deck and all(n > 100 for n in state.deck)
    assert state.card_numbered(state.deck[0]) != other.card_numbered(state.deck[0])
    state = state.apply("turn")
    card = state.current_card
    assert card is not None and card.number == state.card and card.difficulty == "hard"
    assert card not in standard_cards("hard")
    replayed = GAME.replay(json.loads(json.dumps(state.to_record())))
    assert replayed.current_card == card and replayed.to_record()["options"] == options
    for player in state.builders:
        redealt = GAME.redeal(state, player, random.Random(3))
        assert GAME.view(redealt, player) == GAME.view(state, player)
    with pytest.raises(ValueError, match="cards must be one of standard, generated"):
        GAME.new_state(2, seed=1, options={"cards": "random"})
    with pytest.raises(ValueError, match="leave it out"):
        GAME.new_state(2, seed=1, options={"cards": "generated", "deck": [1]})
