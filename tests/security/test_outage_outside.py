"""The newest routes while the database is down, against a real server process on a PostgreSQL
cluster of the test's own (stopped and started again by it), over real sockets: the bot API's
actions and event stream, an e-mail address and its confirmation, events, a bot declaration.

Each must answer 503 with ``Retry-After`` in our words (a websocket: close 1013, "try again
later"), and leave nothing half done once the database is back. Three did not: an action
refused because it could not be saved (``server_error``, 503) came without ``Retry-After``; the
event stream, opened with a session cookie (cached: no database read before the answer),
answered 200 and was then cut mid-answer (a protocol error to the client, a traceback in the
log); and a table websocket opened with an API token was dropped without a close frame (its
token's read failed outside the socket's handling of an outage). The stream now reads what it
needs before its status goes out, and ends (rather than breaks) if the database goes once it
has begun; the socket's token read is handled as its table's is.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest
import websockets

from tests.security.outside import bearer, client, fresh
from tests.security.test_mail_flood import smtp_envelopes
from tests.security.test_tokens import open_with_token
from tests.server.private_postgres import private_postgres

pytestmark = pytest.mark.postgres
PASSWORD = "p4ssword"
DRIVER_WORDS = ("psycopg", "sqlalchemy", "operationalerror", "traceback", "127.0.0.1")
EVENT = {"game": "versus", "rounds": 1}
FIRST_MOVE = "0:-4>0:-3"  # VERSUS, the first seat's


def _unavailable(answer: httpx.Response, what: str) -> None:
    assert answer.status_code == 503, (what, answer.status_code, answer.text)
    assert int(answer.headers.get("Retry-After", "0")) > 0, (what, answer.headers)
    body = answer.json()
    assert body["code"] in ("unavailable", "server_error") and body["detail"], (what, body)
    assert not any(words in answer.text.lower() for words in DRIVER_WORDS), (what, answer.text)


async def _signed_up(http: httpx.AsyncClient) -> None:
    made = await http.post("/api/signup", json={"name": fresh("Outage"), "password": PASSWORD})
    assert made.status_code == 200, made.text


async def test_the_newest_routes_answer_503_in_an_outage_and_change_nothing(serve: Any) -> None:
    with private_postgres() as cluster, smtp_envelopes() as box:
        api = serve("--smtp", box.url, database=cluster.url)
        async with client(api) as ada, client(api) as bob:
            await asyncio.gather(_signed_up(ada), _signed_up(bob))
            scopes = {"label": "bot", "scopes": ["read", "play", "account"]}
            token = bearer((await ada.post("/api/tokens", json=scopes)).json()["token"])
            event = (await ada.post("/api/tournaments", json=EVENT)).json()["id"]
            assert (await bob.post(f"/api/tournaments/{event}/join")).is_success
            table = (await ada.post("/api/tables", json={"game": "versus", "players": 2})).json()
            assert (await bob.post(f"/api/tables/{table['id']}/join", json={})).is_success
            assert (await ada.post(f"/api/tables/{table['id']}/start")).is_success
            assert (await ada.post("/api/me/email", json={"email": "ada@example.org"})).is_success
            before = await ada.get(f"/api/tournaments/{event}")
            move = {"version": 0, "takebacks": 0, "action": FIRST_MOVE}

            cluster.stop()
            calls: list[tuple[str, str, Any, dict[str, str]]] = [
                ("POST", f"/api/tables/{table['id']}/act", move, {}),
                ("POST", f"/api/tables/{table['id']}/act", move, token),
                ("POST", f"/api/tables/{table['id']}/resign", None, token),
                ("POST", "/api/me/email", {"email": "ada@example.net"}, {}),
                ("POST", "/api/me/email/resend", None, {}),
                ("POST", "/api/email/confirm", {"token": "x" * 43}, {}),
                ("POST", "/api/tournaments", EVENT, {}),
                ("POST", f"/api/tournaments/{event}/bots", {"bot": "greedy"}, {}),
                ("POST", f"/api/tournaments/{event}/start", None, {}),
                ("POST", "/api/account/bot", None, {}),
            ]
            for method, path, body, headers in calls:
                answer = await ada.request(method, path, json=body, headers=headers)
                _unavailable(answer, f"{method} {path} {bool(headers)}")
            _unavailable(await bob.post(f"/api/tournaments/{event}/leave"), "leave")
            for headers in ({}, token):
                # Before, with the cookie: 200, then the answer cut off.
                async with ada.stream("GET", "/api/stream/events", headers=headers) as stream:
                    await stream.aread()
                    _unavailable(stream, f"stream {bool(headers)}")
            # A program's table websocket: closed "try again later" (1013), in our words.
            socket = await open_with_token(api, table["id"], token["Authorization"][7:])
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(socket.recv(), 30)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
            assert not any(words in closed.value.rcvd.reason.lower() for words in DRIVER_WORDS)
            cluster.start()

            deadline = time.monotonic() + 30
            while (await ada.get("/api/me")).status_code != 200:
                assert time.monotonic() < deadline, "the server did not come back"
                await asyncio.sleep(0.1)
            me = (await ada.get("/api/me")).json()["user"]
            assert (me["email"], me["email_confirmed"]) == ("ada@example.org", False)
            assert box.recipients == [["ada@example.org"]]  # no mail went in the outage
            assert (await ada.get(f"/api/tournaments/{event}")).json() == before.json()
            acted = await ada.post(f"/api/tables/{table['id']}/act", json=move, headers=token)
            assert acted.status_code == 200, acted.text
            assert (acted.json()["version"], acted.json()["done"]) == (1, True)
