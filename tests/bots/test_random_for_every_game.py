"""The random baseline is registered for every game, even before its own bots exist."""

from __future__ import annotations

import random

import pytest

from otherside.bots import bot_names, make_bot, play_match
from otherside.games import verso


def test_random_plays_verso_through_the_registry() -> None:
    assert "random" in bot_names("verso")
    seats = [make_bot("verso", "random") for _ in range(3)]
    result = play_match(verso.GAME, verso.new_game(3, seed=1), seats, random.Random(1))
    assert result.final.is_over
    assert verso.replay(result.final.to_record()).scores == result.final.scores


def test_a_game_that_does_not_exist_has_no_bots() -> None:
    with pytest.raises(ValueError, match="no bots for game 'chess'"):
        bot_names("chess")


def test_unknown_bot_name_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown verso bot 'wizard'; known: .*random"):
        make_bot("verso", "wizard")


def test_unknown_bot_option_lists_the_bots_options() -> None:
    """A seat such as ``ismcts:iteratons=300`` is a clear error, not a TypeError."""
    with pytest.raises(
        ValueError, match=r"verso bot 'ismcts' has no option iteratons; .*iterations"
    ):
        make_bot("verso", "ismcts", iteratons=300)
    with pytest.raises(ValueError, match=r"'best' has no option depth, x; its options: net"):
        make_bot("verso", "best", x=1, depth=3)
    assert make_bot("verso", "ismcts", iterations=30).search.iterations == 30  # type: ignore[attr-defined]
