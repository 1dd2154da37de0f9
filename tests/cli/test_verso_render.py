"""The terminal rendering of Verso views and events (plain text, colour aside)."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from otherside.cli.verso_render import card_text, describe_events, render_board, render_results
from otherside.games import verso

NAMES = ["You", "random 1", "random 2"]


def plain(renderable: object, width: int = 80) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("event", "text"),
    [
        ({"type": "draw", "player": 0, "face": "B3", "flipped": False}, "You drew  B3"),
        (
            {"type": "draw", "player": 1, "face": "o*", "flipped": True, "from": "G1"},
            "random 1 flipped  G1  →  o★",
        ),
        (
            {
                "type": "discard",
                "player": 2,
                "card": {"up": "g4", "down": None},
                "reason": "duplicate",
            },
            "g4  duplicates a card in random 2's tableau: discarded (rule V8: no duplicates)",
        ),
        (
            {
                "type": "discard",
                "player": 0,
                "card": {"up": "g4", "down": "B3"},
                "reason": "duplicate",
            },
            "g4 ↓B3 duplicates a card in your tableau",
        ),
        (
            {
                "type": "series",
                "player": 0,
                "colour": "blue",
                "values": [3, 4, 5],
                "star": 4,
                "points": 5,
                "text": "series blue 3 *4 5",
            },
            "You banked blue 3 *4 5  +5 VP",
        ),
        (
            {"type": "turn", "player": 1, "from": "b6", "to": "G1"},
            "random 1's  b6  turned over →  G1",
        ),
        ({"type": "square", "player": 2, "points": 7}, "Square! random 2 holds 3 cards of every"),
        ({"type": "square_broken", "player": 0}, "Your square is broken"),
        (
            {"type": "opponent", "card": {"up": "o*", "down": "B2"}, "effect": "none"},
            "The opponent took  o★ ↓B2: no effect",
        ),
        (
            {"type": "opponent", "card": {"up": "B5", "down": "o6"}, "effect": "turn"},
            "The opponent took  B5 ↓o6: you hold no orange card to turn (rule V16: solo opponent)",
        ),
        ({"type": "pass", "player": 1}, "random 1 passed"),
        ({"type": "final"}, "each player may bank one last series (rule V14: last series)"),
        ({"type": "end", "reason": "pile empty"}, "Game over: pile empty."),
    ],
)
def test_each_event_is_described_in_words(event: dict, text: str) -> None:
    (line,) = describe_events([event], NAMES)
    assert text in line.plain


def test_series_discards_are_gathered_on_one_line() -> None:
    """V11.4: the two highest cards of the series leave together."""
    events = [
        {
            "type": "series",
            "player": 0,
            "colour": "green",
            "values": [1, 2, 3],
            "star": None,
            "points": 3,
            "text": "series green 1 2 3",
        },
        {"type": "discard", "player": 0, "card": {"up": "g3", "down": None}, "reason": "series"},
        {"type": "discard", "player": 0, "card": {"up": "G2", "down": "o1"}, "reason": "series"},
    ]
    lines = [line.plain for line in describe_events(events, NAMES)]
    assert len(lines) == 2
    assert lines[1] == "You discarded  g3   G2 ↓o1 (the two highest of the series)"


def test_solo_opponent_turn_is_followed_by_the_turned_card() -> None:
    """V16: the opponent's card makes you turn your highest card of its down face's colour."""
    events = [
        {"type": "opponent", "card": {"up": "g3", "down": "O4"}, "effect": "turn"},
        {"type": "turn", "player": 0, "from": "o5", "to": "B4"},
    ]
    lines = [line.plain for line in describe_events(events, ["You"], solo=True)]
    assert lines == [
        "The opponent took  g3 ↓O4: you turn your highest orange card (rule V16: solo opponent)",
        "Your  o5  turned over →  B4 ",
    ]


def test_solo_final_event_names_v17() -> None:
    (line,) = describe_events([{"type": "final"}], ["You"], solo=True)
    assert "you may bank one last series (rule V17: solo end)" in line.plain


@pytest.mark.parametrize("players", [1, 2, 3, 6])
def test_every_event_of_real_games_has_words(players: int) -> None:
    """Events the engine really emits all have a description (no raw dict shown)."""
    rng = random.Random(players)
    names = [f"p{i}" for i in range(players)]
    for seed in range(3):
        state = verso.new_game(players, seed=seed)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            for line in describe_events(state.events, names, state.solo):
                assert line.plain and "{'type'" not in line.plain


def test_board_shows_rows_per_colour_scores_squares_and_turn() -> None:
    pile = ["B3/g4", "b5/O4", "o1/G2", "g2/B1"]
    state = verso.new_game(2, pile=pile).apply("draw").apply("flip")
    text = plain(render_board(verso.view(state, 0), ["You", "random 1"], me=0))
    assert "Pile 2 cards   top  o1   (its other side is hidden)" in text
    rows = [line for line in text.splitlines() if "blue" in line or "orange" in line]
    assert "B3" in rows[0] and "▶ You" in rows[0]
    # random 1 flipped b5: O4 is up and its down face b5 is public now (V19).
    assert any("orange" in r and "O4 ↓b5" in r for r in rows)
    assert "▶ You to play — draw keeps  o1 , flip takes its other side" in text


def test_board_says_when_draw_is_refused_for_a_duplicate() -> None:
    """V8 decision: the board tells the player why only flip is offered."""
    state = verso.new_game(2, pile=["B3/g4", "b5/O4", "B3/o2", "g2/B1"])
    state = state.apply("draw").apply("draw")
    text = plain(render_board(verso.view(state, 0), ["You", "random 1"], me=0))
    assert "B3  would duplicate a card of yours: flip it, or bank a series" in text


def test_results_rank_players_and_mark_winners() -> None:
    state = verso.new_game(3, seed=5)
    rng = random.Random(5)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    text = plain(render_results(verso.view(state, None), NAMES))
    best = max(state.scores)
    for seat, score in enumerate(state.scores):
        line = next(line for line in text.splitlines() if NAMES[seat] in line)
        assert str(score) in line
        assert ("winner" in line) == (score == best)
    assert ("share the victory" in text) == (len(state.outcome.winners) > 1)
    assert "You win!" in text or "share the victory" in text or "wins." in text


def test_square_event_agrees_with_you() -> None:
    (line,) = describe_events([{"type": "square", "player": 0, "points": 7}], NAMES)
    assert "You hold 3 cards of every colour: +7 VP" in line.plain
    (line,) = describe_events([{"type": "square", "player": 1, "points": 7}], NAMES)
    assert "random 1 holds 3 cards of every colour" in line.plain


def test_rule_ids_in_events_say_what_the_rule_is() -> None:
    event = {"type": "discard", "player": 2, "card": {"up": "g4", "down": None}}
    (line,) = describe_events([{**event, "reason": "duplicate"}], NAMES)
    assert line.plain.endswith("discarded (rule V8: no duplicates)")
    (line,) = describe_events([{"type": "final"}], ["You"], solo=True)
    assert "(rule V17: solo end)" in line.plain


def test_a_down_face_is_marked_not_only_dimmed() -> None:
    """V19: a card's shown down face reads as such in monochrome: an arrow before it."""
    assert card_text({"up": "O4", "down": "b5"}).plain == " O4 ↓b5"
    assert card_text({"up": "O4", "down": None}).plain == " O4 "


def crowded_table() -> verso.VersoState:
    """A 3-player table after 30 random actions: cards in most columns, some turned."""
    state = verso.new_game(3, seed=12)
    rng = random.Random(12)
    for _ in range(30):
        state = state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("width", [100, 80, 60, 44])
def test_the_board_shows_every_card_in_any_width(width: int) -> None:
    """A narrow terminal must not drop the 6 and ★ columns: the board fits or changes shape."""
    state = crowded_table()
    view = verso.view(state, 0)
    text = plain(render_board(view, NAMES, me=0), width)
    assert max(len(line) for line in text.splitlines()) <= width
    for tableau in view["tableaux"]:
        for card in tableau["cards"]:
            assert card_text(card).plain.strip() in text
    assert sum(t["cards"] != [] for t in view["tableaux"]) == 3
    assert any(c["up"][1] in "6*" for t in view["tableaux"] for c in t["cards"])
