"""The protocol for programs against a real server process: the account's NDJSON event stream
(``tableStart``, ``yourTurn`` with the seat's view, legal actions and version, ``tableEnd``),
actions sent back with the version they answer (a stale one refused with 409 ``stale``), and
``otherside bot run`` (a subprocess) playing a VERSUS game to its end against a person who
plays with a cookie over the table websocket."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from typing import Any

import httpx

from otherside.server.store.db import sqlite_url
from tests.security.outside import (
    COOKIE,
    bearer,
    client,
    open_socket,
    play_to_the_end,
    shared_fixture,  # noqa: F401 (the fixture "shared")
)
from tests.security.test_tokens import account_with_token
from tests.server.conftest import sqlite_only
from tests.server.processes import REQUEST_SECONDS, SRC, Server, free_port


async def events(http: httpx.AsyncClient, token: str) -> AsyncIterator[dict[str, Any]]:
    """The events of the stream of ``token``'s account (keep-alive lines skipped)."""
    async with http.stream(
        "GET", "/api/stream/events", headers=bearer(token), timeout=httpx.Timeout(30.0)
    ) as stream:
        assert stream.status_code == 200
        assert stream.headers["content-type"].startswith("application/x-ndjson")
        async for line in stream.aiter_lines():
            if line.strip():
                yield json.loads(line)


async def versus_table(host: httpx.AsyncClient) -> str:
    """A guest's VERSUS table for two; its id."""
    (await host.post("/api/guest")).raise_for_status()
    made = await host.post("/api/tables", json={"game": "versus", "players": 2})
    made.raise_for_status()
    return str(made.json()["id"])


@sqlite_only("shared")
async def test_the_stream_tells_a_program_its_turn_and_takes_its_actions(shared: Server) -> None:
    api = shared
    async with client(api) as person, client(api) as program, client(api) as host:
        token = (await account_with_token(person, "Turing"))["token"]
        table_id = await versus_table(host)
        joined = await program.post(f"/api/tables/{table_id}/join", headers=bearer(token), json={})
        assert joined.status_code == 200 and joined.json()["seats"][1]["name"] == "Turing"
        stream = events(program, token)
        async with asyncio.timeout(60):
            assert (await host.post(f"/api/tables/{table_id}/start")).status_code == 200
            start = await anext(stream)
            assert start["type"] == "tableStart" and start["seat"] == 1
            assert start["table"]["id"] == table_id and start["table"]["status"] == "playing"
            # The host (seat 0) moves first: the program's turn comes after.
            host_socket = await open_socket(api, table_id, cookie=host.cookies.get(COOKIE))
            view = json.loads(await host_socket.recv())
            while view["type"] != "view":
                view = json.loads(await host_socket.recv())
            await host_socket.send(
                json.dumps({"type": "action", "version": 0, "action": view["legal"][0]})
            )
            turn = await anext(stream)
        assert turn["type"] == "yourTurn" and turn["table"] == table_id
        assert turn["game"] == "versus" and turn["seat"] == 1 and turn["version"] == 1
        assert turn["view"]["player"] == 1 and turn["view"]["ply"] == 1
        assert turn["legal"] and set(turn["clock"]) >= {"to_move", "time_left_ms"}
        act = f"/api/tables/{table_id}/act"
        stale = await program.post(
            act, headers=bearer(token), json={"version": 0, "action": turn["legal"][0]}
        )
        assert stale.status_code == 409 and stale.json()["code"] == "stale"
        assert stale.json()["params"]["table_version"] == 1
        assert stale.json()["params"]["table_takebacks"] == 0
        illegal = await program.post(
            act, headers=bearer(token), json={"version": 1, "action": "z99"}
        )
        assert illegal.status_code == 422 and illegal.json()["code"] == "illegal"
        stranger = await host.post(act, json={"version": 1, "action": turn["legal"][0]})
        assert stranger.status_code == 409 and stranger.json()["code"] == "not_your_turn"
        assert (await host.get(f"/api/tables/{table_id}")).json()["version"] == 1
        done = await program.post(
            act, headers=bearer(token), json={"version": 1, "action": turn["legal"][0]}
        )
        assert done.status_code == 200
        assert done.json() == {"table": table_id, "version": 2, "takebacks": 0, "done": True}
        # The host gives up: the game ends, and the stream says so.
        await host_socket.send(json.dumps({"type": "resign"}))
        async with asyncio.timeout(60):
            end = await anext(stream)
        assert end["type"] == "tableEnd" and end["table"]["status"] == "over"
        assert end["table"]["outcome"] is not None
        await host_socket.close()
        await stream.aclose()


