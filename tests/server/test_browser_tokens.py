"""API tokens on the account's page (one's own player page) in real Chromium: a token is made
with a name and scopes, shown once with its warning and a copy button, works at once for a
bearer request made from the test, is listed with its last use, and once revoked (after a
confirmation) is refused at once; on a computer in English and on a phone in German, without
overflow. Screenshots go to ``SHOTS``."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.server.browsing import shot_and_fit
from tests.server.processes import REQUEST_SECONDS

pytestmark = pytest.mark.browser
COOKIE = "otherside_session"
WORDS = {
    "en-US": {
        "create": "Create token",
        "once": "it will not be shown again",
        "never": "never used",
        "revoke": "Revoke",
        "none": "No token yet.",
    },
    "de-DE": {
        "create": "Token erstellen",
        "once": "wird nicht noch einmal angezeigt",
        "never": "noch nie benutzt",
        "revoke": "Widerrufen",
        "none": "Noch kein Token.",
    },
}


@pytest.mark.parametrize(("width", "height", "locale"), [(1280, 800, "en-US"), (390, 844, "de-DE")])
def test_a_token_is_made_shown_once_used_and_revoked_from_the_account_page(
    server: str, browser: Any, width: int, height: int, locale: str
) -> None:
    name, words = f"Owner{width}", WORDS[locale]
    with httpx.Client(base_url=server, timeout=REQUEST_SECONDS) as person:
        assert person.post("/api/signup", json={"name": name, "password": "secret-pw"})
        cookie = str(person.cookies.get(COOKIE))
    with httpx.Client(base_url=server, timeout=REQUEST_SECONDS) as other:
        assert other.post("/api/signup", json={"name": f"{name}x", "password": "secret-pw"})
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    context.add_cookies([{"name": COOKIE, "value": cookie, "url": server}])
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page = context.new_page()
    page.goto(f"{server}/player/{name}")
    page.wait_for_selector("#token-form")
    page.wait_for_selector(f"[data-testid=token-list] >> text={words['none']}")
    page.fill("#token-name", "my bot")
    page.uncheck("input[name=scope][value=read]")
    page.click(f"#token-form button:has-text('{words['create']}')")
    shown = page.wait_for_selector("[data-testid=new-token]")
    token = shown.get_attribute("value") or page.input_value("[data-testid=new-token]")
    assert token.startswith("ots_")
    assert words["once"] in page.inner_text(".token-once")
    page.click(".token-once button")
    assert page.evaluate("navigator.clipboard.readText()") == token
    row = page.wait_for_selector("[data-testid=token-list] tr[data-token]")
    assert "my bot" in row.inner_text()
    assert row.query_selector("td:nth-child(2)").inner_text() == "play"
    assert row.query_selector("[data-testid=last-used]").inner_text() == words["never"]
    shot_and_fit(page, f"tokens-made-{width}")

    # The token works at once from outside the page, with its scope and no other.
    bearer = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=server, timeout=REQUEST_SECONDS) as program:
        made = program.post("/api/tables", json={"game": "versus", "players": 2}, headers=bearer)
        assert made.status_code in (200, 201), made.text
        assert made.json()["seats"][0]["name"] == name
        refused = program.get("/api/tables", headers=bearer)
        assert refused.status_code == 403 and refused.json()["code"] == "missing_scope"
    # Shown once: the page, opened again, lists the token but never shows it.
    page.reload()
    row = page.wait_for_selector("[data-testid=token-list] tr[data-token]")
    assert token not in page.content() and not page.query_selector("[data-testid=new-token]")
    # Its last use is listed now.
    assert row.query_selector("[data-testid=last-used]").inner_text() != words["never"]
    shot_and_fit(page, f"tokens-listed-{width}")

    # Revoked after a confirmation (dismissed once: nothing changes), then refused at once.
    questions: list[str] = []

    def answer(dialog: Any) -> None:
        questions.append(dialog.message)
        if len(questions) == 1:
            dialog.dismiss()
        else:
            dialog.accept()

    page.on("dialog", answer)
    page.click(f"[data-testid=token-list] button:has-text('{words['revoke']}')")
    assert len(questions) == 1 and "my bot" in questions[0]
    assert page.query_selector("[data-testid=token-list] tr[data-token]")
    page.click(f"[data-testid=token-list] button:has-text('{words['revoke']}')")
    page.wait_for_selector(f"[data-testid=token-list] >> text={words['none']}")
    with httpx.Client(base_url=server, timeout=REQUEST_SECONDS) as program:
        gone = program.post("/api/tables", json={"game": "versus", "players": 2}, headers=bearer)
        assert gone.status_code == 401 and gone.json()["code"] == "bad_token"
    shot_and_fit(page, f"tokens-revoked-{width}")
    # Another person's page has no tokens.
    page.goto(f"{server}/player/{name}x")
    page.wait_for_selector("#recent table, #recent p")
    assert not page.query_selector("#token-form")
    context.close()
