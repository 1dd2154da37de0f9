"""A player's settings on the account (``GET``/``PUT /api/me/settings``): whether each move is
confirmed before it is sent — none chosen at first, kept once chosen, back to none with
``null``; a guest or a stranger is told to sign in (their choice stays in the browser), and a
bad body is refused and changes nothing."""

from __future__ import annotations

from fastapi import FastAPI

from tests.server.conftest import client, guest, registered


async def test_the_account_keeps_its_choice_and_bad_bodies_change_nothing(app: FastAPI) -> None:
    (ada,) = await registered(app, "ada")
    assert (await ada.http.get("/api/me/settings")).json() == {"confirm_moves": None}
    kept = await ada.http.put("/api/me/settings", json={"confirm_moves": False})
    assert kept.status_code == 200 and kept.json() == {"confirm_moves": False}
    assert (await ada.http.get("/api/me/settings")).json() == {"confirm_moves": False}
    for bad in ({"confirm_moves": "yes"}, {"confirm_moves": True, "colour": "red"}, [True]):
        refused = await ada.http.put("/api/me/settings", json=bad)
        assert refused.status_code == 422, bad
    assert (await ada.http.get("/api/me/settings")).json() == {"confirm_moves": False}
    await ada.http.put("/api/me/settings", json={"confirm_moves": True})
    (bob,) = await registered(app, "bob")
    assert (await bob.http.get("/api/me/settings")).json() == {"confirm_moves": None}
    assert (await ada.http.get("/api/me/settings")).json() == {"confirm_moves": True}
    await ada.http.put("/api/me/settings", json={"confirm_moves": None})
    assert (await ada.http.get("/api/me/settings")).json() == {"confirm_moves": None}


async def test_guests_and_strangers_are_told_to_sign_in(app: FastAPI) -> None:
    visitor, _ = await guest(app)
    stranger = client(app)
    for http in (visitor, stranger):
        for method in ("GET", "PUT"):
            answer = await http.request(method, "/api/me/settings", json={"confirm_moves": True})
            assert answer.status_code == 401 and answer.json()["code"] == "not_signed_in"