def bot_run(api: Server, token: str, *extra: str) -> subprocess.Popen[str]:
    """``otherside bot run`` against ``api`` with ``token`` (a process of its own)."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "otherside",
            "bot",
            "run",
            "--server",
            api.url,
            "--token",
            token,
            *extra,
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


@sqlite_only("shared")
async def test_bot_run_plays_a_versus_game_to_the_end_against_a_person(shared: Server) -> None:
    api = shared
    async with client(api) as bot_owner, client(api) as person:
        token = (await account_with_token(bot_owner, "GreedyBotAccount"))["token"]
        (await person.post("/api/signup", json={"name": "Hopper", "password": "cobol-59"}))
        made = await person.post("/api/tables", json={"game": "versus", "players": 2})
        table_id = made.json()["id"]
        async with httpx.AsyncClient(base_url=api.url, timeout=REQUEST_SECONDS) as program:
            joined = await program.post(
                f"/api/tables/{table_id}/join", headers=bearer(token), json={}
            )
            assert joined.status_code == 200
        runner = bot_run(api, token, "--bot", "greedy", "--games", "1")
        try:
            assert (await person.post(f"/api/tables/{table_id}/start")).status_code == 200
            socket = await open_socket(api, table_id, cookie=person.cookies.get(COOKIE))
            async with asyncio.timeout(240):
                played = await play_to_the_end(socket)
            await socket.close()
            output, _ = await asyncio.to_thread(runner.communicate, timeout=60)
        finally:
            if runner.poll() is None:
                runner.kill()
        assert runner.returncode == 0, output
        assert f"{table_id} started: seat 1" in output and f"{table_id} over" in output
        table = (await person.get(f"/api/tables/{table_id}")).json()
        assert table["status"] == "over" and table["outcome"] is not None
        # The account played its seat itself to the end (no bot of the server's took over).
        assert table["seats"][1]["name"] == "GreedyBotAccount"
        assert table["seats"][1]["forfeit"] is None and table["seats"][0]["forfeit"] is None
        assert played > 0 and table["version"] >= 2 * played - 1


@sqlite_only("shared")
async def test_bot_run_stops_at_once_on_a_refused_token(shared: Server) -> None:
    api = shared
    runner = bot_run(api, "ots_unknown", "--bot", "random")
    output, _ = await asyncio.to_thread(runner.communicate, timeout=60)
    assert runner.returncode == 2
    assert "refused the token" in output


async def table_against_a_server_bot(api: Server, owner: httpx.AsyncClient, token: str) -> str:
    """A VERSUS table of the token's account against the server's random bot, started; its
    id (the account made it with the token alone)."""
    headers = bearer(token)
    made = await owner.post("/api/tables", headers=headers, json={"game": "versus", "players": 2})
    assert made.status_code == 201, made.text
    table_id = str(made.json()["id"])
    filled = await owner.post(
        f"/api/tables/{table_id}/bots", headers=headers, json={"bot": "random"}
    )
    assert filled.status_code == 200
    assert (await owner.post(f"/api/tables/{table_id}/start", headers=headers)).status_code == 200
    return table_id


async def wait_over(http: httpx.AsyncClient, table_id: str, seconds: float = 240) -> dict[str, Any]:
    """The table once its game is over (looked at every half second)."""
    async with asyncio.timeout(seconds):
        while True:
            table: dict[str, Any] = (await http.get(f"/api/tables/{table_id}")).json()
            if table["status"] == "over":
                return table
            await asyncio.sleep(0.5)


OUTSIDE_PROGRAM = """
import json, sys
for line in sys.stdin:
    event = json.loads(line)
    print(event["type"], file=sys.stderr)
    if event["type"] == "yourTurn":
        print(event["legal"][0], flush=True)
