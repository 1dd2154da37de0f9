"""The learned solo value (TD(0) n-tuple tables) and the ``expectimax`` bot built on it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from otherside.bots import make_bot, play_match
from otherside.bots.verso_expert import ExpertBot, distinct_actions
from otherside.bots.verso_lookahead import Chances, ExpectimaxBot, Lookahead
from otherside.bots.verso_value import (
    BadValueFile,
    ValueNet,
    deal,
    default_net,
    episode,
    evaluate,
    new_world,
    train,
)
from otherside.bots.verso_world import _BEST, _FLIPPED, World, banked, gain, play
from otherside.cli.main import app
from otherside.games import verso
from otherside.games.verso.cards import CARD_OF_FACES, UP, orient, parse_face


def _keys(world: World) -> tuple[int, int, int]:
    m, b = world.m, world.b
    return (m[0] | b[0] << 7, m[1] | b[1] << 7, m[2] | b[2] << 7)


def _small_net(seed: int = 1) -> ValueNet:
    net = ValueNet()
    train(net, 300, seed, test_games=0, every=100)
    return net


# --- the value tables ---
def test_a_new_net_is_the_greedy_potential_and_ends_on_the_final_series() -> None:
    net = ValueNet()
    world = new_world(deal(random.Random(2)))
    for _ in range(6):
        play(world, (0, 0, 0, 0) if world.m != [0, 0, 0] else (1, 0, 0, 0))
    keys = _keys(world)
    # V17: with no card left the value is the best final series, whatever was learned
    assert net.value(*keys, world.square, 0) == max(_BEST[k] for k in keys)
    trained = _small_net()
    assert trained.value(*keys, world.square, 0) == net.value(*keys, world.square, 0)
    assert trained.value(*keys, world.square, 20) != net.value(*keys, world.square, 20)


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


def test_the_shipped_tables_load_and_play_better_than_the_potential() -> None:
    net = default_net()
    assert default_net() is net  # loaded once
    rng = random.Random(7)
    piles = [deal(rng) for _ in range(120)]
    learned = sum(episode(net, p, 0.0) for p in piles)
    zeros = ValueNet()
    potential = sum(episode(zeros, p, 0.0) for p in piles)
    assert learned > potential


# --- the fast model's helpers follow the rules ---
@pytest.mark.parametrize("seed", range(6))
def test_gain_and_banked_follow_the_world(seed: int) -> None:
    """V8 (a duplicate is discarded), V11.4 (two cards discarded), V12 (square and its flag)."""
    rng = random.Random(seed)
    world = new_world(deal(rng))
    while True:
        keys = _keys(world)
        top = world.pile[world.pos]
        for flip in (False, True):
            trial = world.copy()
            trial.take(flip)
            face = UP[top ^ 1] if flip else UP[top]
            k0, k1, k2, square, points = gain(keys, world.square, face)
            assert (k0, k1, k2) == _keys(trial)
            assert (square, points) == (trial.square, trial.score - world.score)
        for (kind, colour, points, disc), _ in evaluate(ValueNet(), world):
            if kind == 2:
                trial = world.copy()
                trial.bank(colour, points, disc)
                assert banked(keys, world.square, colour, disc) == (*_keys(trial), trial.square)
        moves = [move for move, _ in evaluate(ValueNet(), world)]
        if play(world, rng.choice(moves)):
            break


def test_td_moves_a_value_toward_what_followed() -> None:
    """TD(0) on a 3-card pile: the first afterstate's value moves toward the points after it."""
    for seed in range(20):
        pile = deal(random.Random(seed))[:3]
        net = ValueNet()
        world = new_world(pile)
        kind = max(evaluate(net, world), key=lambda t: t[1])[0][0]
        world.take(kind == 1)  # nothing to bank yet: a draw or a flip
        state = (*_keys(world), world.square, len(pile) - world.pos)
        before, score = net.value(*state), world.score
        final = episode(net, pile, 0.05)
        target = final - score
        if target != pytest.approx(before):
            break
    else:
        pytest.fail("no pile where the first value was off")
    after = net.value(*state)
    assert abs(after - target) < abs(before - target)
    assert (after - before) * (target - before) > 0


def test_training_is_seeded() -> None:
    a, b, c = ValueNet(), ValueNet(), ValueNet()
    curve_a = train(a, 200, 5, test_games=10, every=100)
    curve_b = train(b, 200, 5, test_games=10, every=100)
    train(c, 200, 6, test_games=10, every=100)
    assert curve_a == curve_b and [g for g, _, _ in curve_a] == [100, 200]
    assert a.colours == b.colours and a.colours != c.colours
    with pytest.raises(ValueError, match="positive"):
        train(a, 0, 5)


def _showing(up: int, down: int) -> int:
    """The oriented card with face ``up`` up and ``down`` down."""
    return orient(CARD_OF_FACES[(up, down)], up)


