"""Personal API tokens against a real server process: made once and shown once, listed with
their last use, revoked at once (also in a second PostgreSQL process), accepted in place of the
cookie on HTTP and on the table websocket, held to their scopes and to their own limits."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from tests.security.conftest import limit_args
from tests.security.outside import (
    bearer,
    client,
    close_code,
    fresh,
    next_message,
    server,
    shared_fixture,  # noqa: F401 (the fixture "shared")
    socket_url,
)
from tests.server.conftest import postgres_database
from tests.server.processes import Server


async def account_with_token(
    http: httpx.AsyncClient, name: str, scopes: list[str] | None = None
) -> dict[str, Any]:
    """Sign ``http`` up as ``name`` and make a token (``play`` and ``read`` unless told)."""
    signed = await http.post("/api/signup", json={"name": name, "password": "secret-pw"})
    assert signed.status_code == 200, signed.text
    made = await http.post(
        "/api/tokens", json={"label": "my bot", "scopes": scopes or ["play", "read"]}
    )
    assert made.status_code == 201, made.text
    return dict(made.json())


async def test_a_token_is_shown_once_listed_and_revoked_at_once(shared: Server) -> None:
    api, ada = shared, fresh("Ada")
    async with client(api) as person, client(api) as program:
        made = await account_with_token(person, ada)
        token = made["token"]
        assert token.startswith("ots_") and made["scopes"] == ["read", "play"]
        listed = (await person.get("/api/tokens")).json()
        assert listed == [
            {
                "id": made["id"],
                "label": "my bot",
                "scopes": ["read", "play"],
                "created_at": made["created_at"],
                "last_used_at": None,
            }
        ]
        assert "token" not in listed[0]
        # The program has no cookie: the token alone signs it in.
        me = await program.get("/api/me", headers=bearer(token))
        assert me.status_code == 200 and me.json()["user"]["name"] == ada
        used = (await person.get("/api/tokens")).json()[0]
        assert used["last_used_at"] is not None
        # A token manages no tokens, whatever its scopes.
        tried = await program.get("/api/tokens", headers=bearer(token))
        assert tried.status_code == 403 and tried.json()["code"] == "token_not_allowed"
        gone = await person.delete(f"/api/tokens/{made['id']}")
        assert gone.status_code == 200 and gone.json() == {"revoked": made["id"]}
        refused = await program.get("/api/me", headers=bearer(token))
        assert refused.status_code == 401 and refused.json()["code"] == "bad_token"
        assert (await person.get("/api/tokens")).json() == []
        again = await person.delete(f"/api/tokens/{made['id']}")
        assert again.status_code == 404 and again.json()["code"] == "no_token"


async def test_bad_tokens_and_bad_requests_for_tokens_change_nothing(shared: Server) -> None:
    api = shared
    async with client(api) as person, client(api) as program:
        made = await account_with_token(person, fresh("Ada"))
        for body, code in (
            ({"label": "x", "scopes": ["fly"]}, "bad_scopes"),
            ({"label": "x", "scopes": []}, "bad_scopes"),
            ({"label": "x", "scopes": ["read", "read"]}, "bad_scopes"),
            ({"label": "   ", "scopes": ["read"]}, "bad_label"),
        ):
            answer = await person.post("/api/tokens", json=body)
            assert answer.status_code == 422 and answer.json()["code"] == code
        assert len((await person.get("/api/tokens")).json()) == 1
        # A wrong token is refused even where no sign-in is needed, and a cookie beside
        # it signs nobody in.
        tries = (bearer("ots_no"), {"Authorization": "Bearer"}, bearer(made["token"] + "x"))
        for headers in tries:
            wrong = await person.get("/api/tables", headers=headers)
            assert wrong.status_code == 401 and wrong.json()["code"] == "bad_token"
            made_one = await person.post("/api/tables", headers=headers, json={})
            assert made_one.status_code == 401
        # Guests and strangers make no tokens.
        stranger = await program.post("/api/tokens", json={"label": "x", "scopes": ["read"]})
        assert stranger.status_code == 401
        await program.post("/api/guest")
        guest = await program.post("/api/tokens", json={"label": "x", "scopes": ["read"]})
        assert guest.status_code == 401


async def test_a_token_does_only_what_its_scopes_allow(shared: Server) -> None:
    api, ada = shared, fresh("Ada")
    async with client(api) as person, client(api) as program:
        reader = (await account_with_token(person, ada, ["read"]))["token"]
        player = (await person.post("/api/tokens", json={"label": "p", "scopes": ["play"]})).json()[
            "token"
        ]
        assert (await program.get("/api/my/tables", headers=bearer(reader))).status_code == 200
        denied = await program.post(
            "/api/tables", headers=bearer(reader), json={"game": "versus", "players": 2}
        )
        assert denied.status_code == 403
        assert denied.json()["code"] == "missing_scope"
        assert denied.json()["params"] == {"scope": "play"}
        assert (await program.get("/api/my/tables", headers=bearer(reader))).json() == []
        # ``play`` sits at tables but reads nothing, and changes no setting.
        made = await program.post(
            "/api/tables", headers=bearer(player), json={"game": "versus", "players": 2}
        )
        assert made.status_code == 201 and made.json()["owner"] == ada
        listed = await program.get("/api/my/tables", headers=bearer(player))
        assert listed.status_code == 403 and listed.json()["params"] == {"scope": "read"}
        mail = await program.post(
            "/api/me/email", headers=bearer(player), json={"email": "a@b.org"}
        )
        assert mail.status_code == 403 and mail.json()["params"] == {"scope": "account"}


async def test_token_requests_have_their_own_limits(serve: Callable[..., Server]) -> None:
    api = serve(*limit_args(token_requests_per_minute=5, token_failures_per_address=3))
    async with client(api) as person, client(api) as program:
        token = (await account_with_token(person, "Ada"))["token"]
        answers = [
            (await program.get("/api/my/tables", headers=bearer(token))).status_code
            for _ in range(6)
        ]
        assert answers == [200] * 5 + [429]
        # The person's cookie is not the token: it is not held back.
        assert (await person.get("/api/my/tables")).status_code == 200
        wrong = [
            (await program.get("/api/tables", headers=bearer("ots_wrong"))).status_code
            for _ in range(4)
        ]
        assert wrong == [401] * 3 + [429]


async def open_with_token(api: Server, table_id: str, token: str) -> websockets.ClientConnection:
    """A table websocket signed in with ``token`` (no cookie)."""
    return await websockets.connect(
        socket_url(api, table_id), additional_headers=bearer(token), open_timeout=20
    )


async def test_the_table_websocket_takes_a_token_and_drops_it_when_revoked(
    shared: Server,
) -> None:
    api = shared
    async with client(api) as person, client(api) as host:
        made = await account_with_token(person, fresh("Ada"))
        await host.post("/api/guest")
        table = (await host.post("/api/tables", json={"game": "versus", "players": 2})).json()
        joined = await person.post(
            f"/api/tables/{table['id']}/join", headers=bearer(made["token"]), json={}
        )
        assert joined.status_code == 200
        assert (await host.post(f"/api/tables/{table['id']}/start")).status_code == 200
        socket = await open_with_token(api, table["id"], made["token"])
        view = await next_message(socket, "view")
        assert view["seat"] == 1
        reader = await person.post("/api/tokens", json={"label": "r", "scopes": ["read"]})
        no_play = await open_with_token(api, table["id"], reader.json()["token"])
        with pytest.raises(ConnectionClosed) as closed:
            await no_play.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
        assert (await person.delete(f"/api/tokens/{made['id']}")).status_code == 200
        await socket.send(json.dumps({"type": "resign"}))
        assert await close_code(socket) == 4401
        still = (await host.get(f"/api/tables/{table['id']}")).json()
        assert still["status"] == "playing"  # the resignation after the revocation: none
        wrong = await open_with_token(api, table["id"], made["token"])
        with pytest.raises(ConnectionClosed) as refused:
            await wrong.recv()
        assert refused.value.rcvd is not None and refused.value.rcvd.code == 4401


@pytest.mark.postgres
async def test_a_token_revoked_in_one_process_is_refused_by_another_at_once() -> None:
    with postgres_database() as url, server(url) as first, server(url) as second:
        async with client(first) as person, client(second) as program:
            made = await account_with_token(person, "Ada")
            assert (await program.get("/api/me", headers=bearer(made["token"]))).status_code == 200
            assert (await person.delete(f"/api/tokens/{made['id']}")).status_code == 200
            refused = await program.get("/api/me", headers=bearer(made["token"]))
            assert refused.status_code == 401 and refused.json()["code"] == "bad_token"


async def test_a_bot_account_is_shown_as_one_and_seated_where_the_host_allows(
    shared: Server,
) -> None:
    api, deep, kasparov = shared, fresh("Deep"), fresh("Kasparov")
    async with client(api) as owner, client(api) as host, client(api) as program:
        token = (await account_with_token(owner, deep))["token"]
        # Known to the session cache as a person before it becomes a bot.
        assert (await owner.get("/api/me")).json()["user"]["name"] == deep
        became = await program.post("/api/account/bot", headers=bearer(token))
        assert became.status_code == 200 and became.json() == {"name": deep, "bot": True}
        assert (await host.get(f"/api/players/{deep}")).json()["bot"] is True
        (await host.post("/api/signup", json={"name": kasparov, "password": "e4-e5-nf3"}))
        assert (await host.get(f"/api/players/{kasparov}")).json()["bot"] is False
        closed = await host.post(
            "/api/tables",
            json={"game": "versus", "players": 2, "options": {"bot_accounts": False}},
        )
        assert closed.status_code == 201
        refused = await program.post(
            f"/api/tables/{closed.json()['id']}/join", headers=bearer(token), json={}
        )
        assert refused.status_code == 403 and refused.json()["code"] == "no_bot_accounts"
        assert (await host.get(f"/api/tables/{closed.json()['id']}")).json()["seats"][1][
            "kind"
        ] == "empty"
        # The cookie, cached as a person's before, now seats a bot account too.
        open_table = (await host.post("/api/tables", json={"game": "versus", "players": 2})).json()
        joined = await owner.post(f"/api/tables/{open_table['id']}/join", json={})
        assert joined.status_code == 200
        seats = joined.json()["seats"]
        assert seats[1]["name"] == deep and seats[1]["bot_account"] is True
        assert seats[0]["bot_account"] is False
        # The rules of the upgrade: not for a guest, not after a game.
        assert (await host.post(f"/api/tables/{open_table['id']}/start")).status_code == 200
        late = await host.post("/api/account/bot")
        assert late.status_code == 409 and late.json()["code"] == "played_already"
        assert (await host.get(f"/api/players/{kasparov}")).json()["bot"] is False
        async with client(api) as guest:
            await guest.post("/api/guest")
            refused_guest = await guest.post("/api/account/bot")
            assert refused_guest.status_code == 403
            assert refused_guest.json()["code"] == "guest_bot"
