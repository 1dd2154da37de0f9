"""A bot account in real Chromium: the seat it takes and its player page say it is a bot, in
the reader's language, on a computer and on a phone, without overflow; and /docs/bots, the
protocol's page, fits a phone. Screenshots go to ``SHOTS``."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.server.browsing import shot_and_fit
from tests.server.processes import REQUEST_SECONDS

pytestmark = pytest.mark.browser
COOKIE = "otherside_session"


def _bot_account_at_a_table(server: str, name: str) -> tuple[str, str]:
    """A bot account ``name`` seated at a person's VERSUS table: the table id and the
    person's session cookie."""
    with (
        httpx.Client(base_url=server, timeout=REQUEST_SECONDS) as program,
        httpx.Client(base_url=server, timeout=REQUEST_SECONDS) as person,
    ):
        program.post("/api/signup", json={"name": name, "password": "secret-pw"})
        token = program.post("/api/tokens", json={"label": "b", "scopes": ["play"]}).json()
        headers = {"Authorization": f"Bearer {token['token']}"}
        assert program.post("/api/account/bot", headers=headers).status_code == 200
        person.post("/api/signup", json={"name": f"{name}Host", "password": "secret-pw"})
        table = person.post("/api/tables", json={"game": "versus", "players": 2}).json()
        joined = program.post(f"/api/tables/{table['id']}/join", headers=headers, json={})
        assert joined.status_code == 200
        return str(table["id"]), str(person.cookies.get(COOKIE))


@pytest.mark.parametrize(("width", "height", "locale"), [(1280, 800, "en-US"), (390, 844, "de-DE")])
def test_a_bot_account_is_marked_at_its_seat_and_on_its_player_page(
    server: str, browser: Any, width: int, height: int, locale: str
) -> None:
    name = f"Bot{width}"
    table_id, cookie = _bot_account_at_a_table(server, name)
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    context.add_cookies([{"name": COOKIE, "value": cookie, "url": server}])
    page = context.new_page()
    words = "bot account" if locale == "en-US" else "Bot-Konto"
    page.goto(f"{server}/table/{table_id}")
    # The seat's mark is in the players' list; the waiting room (all a phone shows before the
    # game) says it beside the name too.
    page.wait_for_selector("[data-testid=bot-account-1]", state="attached")
    assert words in page.text_content("[data-testid=bot-account-1]")
    assert f"{name} ({words})" in page.inner_text("body")
    shot_and_fit(page, f"bot-account-table-{width}")
    page.goto(f"{server}/player/{name}")
    page.wait_for_selector("[data-testid=bot-account]")
    assert words in page.inner_text("#name")
    shot_and_fit(page, f"bot-account-player-{width}")
    page.goto(f"{server}/docs/bots")
    page.wait_for_selector("#view-rectoverso")
    shot_and_fit(page, f"docs-bots-{width}")
    context.close()
