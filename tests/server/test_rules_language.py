"""The rules pages' text in the reader's language: the page's own (``?lang=``), else the
language cookie, else ``Accept-Language``; English for a language without a guide."""

from __future__ import annotations

from fastapi import FastAPI

from otherside.guide import rules_text
from tests.server.conftest import people, sqlite_only


@sqlite_only()
async def test_the_rules_are_served_in_the_readers_language(app: FastAPI) -> None:
    (someone,) = await people(app, 1)
    german = await someone.http.get("/api/rules/verso", headers={"Accept-Language": "de-AT, en"})
    assert german.text == rules_text("verso", "de") and "Straße werten" in german.text
    assert german.headers["content-language"] == "de"
    assert "Accept-Language" in german.headers["vary"]
    # The page asks for its own language, which wins over the browser's.
    french = await someone.http.get("/api/rules/versus?lang=fr", headers={"Accept-Language": "de"})
    assert french.text == rules_text("versus", "fr") and "case cible" in french.text
    # The switcher's cookie wins over the browser's language.
    dutch = await someone.http.get(
        "/api/rules/rectoverso", headers={"Accept-Language": "de", "Cookie": "lang=nl"}
    )
    assert dutch.text == rules_text("rectoverso", "nl") and "bouwpartner" in dutch.text


@sqlite_only()
async def test_a_language_without_a_guide_gets_the_english_rules(app: FastAPI) -> None:
    (someone,) = await people(app, 1)
    for query in ("?lang=ja", "?lang=%3Cscript%3E", ""):
        page = await someone.http.get(f"/api/rules/verso{query}", headers={"Accept-Language": "ja"})
        assert page.status_code == 200 and page.text == rules_text("verso")
        assert page.headers["content-language"] == "en"
    assert (await someone.http.get("/api/rules/chess?lang=de")).status_code == 404
