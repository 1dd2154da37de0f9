"""TD(0) self-play of the solo value tables, its one-ply policy and ``train-value``."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from otherside.bots.verso.value import ValueNet, default_net
from otherside.cli.main import app
from otherside.games.verso import deal
from otherside.games.verso.cards import UP
from otherside.games.verso.fast import World, banked, gain, hidden_candidates
from otherside.research.verso_training import episode, evaluate, train


def test_the_shipped_tables_load_and_play_better_than_the_potential() -> None:
    net = default_net()
    assert default_net() is net  # loaded once
    rng = random.Random(7)
    piles = [deal(1, rng) for _ in range(120)]
    learned = sum(episode(net, p, 0.0) for p in piles)
    zeros = ValueNet()
    potential = sum(episode(zeros, p, 0.0) for p in piles)
    assert learned > potential


# --- the fast model's helpers follow the rules ---
@pytest.mark.parametrize("seed", range(6))
def test_gain_and_banked_follow_the_world(seed: int) -> None:
    """V8 (a duplicate is discarded), V11.4 (two cards discarded), V12 (square and its flag)."""
    rng = random.Random(seed)
    world = World.start(deal(1, rng))
    while True:
        keys = world.colour_keys(0)
        top = world.pile[world.pos]
        for flip in (False, True):
            trial = world.copy()
            trial.take(0, flip)
            face = UP[top ^ 1] if flip else UP[top]
            k0, k1, k2, square, points = gain(keys, bool(world.squares & 1), face)
            assert (k0, k1, k2) == trial.colour_keys(0)
            assert (square, points) == (bool(trial.squares & 1), trial.scores[0] - world.scores[0])
        for (kind, colour, points, disc), _ in evaluate(ValueNet(), world):
            if kind == 2:
                trial = world.copy()
                trial.bank(0, colour, points, disc, True)
                assert banked(keys, bool(world.squares & 1), colour, disc) == (
                    *trial.colour_keys(0),
                    bool(trial.squares & 1),
                )
        moves = [move for move, _ in evaluate(ValueNet(), world)]
        if world.step(rng.choice(moves)):
            break


def test_td_moves_a_value_toward_what_followed() -> None:
    """TD(0) on a 3-card pile: the first afterstate's value moves toward the points after it."""
    for seed in range(20):
        pile = deal(1, random.Random(seed))[:3]
        net = ValueNet()
        world = World.start(pile)
        kind = max(evaluate(net, world), key=lambda t: t[1])[0][0]
        world.take(0, kind == 1)  # nothing to bank yet: a draw or a flip
        state = (*world.colour_keys(0), bool(world.squares & 1), len(pile) - world.pos)
        before, score = net.value(*state), world.scores[0]
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


@pytest.mark.parametrize("seed", range(4))
def test_an_informed_one_ply_judges_the_flip_on_the_worlds_face(seed: int) -> None:
    """``informed`` (a measurement: the player sees the top's back) values a flip on the face
    the world hides; the honest value is the average of that over the candidates."""
    net = default_net()
    rng = random.Random(seed)
    world = World.start(deal(1, rng))
    for _ in range(10):
        moves = [move for move, _ in evaluate(net, world)]
        world.step(rng.choice(moves))
    top = world.pile[world.pos]
    left = len(world.pile) - world.pos

    def informed_flip(card: int) -> float:
        trial = world.copy()
        trial.pile = (*world.pile[: world.pos], card, *world.pile[world.pos + 1 :])
        return dict(evaluate(net, trial, informed=True))[(1, 0, 0, 0)]

    k0, k1, k2, square, points = gain(world.colour_keys(0), bool(world.squares & 1), UP[top ^ 1])
    assert informed_flip(top) == points + net.value(k0, k1, k2, square, left - 1)
    honest = dict(evaluate(net, world))
    assert dict(evaluate(net, world, informed=True)).keys() == honest.keys()
    candidates = [c ^ 1 for c in hidden_candidates(UP[top], world.known)]
    mean = sum(informed_flip(c) for c in candidates) / len(candidates)
    assert honest[(1, 0, 0, 0)] == pytest.approx(mean)


def test_informed_training_learns_other_tables() -> None:
    honest, informed = ValueNet(), ValueNet()
    train(honest, 200, 5, test_games=0, every=100)
    train(informed, 200, 5, test_games=0, every=100, informed=True)
    assert honest.colours != informed.colours


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
