"""Bot specs (``name:key=value``): read, written, checked against the registry and capped in one
place, with one fall-back to the random bot."""

from __future__ import annotations

import random

import pytest

from otherside.bots import RandomBot, bot_entry, register_bot, spec
from otherside.bots.spec import BotSpec
from otherside.bots.versus import SearchBot, VersusRandomBot
from otherside.games import get_game


@pytest.mark.parametrize("text", ["greedy", "search:think=2", "search:think=0.5", "x:a=1:b=2"])
def test_a_spec_reads_back_as_written(text: str) -> None:
    assert str(BotSpec.parse(text)) == text
    assert BotSpec.parse(str(BotSpec.parse(text))) == BotSpec.parse(text)


def test_values_read_as_what_they_look_like() -> None:
    # One reader for the server's seats and the simulator's (``ismcts:iterations=200``).
    assert BotSpec.parse("ismcts:iterations=200:seconds=0.5:greedy=true:net=x").options == (
        ("greedy", True),
        ("iterations", 200),
        ("net", "x"),
        ("seconds", 0.5),
    )
    assert str(BotSpec.parse("a:x=true:y=2.50")) == "a:x=true:y=2.5"


def test_options_are_kept_in_one_order() -> None:
    assert str(BotSpec.parse("x:b=2:a=1")) == "x:a=1:b=2"
    assert BotSpec.parse("search:think=2.0").option("think") == 2.0
    assert BotSpec.parse("search").option("think") is None


@pytest.mark.parametrize(
    "text", ["", ":think=2", "search:think", "search:=2", "s:a=1:a=2", "search:think="]
)
def test_a_badly_written_spec_is_refused_naming_it(text: str) -> None:
    with pytest.raises(ValueError, match="bot"):
        BotSpec.parse(text)


def test_labels_come_from_the_parsed_spec() -> None:
    assert BotSpec.parse("search:think=5").to_json() == {
        "spec": "search:think=5",
        "name": "search",
        "options": {"think": 5.0},
        "label": "Search bot · 5 s a move",
    }
    assert BotSpec.parse("greedy").label() == "Greedy bot"


def test_checked_knows_the_registry_and_the_declared_options() -> None:
    assert spec.checked("versus", "search:think=2") == BotSpec.of("search", {"think": 2.0})
    assert spec.checked("versus", "alphabeta").name == "alphabeta"
    with pytest.raises(ValueError, match=r"unknown versus bot 'wizard'; known: .*greedy"):
        spec.checked("versus", "wizard")
    # ``depth`` is a keyword of the factory, but not an option a host may set at a table.
    with pytest.raises(ValueError, match=r"no option 'depth'; options: think"):
        spec.checked("versus", "search:depth=40")
    with pytest.raises(ValueError, match=r"no option 'think'; options: none"):
        spec.checked("versus", "greedy:think=2")
    with pytest.raises(ValueError, match=r"think must be from 0.1 to 10 s$"):
        spec.checked("versus", "search:think=1000")
    with pytest.raises(ValueError, match=r"written name:key=number"):
        spec.checked("versus", "search:think=fast")


def test_the_server_cap_lowers_the_allowed_think() -> None:
    assert spec.checked("versus", "search:think=2", think_cap=2).option("think") == 2
    with pytest.raises(ValueError, match=r"from 0.1 to 2 s \(this server's cap\)"):
        spec.checked("versus", "search:think=5", think_cap=2)


def test_capped_lowers_a_stored_think_and_a_default_one() -> None:
    assert spec.capped("versus", BotSpec.parse("search:think=10"), 3) == BotSpec.parse(
        "search:think=3"
    )
    # No think given: the factory's default (1 s) is above a cap of 0.5.
    assert spec.capped("versus", BotSpec.parse("search"), 0.5).option("think") == 0.5
    assert spec.capped("versus", BotSpec.parse("search:think=2"), 3) == BotSpec.parse(
        "search:think=2"
    )
    assert spec.capped("versus", BotSpec.parse("greedy"), 0.1) == BotSpec.parse("greedy")
    bot = spec.make("versus", spec.capped("versus", BotSpec.parse("search:think=10"), 0.2))
    assert isinstance(bot, SearchBot) and bot.think == 0.2


def test_quick_bots_are_marked_in_the_registry() -> None:
    assert spec.is_quick("versus", BotSpec("greedy")) and spec.is_quick("verso", BotSpec("random"))
    assert not spec.is_quick("versus", BotSpec("search"))
    assert not spec.is_quick("versus", BotSpec("best"))  # an alias of search
    assert not spec.is_quick("verso", BotSpec("ismcts"))
    entry = bot_entry("versus", "search")
    assert entry is not None and [o.name for o in entry.options] == ["think"]


def test_the_fall_back_is_the_games_own_random_bot() -> None:
    assert isinstance(spec.make("versus", BotSpec(spec.FALLBACK)), VersusRandomBot)
    # A game the registry has no bots for still gets the game-agnostic random bot.
    assert spec.available("toygame") == [spec.FALLBACK]
    assert isinstance(spec.make("toygame", BotSpec(spec.FALLBACK)), RandomBot)
    with pytest.raises(ValueError, match="no bots for game 'toygame'"):
        spec.make("toygame", BotSpec("greedy"))


def test_a_registered_random_is_used_over_the_generic_one() -> None:
    class Counting(RandomBot):
        pass

    register_bot("toygame2", "random")(Counting)
    assert isinstance(spec.make("toygame2", BotSpec("random")), Counting)


def test_choices_offer_each_bot_once_per_usual_value_within_the_cap() -> None:
    offered = spec.choices("versus", (2,), think_cap=2)
    assert [c["spec"] for c in offered] == [
        "random",
        "greedy",
        "search:think=0.5",
        "search:think=1",
        "search:think=2",
    ]
    search = offered[-1]
    assert search["name"] == "search" and search["options"] == {"think": 2.0}
    assert search["label"] == "Search bot · 2 s a move" and search["players"] == [2]
    assert search["description"].startswith("Alpha-beta")


def test_a_bot_made_from_a_spec_plays_a_legal_move() -> None:
    game = get_game("versus")
    state = game.new_state(2, seed=3)
    legal = list(state.legal_actions())
    bot = spec.make("versus", spec.checked("versus", "search:think=0.1"))
    assert bot.choose(game.view(state, state.current_player), legal, random.Random(1)) in legal
