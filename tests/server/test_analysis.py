"""Post-game analysis against a real server process: a VERSUS game between the random bot and
the search bot, analysed by the bots once it is over; its engine moves checked against the
second VERSUS written from the rules text alone (``tests/games/versus/reference.py``); and an
analysis asked for while a person still plays is refused."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from otherside.games import verso
from otherside.games.versus import replay
from otherside.server.store.db import sqlite_url
from tests.games.versus.reference import Position
from tests.server.processes import Server, free_port

RANDOM, SEARCH = 0, 1
LIMIT = 180.0  # seconds a bot game or its analysis may take on a loaded machine


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    url = sqlite_url(tmp_path_factory.mktemp("analysis") / "otherside.db")
    budget = ("--analysis-think", "0.3", "--analysis-depth", "3")
    process = Server(url, port, *budget, bot_delay=0.0)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.stop()


def _until(ask: Any, done: Any) -> Any:
    deadline = time.monotonic() + LIMIT
    while time.monotonic() < deadline:
        answer = ask()
        if done(answer):
            return answer
        time.sleep(0.2)
    raise AssertionError("not done in time")


def _bot_game(
    http: httpx.Client, game: str = "versus", bots: tuple[str, str] = ("random", "search:think=0.2")
) -> str:
    """A table of two bots, started: for VERSUS, the random bot (Blue, first) against the
    search bot."""
    assert http.post("/api/guest", json={}).status_code in (200, 201)
    made = http.post("/api/tables", json={"game": game, "players": 2})
    assert made.status_code == 201, made.text
    table = str(made.json()["id"])
    assert http.post(f"/api/tables/{table}/leave").status_code == 200
    for seat, bot in enumerate(bots):
        added = http.post(f"/api/tables/{table}/bots", json={"bot": bot, "seat": seat})
        assert added.status_code == 200, added.text
    started = http.post(f"/api/tables/{table}/start")
    assert started.status_code == 200, started.text
    return table


def _not_requested(answer: httpx.Response) -> bool:
    """Whether ``answer`` says that nobody has asked for the game's analysis yet."""
    said = answer.json()
    return answer.status_code == 200 and (said["status"], said["done"]) == ("not_requested", 0)


def test_a_finished_game_is_analysed_once_and_never_during_play(server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        table = _bot_game(http)
        path = f"/api/tables/{table}/analysis"
        assert _not_requested(http.get(path))
        early = http.post(path)
        if http.get(f"/api/tables/{table}").json()["status"] != "over":
            assert early.status_code == 409, early.text
            assert early.json()["code"] == "game_not_over"
            # Refused, and nothing was stored: still nobody has asked.
            assert _not_requested(http.get(path))
        _until(lambda: http.get(f"/api/tables/{table}").json(), lambda t: t["status"] == "over")
        assert _not_requested(http.get(path))
        # No such table: a real 404 (an analysis nobody asked for is a state, not a 404).
        missing = http.get("/api/tables/nosuchtable/analysis")
        assert missing.status_code == 404 and missing.json()["code"] == "no_such_table"

        asked = http.post(path)
        assert asked.status_code in (200, 202), asked.text
        progress = asked.json()
        assert progress["total"] > 0 and 0 <= progress["done"] <= progress["total"]
        result = _until(lambda: http.get(path), lambda r: r.status_code != 202).json()
        assert result["status"] == "done", result
        record = http.get(f"/api/tables/{table}/record").json()

        again = http.post(path)
        assert again.status_code == 200
        assert again.json()["computed_at"] == result["computed_at"]  # not computed again

    plies = result["plies"]
    assert len(plies) == len(record["plies"]) == progress["total"]
    assert result["judgements"] == {"blunder": 0.3, "mistake": 0.2, "inaccuracy": 0.1}
    # VERSUS written a second time from the rules text follows the game: each engine ply is
    # legal in the position before the ply it is given for, and each played ply is the
    # record's; the rules engine agrees that the game is over.
    position = Position.start()
    for entry, played in zip(plies, record["plies"], strict=True):
        assert -1.0 <= entry["eval"] <= 1.0
        assert entry["played"] == played
        assert entry["best"] in position.legal(), entry
        assert entry["seat"] == position.to_move
        assert entry["judgement"] in (None, "inaccuracy", "mistake", "blunder")
        position.play(played)
    assert replay(record).is_over
    random_errors = [
        p for p in plies if p["seat"] == RANDOM and p["judgement"] in ("mistake", "blunder")
    ]
    assert random_errors, plies


def test_an_analysis_asked_for_during_play_is_refused_and_nothing_is_stored(server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        assert http.post("/api/guest", json={}).status_code in (200, 201)
        made = http.post("/api/tables", json={"game": "versus", "players": 2})
        table = str(made.json()["id"])
        assert http.post(f"/api/tables/{table}/bots", json={"bot": "random", "seat": 1}).is_success
        path = f"/api/tables/{table}/analysis"
        before = http.post(path)  # not even started
        assert before.status_code == 409 and before.json()["code"] == "game_not_over"
        assert http.post(f"/api/tables/{table}/start").status_code == 200
        # Blue, the guest, has not moved: the game is in play until they do.
        assert http.get(f"/api/tables/{table}").json()["status"] == "playing"
        during = http.post(path)
        assert during.status_code == 409 and during.json()["code"] == "game_not_over"
        assert _not_requested(http.get(path))


def test_a_verso_game_is_weighed_decision_by_decision(server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        table = _bot_game(http, "verso", ("random", "random"))
        _until(lambda: http.get(f"/api/tables/{table}").json(), lambda t: t["status"] == "over")
        path = f"/api/tables/{table}/analysis"
        assert http.post(path).status_code in (200, 202)
        result = _until(lambda: http.get(path), lambda r: r.status_code != 202).json()
        record = http.get(f"/api/tables/{table}/record").json()
    assert result["status"] == "done" and result["measure"] == "win"
    decisions = {d["ply"]: d for d in result["decisions"]}
    # Every decision with a choice is weighed; the best action is legal where it was made.
    state = verso.replay({**record, "actions": []})
    for number, played in enumerate(record["actions"], start=1):
        legal = [str(a) for a in state.legal_actions()]
        if len(legal) > 1:
            entry = decisions[number]
            assert entry["played"] == played and entry["seat"] == state.current_player
            assert entry["best"] in legal
            assert 0.0 <= entry["played_value"] <= entry["best_value"] <= 1.0
            assert entry["cost"] == pytest.approx(entry["best_value"] - entry["played_value"])
        else:
            assert number not in decisions
        state = state.apply(played)
    costs = [decisions[n]["cost"] for n in result["costliest"]]
    assert costs == sorted(costs, reverse=True) and all(c > 0 for c in costs)
    assert len(costs) == min(5, sum(1 for d in decisions.values() if d["cost"] > 0))


def test_only_a_table_that_exists_is_analysed(server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        assert http.post("/api/tables/nosuchtable/analysis").status_code == 404
        assert http.get("/api/tables/nosuchtable/analysis").status_code == 404
