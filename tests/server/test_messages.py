"""Every websocket message type, and every refusal: a clear error and nothing changed.

The tables are driven through ``live.inbox.handle`` — the function the websocket endpoint calls
with each text frame — with recorder connections; the last test opens the endpoint itself.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi import FastAPI, WebSocketDisconnect
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from otherside.server.app import create_app
from otherside.server.live.inbox import handle
from otherside.server.live.protocol import ERROR_CODES, MAX_MESSAGE_CHARS
from otherside.server.store.db import sqlite_url
from otherside.server.store.models import Move
from otherside.server.tables.hub import TableHub
from otherside.server.tables.live import LiveTable
from otherside.server.tables.play import Play
from tests.server.conftest import Player, Recorder, hub_of, people, sqlite_only, table_with

# Words of the English refusals that a German one never holds.
ENGLISH_WORDS = re.compile(
    r"\b(the|message|is|not|has|must|with|known|unknown|field|type|longer)\b"
)


async def _watch(hub: TableHub, table_id: str, conns: list[Recorder]) -> LiveTable:
    live = None
    for conn in conns:
        live = await hub.attach(table_id, conn)
    assert live is not None
    return live


async def _moves(app: FastAPI, table_id: str) -> int:
    return await app.state.db.run(
        lambda s: s.scalar(select(func.count()).select_from(Move).where(Move.table_id == table_id))
    )


async def _two_humans(app: FastAPI) -> tuple[TableHub, LiveTable, list[Player], list[Recorder]]:
    players = await people(app, 2)
    table_id = await table_with(app, players, options={"first_player": 0})
    hub = hub_of(app)
    conns = [p.recorder() for p in players] + [Recorder(None)]
    live = await _watch(hub, table_id, conns)
    return hub, live, players, conns


async def test_connecting_sends_the_table_and_the_own_view_at_once(app: FastAPI) -> None:
    _hub, _live, _, (first, second, spectator) = await _two_humans(app)
    for seat, conn in enumerate([first, second, spectator]):
        kinds = [m["type"] for m in conn.messages]
        assert kinds == ["table", "view"]
        view = conn.last("view")
        expected = None if conn is spectator else seat
        assert view["seat"] == expected and view["view"]["player"] == expected
        assert view["version"] == 0 and conn.last("table")["you"] == expected
    assert first.last("view")["legal"] and second.last("view")["legal"] == []
    assert spectator.last("view")["legal"] == []


async def test_ping_and_sync(app: FastAPI) -> None:
    hub, live, _, (first, second, _) = await _two_humans(app)
    first.clear()
    await handle(hub, live, first, '{"type": "ping"}')
    assert first.messages == [{"type": "pong"}]
    first.clear()
    await handle(hub, live, first, json.dumps({"type": "sync"}))
    assert [m["type"] for m in first.messages] == ["table", "view"]
    assert second.messages[-1]["type"] == "view" and len(second.messages) == 2


async def test_an_action_goes_to_every_seat_as_its_own_view(app: FastAPI) -> None:
    hub, live, _, conns = await _two_humans(app)
    for conn in conns:
        conn.clear()
    legal = live.state.legal_actions()
    await handle(
        hub, live, conns[0], json.dumps({"type": "action", "version": 0, "action": "flip"})
    )
    assert str(legal[1]) == "flip" and live.info.version == 1
    assert await _moves(app, live.id) == 1
    for seat, conn in enumerate(conns):
        (view,) = conn.messages
        assert view["type"] == "view" and view["version"] == 1
        assert view["view"]["events"][0]["type"] == "draw"
        assert view["view"]["events"][0]["flipped"] is True
        assert view["legal"] == ([str(a) for a in live.state.legal_actions()] if seat == 1 else [])


def _bad_messages() -> list[tuple[str, str]]:
    return [
        ("not json", "malformed"),
        ("[1, 2]", "malformed"),
        ('{"version": 0}', "unknown_type"),
        ('{"type": "surrender"}', "unknown_type"),
        ('{"type": "action", "version": 0}', "malformed"),
        ('{"type": "action", "version": -1, "action": "flip"}', "malformed"),
        ('{"type": "action", "version": "0", "action": "flip", "x": 1}', "malformed"),
        ('{"type": "action", "version": 0, "action": ""}', "malformed"),
        ('{"type": "ping", "extra": true}', "malformed"),
        ("<binary>", "malformed"),
        ('{"type": "sync", "pad": "' + "x" * MAX_MESSAGE_CHARS + '"}', "malformed"),
        ('{"type": "action", "version": 0, "action": "fly away"}', "illegal"),
        ('{"type": "action", "version": 0, "action": "series blue 1 2"}', "illegal"),
        ('{"type": "action", "version": 0, "action": "pass"}', "illegal"),
        ('{"type": "action", "version": 5, "action": "flip"}', "stale"),
    ]


async def test_bad_messages_get_a_clear_error_and_change_nothing(app: FastAPI) -> None:
    """Every bad message, each at a new table of the same server (a server per message cost a
    database each and proved nothing more: a refusal is made before anything is written)."""
    for text, code in _bad_messages():
        hub, live, _, (first, second, spectator) = await _two_humans(app)
        before = (live.state, live.info)
        for conn in (first, second, spectator):
            conn.clear()
        await handle(hub, live, first, text)
        error = first.messages[0]
        assert error["type"] == "error" and error["code"] == code, (text[:80], error)
        assert error["code"] in ERROR_CODES and error["message"] and error["version"] == 0
        assert (live.state, live.info) == before and await _moves(app, live.id) == 0, text[:80]
        assert second.messages == [] and spectator.messages == [], text[:80]
        if code == "stale":
            assert [m["type"] for m in first.messages] == ["error", "table", "view"]
        if code == "illegal" and "series" in text:
            assert "legal: draw, flip" in error["message"]


@sqlite_only()
async def test_a_malformed_message_is_refused_in_the_readers_language(app: FastAPI) -> None:
    """What is wrong with a message is said in German to a German reader, from the parts of
    the refusal (the field, the limit, the known types), not the English sentence again."""
    hub, live, _, _ = await _two_humans(app)
    english, german = Recorder(None), Recorder(None, language="de")
    for conn in (english, german):
        await hub.attach(live.id, conn)
    shapes = [text for text, code in _bad_messages() if code in ("malformed", "unknown_type")]
    shapes += ['{"type": "chat", "text": "' + "x" * 400 + '"}', "[" * 40 + "]" * 40]
    for text in shapes:
        for conn in (english, german):
            conn.clear()
            await handle(hub, live, conn, text)
        (said,), (told,) = english.messages, german.messages
        assert said["code"] == told["code"] and said["params"] == told["params"], text[:80]
        words = re.sub(r"'[^']*'|„[^“]*“|\"[^\"]*\"", "", told["message"])
        assert not ENGLISH_WORDS.findall(words), (text[:80], told["message"])
        assert told["message"] != said["message"], text[:80]


async def test_out_of_turn_spectator_and_unseated_actions_are_refused(app: FastAPI) -> None:
    hub, live, _players, (_first, second, spectator) = await _two_humans(app)
    action = json.dumps({"type": "action", "version": 0, "action": "draw"})
    for conn, code in ((second, "not_your_turn"), (spectator, "not_seated")):
        conn.clear()
        await handle(hub, live, conn, action)
        assert conn.messages[0]["code"] == code
    (outsider,) = await people(app, 1)
    stranger = outsider.recorder()
    await hub.attach(live.id, stranger)
    stranger.clear()
    await handle(hub, live, stranger, action)
    assert stranger.messages[0]["code"] == "not_seated"
    assert live.info.version == 0 and await _moves(app, live.id) == 0


async def test_actions_before_the_start_and_after_the_end_are_refused(app: FastAPI) -> None:
    players = await people(app, 2)
    table_id = await table_with(app, players, start=False)
    hub = hub_of(app)
    host = players[0].recorder()
    live = await hub.attach(table_id, host)
    assert [m["type"] for m in host.messages] == ["table"]
    await handle(hub, live, host, '{"type": "action", "version": 0, "action": "draw"}')
    assert host.messages[-1]["code"] == "not_started"
    await players[0].http.post(f"/api/tables/{table_id}/start")
    assert [m["type"] for m in host.messages[-2:]] == ["table", "view"]
    while not live.state.is_over:
        seat = live.state.current_player
        action = str(live.state.legal_actions()[0])
        await hub.ask(live.id, Play(players[seat].user, live.info.version, action))
    assert host.last("table")["table"]["status"] == "over"
    final = host.last("view")
    assert final["view"]["outcome"] is not None and final["legal"] == []
    await handle(
        hub,
        live,
        host,
        json.dumps({"type": "action", "version": live.info.version, "action": "draw"}),
    )
    assert host.messages[-1]["code"] == "game_over"


async def test_a_reconnecting_player_gets_the_current_view_at_once(app: FastAPI) -> None:
    hub, live, players, (first, second, _) = await _two_humans(app)
    await handle(hub, live, first, '{"type": "action", "version": 0, "action": "draw"}')
    hub.detach(live, second)
    await handle(hub, live, second, '{"type": "ping"}')
    back = players[1].recorder()
    await hub.attach(live.id, back)
    view: dict[str, Any] = back.last("view")
    assert view["version"] == 1 and view["seat"] == 1 and view["legal"]
    assert view["view"] == second.last("view")["view"]


def test_a_socket_to_no_table_is_closed_as_not_found(tmp_path: Any) -> None:
    app = create_app(sqlite_url(tmp_path / "none.db"), bot_workers=0, run_scheduler=False)
    with (
        TestClient(app) as http,
        http.websocket_connect("/ws/tables/nothing") as socket,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        socket.receive_text()
    assert (closed.value.code, closed.value.reason) == (4404, "no table 'nothing'")


def test_a_socket_closes_in_the_readers_language(tmp_path: Any) -> None:
    app = create_app(sqlite_url(tmp_path / "none.db"), bot_workers=0, run_scheduler=False)
    german = {"Accept-Language": "de-DE,de;q=0.9"}
    with TestClient(app) as http:
        with (
            http.websocket_connect("/ws/tables/nothing", headers=german) as socket,
            pytest.raises(WebSocketDisconnect) as closed,
        ):
            socket.receive_text()
        assert (closed.value.code, closed.value.reason) == (4404, "kein Tisch „nothing“")
        foreign = {**german, "Origin": "http://elsewhere.example"}
        with (
            http.websocket_connect("/ws/tables/nothing", headers=foreign) as socket,
            pytest.raises(WebSocketDisconnect) as refused,
        ):
            socket.receive_text()
        assert refused.value.code == 4403
        assert refused.value.reason == "Verbindung von einer fremden Seite abgelehnt"
