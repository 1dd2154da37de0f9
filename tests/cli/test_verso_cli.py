"""``otherside verso play / solo / replay`` driven through typer's CliRunner."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from otherside.bots import bot_names
from otherside.cli.commands.verso import default_bot, resolve_seats
from otherside.cli.human import Referee
from otherside.cli.main import app
from otherside.cli.records import read_record_file
from otherside.games import verso

runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(app, ["verso", *args], input=input)


def flat(output: str) -> str:
    """The output without Rich's error box, whitespace collapsed (the box wraps long lines)."""
    return " ".join(re.sub("[│╭╮╰╯─]", " ", output).split())


def final_scores(output: str) -> dict[str, int]:
    """The 'Final scores' table as {player: VP}."""
    table = output.split("Final scores", 1)[1]
    return {m[1]: int(m[2]) for m in re.finditer(r"^\s+\d+\s+(.+?)\s{2,}(\d+)", table, re.M)}


def test_all_bot_game_finishes_and_prints_final_scores(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    result = run(
        "play",
        "--seats",
        "random,random,random",
        "--seed",
        "11",
        "--delay",
        "0",
        "--record",
        str(out),
    )
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
    state = verso.replay(read_record_file(out, "verso"))
    assert state.is_over
    assert final_scores(result.output) == {
        f"random {p}": score for p, score in enumerate(state.scores)
    }
    assert "winner" in result.output


def test_record_replays_to_the_same_game_and_the_seed_repeats_it(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    for path in (first, second):
        result = run(
            "play",
            "--players",
            "2",
            "--seats",
            "random,random",
            "--seed",
            "4",
            "--first-player",
            "1",
            "--delay",
            "0",
            "--record",
            str(path),
        )
        assert result.exit_code == 0, result.output
    record = read_record_file(first, "verso")
    assert record == read_record_file(second, "verso")
    assert record["options"]["first_player"] == 1
    assert len(record["pile"]) == 30
    assert record.pop("names") == ["random 0", "random 1"]
    assert verso.replay(record).to_record() == record


def test_human_illegal_move_gets_the_reason_and_the_legal_moves_then_plays() -> None:
    """V10: a series of cards not held is refused with the engine's reason; 'draw' is taken."""
    result = run(
        "play",
        "--seats",
        "human,random",
        "--seed",
        "2",
        "--delay",
        "0",
        input="series blue 1 2\nfly\n7\ndraw\n",
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "illegal: series blue 1 2 — you hold no blue 1, 2 (rule V10: series)" in out
    assert "'fly' is not a move: expected draw, flip, pass or series" in out
    assert "there is no move 7: choose 1 to 2" in out
    assert out.count("Legal moves:") == 3
    assert re.search(r"1 draw\s+2 flip", out)
    assert "You drew" in out
    assert "Game stopped." in out  # the input ran out on the next turn


def test_human_moves_by_number_and_shorthand_and_quit_saves_the_record(tmp_path: Path) -> None:
    out = tmp_path / "partial.json"
    result = run(
        "play",
        "--seats",
        "human,random",
        "--seed",
        "2",
        "--delay",
        "0",
        "--record",
        str(out),
        input="?\n2\nd\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "You flipped" in result.output and "You drew" in result.output
    record = read_record_file(out, "verso")
    assert record["actions"][0] == "flip" and record["actions"][2] == "draw"
    assert len(record["actions"]) == 4  # flip, bot, draw, bot: then the human quit
    assert record.pop("names") == ["You", "random 1"]
    assert verso.replay(record).to_record() == record


def test_duplicate_top_face_explains_the_v8_decision() -> None:
    """V8: with the top face duplicating a held card, 'draw' is refused with the reason."""
    pile = ["B3/g4", "b5/O4", "B3/o2", "g2/B1", "o1/G2", "g6/O1"]
    # Seat 0 takes B3; seat 1 draws b5; seat 0 faces B3 again.
    record = {"game": "verso", "players": 2, "options": {}, "pile": pile, "actions": []}
    state = verso.replay(record).apply("draw").apply("draw")
    assert [str(a) for a in state.legal_actions()] == ["flip"]
    assert "duplicates a card of your tableau" in Referee(verso.GAME, state).reason("draw")


def test_solo_human_plays_to_the_end_and_gets_a_rating() -> None:
    """V16-V18: a solo game typed at the keyboard (always the first legal move)."""
    result = run("solo", "--seed", "3", "--delay", "0", input="1\n" * 60)
    assert result.exit_code == 0, result.output
    assert "The opponent took" in result.output
    assert "Solo rating:" in result.output and "(rule V18)" in result.output
    score = final_scores(result.output)["You"]
    assert verso.rating(score) in result.output


def test_solo_with_a_bot_seat_prints_a_rating(tmp_path: Path) -> None:
    out = tmp_path / "solo.json"
    result = run("solo", "--seats", "random", "--seed", "8", "--delay", "0", "--record", str(out))
    assert result.exit_code == 0, result.output
    state = verso.replay(read_record_file(out, "verso"))
    assert state.solo and len(state.to_record()["pile"]) == 35
    assert f"Solo rating: {verso.rating(state.scores[0])}" in result.output


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("records") / "game.json"
    result = run(
        "play",
        "--seats",
        "random,random,random",
        "--seed",
        "21",
        "--delay",
        "0",
        "--record",
        str(path),
    )
    assert result.exit_code == 0, result.output
    return path


def test_replay_prints_each_action_and_the_final_scores(record_file: Path) -> None:
    record = read_record_file(record_file, "verso")
    result = run("replay", str(record_file))
    assert result.exit_code == 0, result.output
    shown = re.findall(r"^\s*(\d+) │ random (\d): (.+?)\s*$", result.output, re.M)
    assert [a for _, _, a in shown] == record["actions"]
    assert [int(n) for n, _, _ in shown] == list(range(1, len(record["actions"]) + 1))
    state = verso.replay(record)
    assert final_scores(result.output) == {f"random {p}": s for p, s in enumerate(state.scores)}


def test_replay_json_is_the_final_view_and_the_record(record_file: Path) -> None:
    record = read_record_file(record_file, "verso")
    result = run("replay", str(record_file), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    state = verso.replay(record)
    assert data["names"] == record.pop("names") == ["random 0", "random 1", "random 2"]
    assert data["record"] == record
    assert data["view"]["scores"] == list(state.scores)
    assert data["view"]["outcome"]["winners"] == list(state.outcome.winners)
    assert data["view"]["player"] is None


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "bad game record: not JSON"),
        ('{"game": "versus"}', "this is a record of 'versus', not 'verso'"),
        (
            '{"game": "verso", "players": 2, "pile": ["B3/g4", "b5/O4"], "actions": ["pass"]}',
            "bad game record: action 0: 'pass' is illegal",
        ),
    ],
)
def test_replay_of_a_bad_record_exits_2_with_the_reason(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 2
    assert message in result.output


def test_replay_of_a_missing_file_exits_2(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "nowhere.json"))
    assert result.exit_code == 2
    assert "cannot read" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seats", "human,wizard"], "unknown seat 'wizard'"),
        (["--players", "4", "--seats", "human,random"], "--players 4 but 2 seats"),
        (["--players", "7"], "Verso is for 1 to 6 players"),
        (["--players", "2", "--first-player", "2"], "seat from 0 to 1, not 2"),
        (["--record", "/no/such/folder/game.json"], "the folder /no/such/folder does not exist"),
    ],
)
def test_play_rejects_bad_options_with_a_clear_message(args: list[str], message: str) -> None:
    result = run("play", *args, "--delay", "0")
    assert result.exit_code == 2
    assert message in flat(result.output)