@pytest.mark.parametrize("seed", range(4))
def test_an_informed_one_ply_judges_the_flip_on_the_worlds_face(seed: int) -> None:
    """``informed`` (a measurement: the player sees the top's back) values a flip on the face
    the world hides; the honest value is the average of that over the candidates."""
    net = default_net()
    rng = random.Random(seed)
    world = new_world(deal(rng))
    for _ in range(10):
        moves = [move for move, _ in evaluate(net, world)]
        play(world, rng.choice(moves))
    top = world.pile[world.pos]
    left = len(world.pile) - world.pos

    def informed_flip(card: int) -> float:
        trial = world.copy()
        trial.pile = (*world.pile[: world.pos], card, *world.pile[world.pos + 1 :])
        return dict(evaluate(net, trial, informed=True))[(1, 0, 0, 0)]

    k0, k1, k2, square, points = gain(_keys(world), world.square, UP[top ^ 1])
    assert informed_flip(top) == points + net.value(k0, k1, k2, square, left - 1)
    honest = dict(evaluate(net, world))
    assert dict(evaluate(net, world, informed=True)).keys() == honest.keys()
    candidates = [c ^ 1 for c in _FLIPPED[UP[top]] if not world.known >> (c >> 1) & 1]
    mean = sum(informed_flip(c) for c in candidates) / len(candidates)
    assert honest[(1, 0, 0, 0)] == pytest.approx(mean)


def test_informed_training_learns_other_tables() -> None:
    honest, informed = ValueNet(), ValueNet()
    train(honest, 200, 5, test_games=0, every=100)
    train(informed, 200, 5, test_games=0, every=100, informed=True)
    assert honest.colours != informed.colours


# --- the expectimax bot ---
def _midgame(seed: int, moves: int = 8) -> verso.VersoState:
    rng = random.Random(seed)
    state = verso.new_game(1, seed=seed)
    for _ in range(moves):
        state = state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("seed", range(3))
def test_expectimax_plays_legal_solo_games(seed: int) -> None:
    state = verso.new_game(1, seed=seed)
    result = play_match(verso.GAME, state, [make_bot("verso", "expectimax")], random.Random(seed))
    assert result.final.is_over
    assert verso.replay(result.final.to_record()).scores == result.final.scores


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_expectimax_decides_from_the_view_only_and_samples_nothing(seed: int) -> None:
    """Same view (hidden faces and pile re-drawn), any rng: the same choice."""
    state = _midgame(seed)
    other = verso.redeal(state, 0, random.Random(99))
    assert other.table.pile != state.table.pile
    view = verso.view(state, 0)
    assert verso.view(other, 0) == view
    bot = make_bot("verso", "expectimax")
    first = bot.choose(view, state.legal_actions(), random.Random(3))
    second = bot.choose(verso.view(other, 0), other.legal_actions(), random.Random(4))
    assert str(first) == str(second)


def test_chances_are_distributions_over_what_is_unseen() -> None:
    state = _midgame(21, 12)
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


@pytest.mark.parametrize("seed", [21, 22, 23, 24])
def test_expectimax_values_average_what_a_player_who_saw_the_top_would_get(seed: int) -> None:
    """Told the top's back (``top_card``, a measurement), each move's value is exact for that
    card; the honest value of every move is the average of those over the backs it may hide."""
    state = _midgame(seed, 10)
    view = verso.view(state, 0)
    world = ExpertBot._world(view, random.Random(1))
    actions, moves = distinct_actions(world, state.legal_actions())
    chances = Chances(view, world.known)
    honest = Lookahead(default_net(), chances).values(world, moves)
    top = parse_face(view["top"])
    expected = [0.0] * len(moves)
    for p, back in chances.flips(top):
        told = Lookahead(default_net(), chances).values(world, moves, _showing(top, back))
        expected = [e + p * v for e, v in zip(expected, told, strict=True)]
    assert honest == pytest.approx(expected, abs=1e-6)
    # told the real card, a flip is a draw of its back
    real = state.top
    told = Lookahead(default_net(), chances).values(world, moves, real)
    turned = world.copy()
    turned.pile = (*world.pile[: world.pos], real ^ 1, *world.pile[world.pos + 1 :])
    as_drawn = Lookahead(default_net(), chances).values(turned, [(0, 0, 0, 0)], real ^ 1)
    assert told[[str(a) for a in actions].index("flip")] == pytest.approx(as_drawn[0])


def test_expectimax_defers_to_ismcts_at_a_table() -> None:
    state = verso.new_game(2, seed=4)
    seats = [ExpectimaxBot(table_iterations=8), make_bot("verso", "greedy")]
    assert play_match(verso.GAME, state, seats, random.Random(4)).final.is_over


# --- the training command ---
def test_train_value_command_writes_tables_and_a_plot(tmp_path: Path) -> None:
    out, plot = tmp_path / "v.bin", tmp_path / "curve.png"
    args = ["verso", "train-value", "--out", str(out), "--episodes", "200", "--every", "100"]
    result = CliRunner().invoke(app, [*args, "--test-games", "20", "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert "learning curve" in result.output
    assert plot.read_bytes()[:4] == b"\x89PNG"
    again = tmp_path / "again.bin"
    args[3] = str(again)
    assert CliRunner().invoke(app, [*args, "--test-games", "20"]).exit_code == 0
    assert again.read_bytes() == out.read_bytes()  # seeded: the same tables


def test_train_value_rejects_a_bad_start_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"nonsense")
    out = tmp_path / "v.bin"
    result = CliRunner().invoke(
        app, ["verso", "train-value", "--out", str(out), "--start", str(bad), "--episodes", "10"]
    )
    assert result.exit_code == 2
    assert "bad header" in result.output
    assert not out.exists()


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
