"""VERSUS bots: registry names, legal play, draw answers, and tactics the search must see."""

from __future__ import annotations

import random

import pytest

from otherside.bots import bot_names, make_bot, play_match
from otherside.bots.versus.search import noisy_moves
from otherside.games.versus import (
    GAME,
    PlatformAction,
    StoneSetup,
    VersusOptions,
    new_game,
    view,
)
from otherside.games.versus.notation import ply_of_code


def test_registry_has_random_greedy_search_and_aliases() -> None:
    names = bot_names("versus")
    for name in ("random", "greedy", "search", "alphabeta", "best"):
        assert name in names
    assert make_bot("versus", "alphabeta", think=0.5).name == "search"
    with pytest.raises(ValueError, match="think must be positive"):
        make_bot("versus", "search", think=0)


@pytest.mark.parametrize(
    ("blue", "brown", "options"),
    [("random", "random", {}), ("greedy", "random", {}), ("search", "greedy", {"depth": 1})],
)
def test_bots_play_legal_board_plies_to_the_end(blue: str, brown: str, options: dict) -> None:
    seats = [
        make_bot("versus", blue, **(options if blue == "search" else {})),
        make_bot("versus", brown),
    ]
    result = play_match(GAME, new_game(), seats, random.Random(4))
    assert result.final.is_over
    assert all(">" in a for a in result.actions)  # never resigns or offers a draw
    assert GAME.replay(result.final.to_record()).scores == result.final.scores


def test_random_bot_is_seeded() -> None:
    def run() -> list[str]:
        seats = [make_bot("versus", "random"), make_bot("versus", "random")]
        return play_match(GAME, new_game(), seats, random.Random(11)).actions

    assert run() == run()


@pytest.mark.parametrize("name", ["greedy", "search"])
def test_bots_answer_a_draw_offer_from_their_evaluation(name: str) -> None:
    bot = make_bot("versus", name, **({"think": 0.05} if name == "search" else {}))
    even = new_game().apply("offer-draw")
    answer = bot.choose(view(even, 1), even.legal_actions(), random.Random(0))
    assert answer in (PlatformAction.ACCEPT_DRAW, PlatformAction.DECLINE_DRAW)
    # Brown behind by a locked 5: Brown accepts Blue's offer.
    options = VersusOptions(
        stones=(
            StoneSetup("1:-1", 5, "blue"),
            StoneSetup("0:3", 2, "brown"),
            StoneSetup("-4:4", 0, "brown"),
        ),
        targets=("1:0", "-1:0", "-3:0"),
    )
    behind = new_game(options).apply("1:-1>1:0").apply("0:3>0:2").apply("offer-draw")
    answer = bot.choose(view(behind, 1), behind.legal_actions(), random.Random(0))
    assert answer is PlatformAction.ACCEPT_DRAW


@pytest.mark.parametrize("name", ["greedy", "search"])
def test_bots_take_the_biggest_immediate_win(name: str) -> None:
    """Stepping the stone on 2:-1 onto 1:0 wins by 1 (S13.1); the VERSUS to 1:-1 pulls the
    5-point stone from 1:3 onto 1:0 and wins by 5 (S10, S13.1)."""
    options = VersusOptions(
        versus=("1:-4", "-5:5"),
        stones=(StoneSetup("1:3", 5, "brown"), StoneSetup("2:-1", 1, "blue")),
        targets=("1:0",),
    )
    state = new_game(options)
    bot = make_bot("versus", name, **({"think": 5.0, "depth": 3} if name == "search" else {}))
    choice = bot.choose(view(state, 0), state.legal_actions(), random.Random(0))
    assert str(choice) == "1:-4>1:-1"
    assert state.apply(choice).scores == (5, 0)


def test_noisy_moves_contain_every_attraction_and_lock() -> None:
    """The quiescence search must not miss a ply that changes the material."""
    rng = random.Random(2)
    checked = 0
    for _ in range(6):
        state = new_game()
        while not state.is_over:
            position = state.position
            noisy = set(noisy_moves(position))
            for move in position.moves():
                child = position.play(move)
                if child.owners != position.owners or child.quiet == 0:
                    assert move in noisy, str(ply_of_code(move))
                    checked += 1
            state = state.apply(rng.choice(state.legal_plies()))
    assert checked > 50
