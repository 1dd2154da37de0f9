"""The learned solo value (n-tuple tables) and the ``expectimax`` bot built on it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from otherside.bots import make_bot, play_match
from otherside.bots.verso.expectimax import Chances, ExpectimaxBot, Lookahead
from otherside.bots.verso.expert import ExpertBot, distinct_actions
from otherside.bots.verso.value import BadValueFile, ValueNet, default_net
from otherside.games import verso
from otherside.games.verso import deal
from otherside.games.verso.cards import parse_face
from otherside.games.verso.fast import SERIES_BEST, World
from otherside.research.verso_training import train
from tests.games.verso.build import solo_midgame


def _small_net(seed: int = 1) -> ValueNet:
    net = ValueNet()
    train(net, 300, seed, test_games=0, every=100)
    return net


# --- the value tables ---


def test_tables_survive_a_round_trip(tmp_path: Path) -> None:
    net = _small_net()
    path = tmp_path / "v.bin"
    net.save(path)
    again = ValueNet.load(path)
    rng = random.Random(4)
    for _ in range(50):
        keys = [rng.randrange(1 << 14) & ~(1 << 7) for _ in range(3)]
        keys = [k & (k << 7 | 127) for k in keys]  # 3-VP bits only on held values
        left = rng.randrange(36)
        assert again.value(*keys, False, left) == pytest.approx(net.value(*keys, False, left))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"PK\x03\x04 a zip file", "bad header"),
        (b"OSVV1 not zlib at all", "corrupt"),
        (b"OSVV1" + __import__("zlib").compress(b"\0" * 64), "holds 64 bytes"),
    ],
)
def test_a_bad_value_file_is_a_clear_error(tmp_path: Path, data: bytes, message: str) -> None:
    path = tmp_path / "bad.bin"
    path.write_bytes(data)
    with pytest.raises(BadValueFile, match=message):
        ValueNet.load(path)


def test_a_new_net_is_the_greedy_potential_and_ends_on_the_final_series() -> None:
    net = ValueNet()
    world = World.start(deal(1, random.Random(2)))
    for _ in range(6):
        world.step((0, 0, 0, 0) if world.colour_keys(0) != (0, 0, 0) else (1, 0, 0, 0))
    keys = world.colour_keys(0)
    # V17: with no card left the value is the best final series, whatever was learned
    assert net.value(*keys, bool(world.squares & 1), 0) == max(SERIES_BEST[k] for k in keys)
    trained = _small_net()
    assert trained.value(*keys, bool(world.squares & 1), 0) == net.value(
        *keys, bool(world.squares & 1), 0
    )
    assert trained.value(*keys, bool(world.squares & 1), 20) != net.value(
        *keys, bool(world.squares & 1), 20
    )


# --- the expectimax bot ---
@pytest.mark.parametrize("seed", range(3))
def test_expectimax_plays_legal_solo_games(seed: int) -> None:
    state = verso.new_game(1, seed=seed)
    result = play_match(verso.GAME, state, [make_bot("verso", "expectimax")], random.Random(seed))
    assert result.final.is_over
    assert verso.replay(result.final.to_record()).scores == result.final.scores


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_expectimax_decides_from_the_view_only_and_samples_nothing(seed: int) -> None:
    """Same view (hidden faces and pile re-drawn), any rng: the same choice."""
    state = solo_midgame(seed)
    other = verso.redeal(state, 0, random.Random(99))
    assert other.table.pile != state.table.pile
    view = verso.view(state, 0)
    assert verso.view(other, 0) == view
    bot = make_bot("verso", "expectimax")
    first = bot.choose(view, state.legal_actions(), random.Random(3))
    second = bot.choose(verso.view(other, 0), other.legal_actions(), random.Random(4))
    assert str(first) == str(second)


def test_chances_are_distributions_over_what_is_unseen() -> None:
    state = solo_midgame(21, 12)
    view = verso.view(state, 0)
    world = ExpertBot._world(view, random.Random(1))
    chances = Chances(view, world.known)
    assert sum(chances.trigger) == pytest.approx(1.0)
    assert sum(p for p, _ in chances.tops) == pytest.approx(1.0)
    top = parse_face(view["top"])
    flips = chances.flips(top)
    assert sum(p for p, _ in flips) == pytest.approx(1.0)
    # V2: the other face has another colour, and opposite VP
    for _, face in flips:
        assert (face % 21) // 7 != (top % 21) // 7 and (face >= 21) != (top >= 21)
    for face in range(42):
        assert sum(chances.top_trigger(face)) == pytest.approx(1.0)


def test_on_the_last_card_the_values_are_exact() -> None:
    """With one card left, drawing ends the game (V17): its value is the final series exactly."""
    # Blue 1 and 2 held (1 VP each); the last card shows B3: drawing it makes a 1-2-3 series.
    pile = ["b1/G2", "O4/g5", "b2/G3", "O6/g5", "B3/g2"]
    state = verso.new_game(1, pile=pile)
    state = state.apply("draw").apply("draw")
    view = verso.view(state, 0)
    world = ExpertBot._world(view, random.Random(0))
    actions, moves = distinct_actions(world, state.legal_actions())
    values = Lookahead(default_net(), Chances(view, world.known)).values(world, moves)
    by_action = dict(zip(map(str, actions), values, strict=True))
    assert by_action["draw"] == 5  # b1 + b2 + B3, banked at the end
    assert by_action["series blue 1 2"] == 2  # the opponent takes B3; nothing is left to bank
    assert str(ExpectimaxBot().choose(view, state.legal_actions(), random.Random(0))) == "draw"


def test_expectimax_defers_to_ismcts_at_a_table() -> None:
    state = verso.new_game(2, seed=4)
    seats = [ExpectimaxBot(table_iterations=8), make_bot("verso", "greedy")]
    assert play_match(verso.GAME, state, seats, random.Random(4)).final.is_over


def test_a_seat_can_name_its_own_tables(tmp_path: Path) -> None:
    path = tmp_path / "mine.bin"
    _small_net().save(path)
    bot = make_bot("verso", "expectimax", tables=str(path))
    assert bot.net.colours == ValueNet.load(path).colours
    state = verso.new_game(1, seed=2)
    assert play_match(verso.GAME, state, [bot], random.Random(2)).final.is_over
    with pytest.raises(ValueError, match="cannot read value tables"):
        make_bot("verso", "expectimax", tables=str(tmp_path / "missing.bin"))
    (tmp_path / "bad.bin").write_bytes(b"junk")
    with pytest.raises(ValueError, match="bad header"):
        make_bot("verso", "expectimax", tables=str(tmp_path / "bad.bin"))
