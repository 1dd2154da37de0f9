"""Accounts: sign up, sign in, guests, sessions; and the schema the migrations build."""

from __future__ import annotations

from fastapi import FastAPI
from sqlalchemy import inspect

from otherside.server.accounts.sessions import COOKIE
from otherside.server.store.models import Base
from tests.server.conftest import client, guest


async def test_sign_up_then_sign_in_with_the_same_name_in_any_case(app: FastAPI) -> None:
    async with client(app) as http:
        made = await http.post("/api/signup", json={"name": "Ada", "password": "lovelace"})
        assert made.status_code == 200 and made.json()["name"] == "Ada"
        assert COOKIE in made.cookies
        assert (await http.get("/api/me")).json()["user"]["name"] == "Ada"
        await http.post("/api/signout")
        http.cookies.clear()
        assert (await http.get("/api/me")).json() == {"user": None}
        back = await http.post("/api/signin", json={"name": "ada", "password": "lovelace"})
        assert back.status_code == 200 and back.json()["id"] == made.json()["id"]


async def test_bad_sign_ups_and_sign_ins_are_refused_with_reasons(app: FastAPI) -> None:
    async with client(app) as http:
        await http.post("/api/signup", json={"name": "Ada", "password": "lovelace"})
        taken = await http.post("/api/signup", json={"name": "ADA", "password": "another1"})
        assert taken.status_code == 409 and "taken" in taken.json()["detail"]
        short = await http.post("/api/signup", json={"name": "Bob", "password": "123"})
        assert short.status_code == 422 and "at least" in short.json()["detail"]
        odd = await http.post("/api/signup", json={"name": "B o b", "password": "123456"})
        assert odd.status_code == 422 and "letters" in odd.json()["detail"]
        wrong = await http.post("/api/signin", json={"name": "Ada", "password": "nope!!"})
        assert wrong.status_code == 401
        nobody = await http.post("/api/signin", json={"name": "Zed", "password": "whatever"})
        assert nobody.status_code == 401


async def test_a_guest_gets_a_generated_name_and_cannot_sign_in_with_a_password(
    app: FastAPI,
) -> None:
    http, user = await guest(app)
    assert user["guest"] and "-" in user["name"]
    assert (await http.get("/api/me")).json()["user"]["id"] == user["id"]
    refused = await http.post("/api/signin", json={"name": user["name"], "password": "x" * 8})
    assert refused.status_code == 401


async def test_a_forged_session_cookie_is_ignored(app: FastAPI) -> None:
    async with client(app) as http:
        http.cookies.set(COOKIE, '{"uid": 1}.forged.signature')
        assert (await http.get("/api/me")).json() == {"user": None}
        assert (
            await http.post("/api/tables", json={"game": "nim", "players": 2})
        ).status_code == 401


async def test_the_migrated_schema_matches_the_models(app: FastAPI) -> None:
    db = app.state.db
    inspector = inspect(db.engine)
    for table in Base.metadata.sorted_tables:
        columns = {c["name"] for c in inspector.get_columns(table.name)}
        assert columns == set(table.columns.keys()), table.name
