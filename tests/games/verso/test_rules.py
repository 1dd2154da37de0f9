"""A scenario per rule id of ``shared/rules/verso.md`` (V4–V18), and the rulebooks' examples."""

from __future__ import annotations

import pytest

from otherside.core import IllegalAction
from otherside.games import verso

from .build import deal, events, tableau


def legal(state: verso.VersoState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


# --------------------------------------------------------------------------- setup V4-V6
def test_v4_dealt_pile_sizes_and_random_faces() -> None:
    for players, size in [(1, 35), (2, 30), (4, 60), (6, 90)]:
        record = verso.new_game(players, seed=players).to_record()
        assert len(record["pile"]) == size
        assert len({frozenset(c.split("/")) for c in record["pile"]}) == size  # distinct cards
    ups = [c.split("/")[0] for c in verso.new_game(6, seed=3).to_record()["pile"]]
    big_up = sum(face[0].isupper() for face in ups)
    assert 20 < big_up < 70  # each card lands with a random face up


def test_v4_same_seed_same_pile_different_seed_different_pile() -> None:
    assert verso.new_game(3, seed=9).to_record() == verso.new_game(3, seed=9).to_record()
    assert verso.new_game(3, seed=9).to_record() != verso.new_game(3, seed=10).to_record()


def test_v5_only_the_top_face_of_the_pile_is_visible() -> None:
    state = verso.new_game(2, pile=["B3/g4", "o*/G1", "g2/B1"])
    view = verso.view(state, 0)
    assert view["top"] == "B3" and view["pile_size"] == 3
    text = str(view)
    assert "g4" not in text and "G1" not in text and "o*" not in text and "B1" not in text


def test_v6_first_player_is_a_parameter_and_play_goes_clockwise() -> None:
    state = verso.new_game(4, seed=1, first_player=2)
    seen = []
    for _ in range(5):
        seen.append(state.current_player)
        state = state.apply("flip")
    assert seen == [2, 3, 0, 1, 2]
    with pytest.raises(ValueError, match="first_player"):
        verso.new_game(3, seed=1, first_player=3)


# --------------------------------------------------------------------------- V7-V9
def test_v7_draw_keeps_the_face_and_flip_turns_it_for_good() -> None:
    state = verso.new_game(2, pile=["B3/g4", "o*/G1", "g2/B1"])
    state = state.apply("draw")
    assert tableau(state, 0) == ["B3"]
    assert verso.view(state, 1)["tableaux"][0]["cards"] == [{"up": "B3", "down": None}]
    state = state.apply("flip")
    assert tableau(state, 1) == ["G1"]
    # once turned, both faces are public
    assert verso.view(state, 0)["tableaux"][1]["cards"] == [{"up": "G1", "down": "o*"}]
    assert events(state, "draw") == [
        {"type": "draw", "player": 1, "face": "G1", "flipped": True, "from": "o*"}
    ]


def test_v8_draw_of_a_duplicate_is_illegal_by_default_flip_stays_legal() -> None:
    state = deal(2, [["B3/g4"], ["o1"]], rest=["b3/G2", "g5", "g6"])
    assert state.current_player == 0 and verso.view(state, 0)["top"] == "b3"
    assert legal(state)[:1] == ["flip"]
    with pytest.raises(IllegalAction, match=r"duplicates .* flip it \(V8\)"):
        state.apply("draw")
    after = state.apply("flip")  # turned: G2, no duplicate
    assert tableau(after, 0) == ["B3", "G2"]


def test_v8_a_flipped_duplicate_is_discarded_never_the_card_already_there() -> None:
    state = deal(2, [["G2/b3"], ["o1"]], rest=["O3/g2", "g5"])
    assert legal(state) == ["draw", "flip"]
    after = state.apply("flip")  # g2 shows after turning: G2 is already there (same colour+value)
    assert tableau(after, 0) == ["G2"]
    assert events(after, "discard") == [
        {"type": "discard", "player": 0, "card": {"up": "g2", "down": "O3"}, "reason": "duplicate"}
    ]


def test_v8_two_stars_of_one_colour_are_duplicates() -> None:
    state = deal(2, [["g*/B1"], ["o1"]], rest=["g*/B3", "g5"])
    assert "draw" not in legal(state)


def test_v8_variant_allow_duplicate_keep_lets_draw_discard_the_card() -> None:
    state = deal(2, [["B3/g4"], ["o1"]], rest=["b3/G2", "g5"], allow_duplicate_keep=True)
    assert legal(state)[:2] == ["draw", "flip"]
    after = state.apply("draw")
    assert tableau(after, 0) == ["B3"]
    (discard,) = events(after, "discard")
    assert discard["card"] == {"up": "b3", "down": None}  # never turned: its back stays hidden
    assert verso.view(after, 1)["discards"] == [{"up": "b3", "down": None}]


def test_v9_rows_per_colour_sorted_by_value_star_last() -> None:
    fillers = ["B1/g*", "G1/o*", "O2/g*", "B2/o*", "G3/o*"]
    state = deal(1, [["O5", "b*/G2", "B4", "b2", "g1"]], solo_fillers=fillers, rest=["g6"])
    assert tableau(state, 0) == ["b2", "B4", "b*", "g1", "O5"]


# --------------------------------------------------------------------------- V10 series
def test_v10_the_rulebook_list_of_series_with_orange_5_6_and_a_star() -> None:
    state = deal(2, [["o5", "o6", "o*"], ["B1", "B2", "G4"]], rest=["g1", "g3"])
    assert legal(state) == [
        "draw",
        "flip",
        "series orange *4 5",
        "series orange *4 5 6",
        "series orange 5 6",
        "series orange *5 6",
        "series orange 5 *6",
    ]


def test_v10_no_wrap_no_gap_two_to_six_cards_one_star_value() -> None:
    state = deal(2, [["b5", "B6", "b1"], ["o1", "o2", "o3"]], rest=["g1", "g3"])
    for text, reason in [
        ("series blue 6 1", "not followed"),
        ("series blue 5", "2 to 6"),
        ("series blue 1 2 3 4 5 6 7", "not a value"),
        ("series blue 5 *5", "not followed"),
        ("series blue *4 *5", "at most one star"),
        ("series purple 1 2", "blue, green or orange"),
    ]:
        with pytest.raises(ValueError, match=reason):
            state.apply(text)
    with pytest.raises(IllegalAction, match=r"no blue 4 \(V10\)"):
        state.apply("series blue 4 5 6")
    with pytest.raises(IllegalAction, match="no blue star"):
        state.apply("series blue *4 5")


# --------------------------------------------------------------------------- V11 banking
def test_v11_rulebook_example_3_star_5_and_the_neighbour_whose_blue_1_becomes_green_6() -> None:
    """Florian banks blue 3-*-5 for 5 points, discarding the star (as 4) and the 5; his
    neighbour Dominik turns his blue 1 (not his star): a green 6, which he already has."""
    florian = ["b3/G2", "b*/G4", "B5/g4"]
    dominik = ["b1/G6", "b*/O1", "g6/B5"]
    third = ["o2", "o3", "o4"]
    state = deal(3, [florian, dominik, third], rest=["g1", "g3"])
    after = state.apply("series blue 3 *4 5")
    assert after.scores == (5, 0, 0)
    assert tableau(after, 0) == ["b3"]
    assert tableau(after, 1) == ["b*", "g6"]
    assert tableau(after, 2) == ["o2", "o3", "o4"]
    assert events(after, "turn") == [{"type": "turn", "player": 1, "from": "b1", "to": "G6"}]
    discards = [(e["player"], e["card"]["up"], e["reason"]) for e in events(after, "discard")]
    assert discards == [(1, "G6", "duplicate"), (0, "B5", "series"), (0, "b*", "series")]
    assert after.current_player == 1


def test_v11_a_lone_star_is_turned_and_no_card_means_nothing_to_turn() -> None:
    state = deal(3, [["b1", "b2", "g1"], ["b*/O3", "g2", "g3"], ["o2", "o3", "o4"]], rest=["g5"])
    after = state.apply("series blue 1 2")
    assert events(after, "turn") == [{"type": "turn", "player": 1, "from": "b*", "to": "O3"}]
    assert tableau(after, 1) == ["g2", "g3", "O3"]
    assert tableau(after, 2) == ["o2", "o3", "o4"]
    assert after.scores == (2, 0, 0)


def test_v11_two_players_the_single_opponent_turns_once() -> None:
    state = deal(2, [["b1", "b2", "g1"], ["B5/g4", "B6/o5", "g2"]], rest=["g5"])
    after = state.apply("series blue 1 2")
    assert [e["player"] for e in events(after, "turn")] == [1]
    assert tableau(after, 1) == ["B5", "g2", "o5"]


def test_v11_long_series_discards_only_the_two_highest() -> None:
    state = deal(2, [["b1", "B2", "b3", "B4"], ["o1", "o2", "o3", "o4"]], rest=["g1"])
    after = state.apply("series blue 1 2 3 4")
    assert after.scores[0] == 1 + 3 + 1 + 3
    assert tableau(after, 0) == ["b1", "B2"]


# --------------------------------------------------------------------------- V12 squares
def _lisa() -> verso.VersoState:
    lisa = ["b1", "b2", "b3", "o1", "o2", "o3", "g1", "g2"]
    other = ["B1", "B2", "B3", "B4", "B5", "B6", "G1", "G2"]
    return deal(2, [lisa, other], rest=["g3", "G5", "g4", "G6", "o6", "b2", "o5", "b3", "g6"])


def test_v12_rulebook_example_square_completed_by_a_draw() -> None:
    """Lisa draws her third green card with 3 blue and 3 orange: 7 points at once."""
    after = _lisa().apply("draw")
    assert after.scores == (7, 0)
    assert events(after, "square") == [{"type": "square", "player": 0, "points": 7}]
    assert verso.view(after, 1)["tableaux"][0]["square"] is True


def test_v12_no_second_square_until_broken_then_scored_again() -> None:
    state = _lisa().apply("draw").apply("draw")  # Lisa's square (g3); the other draws G5
    state = state.apply("draw")  # g4, a tenth card: still the same square (count may exceed 9)
    assert state.scores[0] == 7 and not events(state, "square")
    state = state.apply("draw").apply("series blue 1 2 3")  # breaks it: one blue left
    assert state.scores[0] == 7 + 3 and events(state, "square_broken")
    assert not state.has_square(0)
    state = state.apply("draw").apply("draw")  # the other draws o6, Lisa b2 (2 blue)
    assert not events(state, "square")
    state = state.apply("draw").apply("draw")  # o5, then b3 (3 blue): a new square
    assert events(state, "square") and state.scores[0] == 7 + 3 + 7


def test_v12_rulebook_example_square_completed_by_a_neighbours_turn() -> None:
    """Berenike banks green 2-3 (4 points); Dominik's green 6 turns into an orange 1, his third
    orange card: he scores a square on her turn."""
    berenike = ["g2", "G3", "b1", "b2", "b3", "b4", "o4", "o5", "b5"]
    dominik = ["B4", "B5", "B6", "g1", "g2", "g4", "o2", "o3", "G6/o1"]
    state = deal(2, [berenike, dominik], rest=["g5"])
    after = state.apply("series green 2 3")
    assert after.scores == (4, 7)
    assert events(after, "square") == [{"type": "square", "player": 1, "points": 7}]


# --------------------------------------------------------------------------- V13-V15 end
def test_v13_the_game_ends_when_the_last_card_is_taken_squares_included() -> None:
    lisa = ["b1", "b2", "b3", "o1", "o2", "o3", "g1", "g2"]
    other = ["B1", "B2", "B3", "B4", "B5", "B6", "G1", "G2"]
    state = deal(2, [lisa, other], rest=["g3"])
    after = state.apply("draw")
    assert after.pile_size == 0 and after.scores[0] == 7
    assert after.phase_name == "final"  # the final series of V14 follow


def test_v14_final_series_from_the_next_player_no_turns_players_without_series_skipped() -> None:
    hands = [["b1", "b2", "g5"], ["o1", "g3", "b5"], ["G1", "G2", "o4"]]
    state = deal(3, hands, rest=["O6"])
    state = state.apply("draw")  # player 0 empties the pile
    assert state.phase_name == "final"
    assert state.current_player == 2  # player 1 has no series: skipped
    assert legal(state) == ["series green 1 2", "pass"]
    state = state.apply("series green 1 2")
    assert tableau(state, 1) == ["b5", "g3", "o1"]  # no neighbour turns in the final round
    assert state.current_player == 0
    assert legal(state) == ["series blue 1 2", "pass"]
    with pytest.raises(IllegalAction, match="V14"):
        state.apply("draw")
    state = state.apply("pass")
    assert state.is_over and state.current_player is None and state.legal_actions() == []
    assert state.scores == (0, 0, 6)


def test_v14_pass_is_only_for_the_final_series() -> None:
    state = verso.new_game(2, seed=4)
    with pytest.raises(IllegalAction, match=r"final series \(V14\)"):
        state.apply("pass")


def test_v15_highest_score_wins_and_ties_share_the_victory() -> None:
    state = verso.new_game(2, pile=["B3/g4", "o*/G1"]).apply("draw").apply("draw")
    assert state.is_over
    assert state.outcome is not None and state.outcome.winners == (0, 1)
    hands = [["b1", "b2", "g5"], ["o1", "g3", "b5"], ["G1", "G2", "o4"]]
    state = deal(3, hands, rest=["O6"]).apply("draw").apply("series green 1 2").apply("pass")
    assert state.outcome is not None and state.outcome.winners == (2,)


# --------------------------------------------------------------------------- V16-V18 solo
def test_v16_opponent_card_higher_down_face_makes_you_turn_your_highest_of_its_colour() -> None:
    state = verso.new_game(1, pile=["b2/G3", "g*/B1", "B5/g4", "o3/B4", "g1/O2", "O2/g*"])
    state = state.apply("draw")  # b2; the opponent's g*/B1 has a star: nothing happens
    assert events(state, "opponent")[0]["effect"] == "none" and tableau(state, 0) == ["b2"]
    state = state.apply("draw")  # B5
    (opponent,) = events(state, "opponent")  # o3 under which B4: 4 > 3, turn the highest blue
    assert opponent == {"type": "opponent", "card": {"up": "o3", "down": "B4"}, "effect": "turn"}
    assert events(state, "turn") == [{"type": "turn", "player": 0, "from": "B5", "to": "g4"}]
    assert tableau(state, 0) == ["b2", "g4"]
    assert {"up": "o3", "down": "B4"} in verso.view(state, 0)["discards"]


def test_v16_star_faces_and_lower_or_wrapped_down_faces_do_nothing() -> None:
    # opponent cards: g*/B1 (a star), B6/o1 (1 under 6 is not greater), O3/b2 (lower)
    pile = ["b1/G2", "g*/B1", "b3/O4", "B6/o1", "b4/G5", "O3/b2", "g1/O2"]
    state = verso.new_game(1, pile=pile)
    for _ in range(3):
        state = state.apply("draw")
        assert events(state, "opponent")[0]["effect"] == "none"
        assert not events(state, "turn")
    assert tableau(state, 0) == ["b1", "b3", "b4"]


def test_v16_a_turned_card_that_duplicates_is_discarded_and_a_square_can_score() -> None:
    # My blue 2 (back G3) is turned by the opponent's o1/B2: G3 duplicates my G3 -> discarded.
    pile = ["G3/o2", "O2/g*", "b2/G3", "o1/B2", "g6/B5", "g*/B3"]
    state = verso.new_game(1, pile=pile)
    state = state.apply("draw").apply("draw")
    assert events(state, "turn") == [{"type": "turn", "player": 0, "from": "b2", "to": "G3"}]
    assert events(state, "discard")[0]["card"] == {"up": "G3", "down": "b2"}
    assert tableau(state, 0) == ["G3"]


def test_v16_square_scored_on_the_opponents_turn() -> None:
    """3 blue, 4 green, 2 orange; the opponent's o4/G5 (5 > 4, green) turns my G4 into an o3:
    3 of every colour, a square on the opponent's turn."""
    mine = ["b1", "b2", "b3", "g1", "g2", "g3", "G4/o3", "o1", "o2"]
    fillers = ["B1/g*", "G1/o*", "O2/g*", "B2/o*", "G3/o*", "B3/g*", "O1/b*", "B4/o*", "o4/G5"]
    state = deal(1, [mine], solo_fillers=fillers, rest=["g6"])
    assert events(state, "turn") == [{"type": "turn", "player": 0, "from": "G4", "to": "o3"}]
    assert events(state, "square") == [{"type": "square", "player": 0, "points": 7}]
    assert state.scores == (7,)


def test_v16_nobody_turns_when_you_bank_solo() -> None:
    state = verso.new_game(1, pile=["b1/G2", "B1/g*", "b2/O3", "B3/g*", "g1/O2", "G1/o*", "g2/B1"])
    state = state.apply("draw").apply("draw").apply("series blue 1 2")
    assert state.scores == (2,) and not events(state, "turn")


def test_v17_final_series_after_the_pile_empties_then_the_end() -> None:
    state = verso.new_game(1, pile=["b1/G2", "B1/g*", "b2/O3", "B3/g*"])
    state = state.apply("draw")
    assert state.phase_name == "play"
    state = state.apply("draw")  # the opponent takes the last card: pile empty
    assert state.phase_name == "final" and legal(state) == ["series blue 1 2", "pass"]
    state = state.apply("series blue 1 2")
    assert state.is_over and state.scores == (2,)
    assert verso.view(state, 0)["rating"] == "below 35"


def test_v18_rating_bands() -> None:
    assert [verso.rating(s) for s in (70, 60, 59, 55, 50, 45, 44, 40, 39, 35, 34, 0)] == [
        "60+ Deck legend",
        "60+ Deck legend",
        "55-59 A true pro",
        "55-59 A true pro",
        "50-54 A model player",
        "45-49 What talent",
        "40-44 Nice move",
        "40-44 Nice move",
        "35-39 The average Verso score",
        "35-39 The average Verso score",
        "below 35",
        "below 35",
    ]


def test_v8_kept_unflipped_rulebook_example_orange_5() -> None:
    """Berenike draws an orange 5 without turning it: its back could be a blue or green 6, both
    of which she holds. Kept as it shows, its back stays unknown to everyone."""
    state = deal(2, [["B6", "G6"], ["o1", "o2"]], rest=["o5/B6", "g1"])
    kept = state.apply("draw")
    assert tableau(kept, 0) == ["B6", "G6", "o5"]
    assert verso.view(kept, 1)["tableaux"][0]["cards"][2] == {"up": "o5", "down": None}
    flipped = state.apply("flip")  # had she turned it: a blue 6, discarded at once
    assert tableau(flipped, 0) == ["B6", "G6"]
    assert events(flipped, "discard")[0]["reason"] == "duplicate"