def test_unknown_bot_lists_the_known_ones() -> None:
    result = run("play", "--seats", "human,wizard")
    for name in bot_names("verso"):
        assert name in result.output


def test_default_seats_are_you_against_bots() -> None:
    assert resolve_seats(None, None) == ["human", default_bot(), default_bot()]
    assert resolve_seats(None, "Human, random") == ["human", "random"]
    assert default_bot() == ("greedy" if "greedy" in bot_names("verso") else "random")


def test_series_preview_shows_the_series_points_only() -> None:
    """V11.3 points of a series, never the effect of hidden cards (the solo opponent, V16)."""
    state = verso.new_game(1, seed=0)
    rng = random.Random(0)
    seen = 0
    while not state.is_over:
        referee = Referee(verso.GAME, state)
        for action in state.legal_actions():
            if str(action).startswith("series"):
                (event,) = [e for e in state.apply(action).events if e["type"] == "series"]
                assert referee.points(action) == event["points"]
                seen += 1
        state = state.apply(rng.choice(state.legal_actions()))
    assert seen


def test_the_verso_group_has_play_solo_replay_and_simulate() -> None:
    result = run("--help")
    assert result.exit_code == 0
    for command in ("play", "solo", "replay", "simulate"):
        assert command in result.output


def test_replay_of_a_game_stopped_early_shows_it_up_to_where_it_stopped(tmp_path: Path) -> None:
    """A record of an unfinished game (quit, Ctrl-C, Ctrl-D) replays, and says where it stops."""
    out = tmp_path / "q.json"
    played = run("play", "--seed", "5", "--delay", "0", "--record", str(out), input="d\nquit\n")
    assert played.exit_code == 0, played.output
    result = run("replay", str(out))
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "You, greedy 1, greedy 2 · 45 cards · 3 actions" in text
    assert "1 │ You: draw" in text and "2 │ greedy 1:" in text
    assert "The record stops after 3 actions, before the end of the game (42 cards left" in text
    assert "Scores so far" in text and "Final scores" not in text
    assert "winner" not in text and "victory" not in text


def test_solo_with_two_seats_says_solo_is_one_seat() -> None:
    result = run("solo", "--seats", "greedy,greedy", "--delay", "0")
    assert result.exit_code == 2
    text = flat(result.output)
    assert "solo is played by one seat ('human' or a bot name), not 2: 'greedy,greedy'" in text
    assert "--players" not in text


def test_the_intro_and_the_messages_say_what_rule_ids_are() -> None:
    result = run(
        "play", "--seats", "human,random", "--seed", "2", "--delay", "0", input="s b 1 2\n"
    )
    text = flat(result.output)
    assert "Rule ids such as (V10) point into the rules: otherside rules verso." in text
    assert "you hold no blue 1, 2 (rule V10: series)" in text