"""


@sqlite_only("shared")
async def test_bot_run_plays_with_an_outside_program(shared: Server, tmp_path: Any) -> None:
    program = tmp_path / "my_bot.py"
    program.write_text(OUTSIDE_PROGRAM)
    api = shared
    async with client(api) as owner:
        token = (await account_with_token(owner, "Outsider"))["token"]
        table_id = await table_against_a_server_bot(api, owner, token)
        runner = bot_run(api, token, "--command", f"{sys.executable} {program}", "--games", "1")
        try:
            table = await wait_over(owner, table_id)
            output, _ = await asyncio.to_thread(runner.communicate, timeout=60)
        finally:
            if runner.poll() is None:
                runner.kill()
        assert runner.returncode == 0, output
        assert table["seats"][0]["forfeit"] is None and table["version"] > 2
        # The program was told the start and the end too (it echoes each event's type).
        assert "tableStart" in output and "tableEnd" in output and "yourTurn" in output


@sqlite_only("shared")
async def test_the_example_client_plays_a_game_to_its_end(shared: Server) -> None:
    api = shared
    async with client(api) as owner:
        token = (await account_with_token(owner, "Example"))["token"]
        table_id = await table_against_a_server_bot(api, owner, token)
        example = subprocess.Popen(
            [
                sys.executable,
                "-u",
                str(SRC.parent / "examples" / "bot_client.py"),
                api.url,
                token,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            table = await wait_over(owner, table_id)
        finally:
            example.kill()
            output, _ = await asyncio.to_thread(example.communicate, timeout=30)
        assert table["seats"][0]["forfeit"] is None and table["version"] > 2, (table, output)
        # It plays moves: it never gives up by chance (resign is among VERSUS's legal actions).
        assert "resigned" not in table["outcome"]["reason"], (table, output)
        assert "tableStart" in output and "yourTurn" in output


@sqlite_only("shared")
async def test_the_stream_keeps_alive_and_ends_when_its_token_is_revoked(shared: Server) -> None:
    api = shared
    async with client(api) as person, client(api) as program:
        made = await account_with_token(person, "Quiet")
        async with program.stream(
            "GET", "/api/stream/events", headers=bearer(made["token"])
        ) as stream:
            lines = stream.aiter_lines()
            async with asyncio.timeout(30):
                assert await anext(lines) == ""  # nothing happens: a keep-alive line
            revoked = await person.delete(f"/api/tokens/{made['id']}")
            assert revoked.status_code == 200
            rest: list[str] = []
            async with asyncio.timeout(30):
                rest = [line async for line in lines]
            assert all(line == "" for line in rest)  # then the stream ended
        again = await program.get("/api/stream/events", headers=bearer(made["token"]))
        assert again.status_code == 401 and again.json()["code"] == "bad_token"


async def test_bot_run_reconnects_by_itself_when_the_server_comes_back(tmp_path: Any) -> None:
    url = sqlite_url(tmp_path / "otherside.db")
    port = free_port()
    first = Server(url, port)
    runner: subprocess.Popen[str] | None = None
    second: Server | None = None
    try:
        async with client(first) as owner:
            token = (await account_with_token(owner, "Phoenix"))["token"]
            made = await owner.post(
                "/api/tables", headers=bearer(token), json={"game": "versus", "players": 2}
            )
            table_id = made.json()["id"]
            filled = await owner.post(
                f"/api/tables/{table_id}/bots", headers=bearer(token), json={"bot": "random"}
            )
            assert filled.status_code == 200
        runner = bot_run(first, token, "--bot", "greedy", "--games", "1")
        assert runner.stdout is not None
        async with asyncio.timeout(60):
            following = await asyncio.to_thread(runner.stdout.readline)
        assert following.strip() == "following the account's events"
        first.kill()  # kill -9: the stream breaks
        second = Server(url, port)
        async with client(second) as owner:
            # The game starts on the new process only: the client plays it if it came back.
            started = await owner.post(f"/api/tables/{table_id}/start", headers=bearer(token))
            assert started.status_code == 200
            table = await wait_over(owner, table_id)
        output, _ = await asyncio.to_thread(runner.communicate, timeout=60)
    finally:
        if runner is not None and runner.poll() is None:
            runner.kill()
        first.kill()
        if second is not None:
            second.kill()
    assert runner.returncode == 0, output
    assert "connection lost" in output and f"{table_id} over" in output
    assert table["seats"][0]["forfeit"] is None and table["seats"][0]["name"] == "Phoenix"
