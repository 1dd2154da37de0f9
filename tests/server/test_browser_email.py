"""The reminder address in real Chromium, on a computer in English and on a phone in German: the
lobby says an address just given is not confirmed and offers its link again; the link replaced
by the new one is refused on its page; the new link's page confirms only when its button is
pressed; the lobby then says confirmed (both pages pass axe). Through a server process that
mails to an SMTP server the test starts. Screenshots go to ``SHOTS``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from otherside.server.store.db import sqlite_url
from tests.server.axe import report, violations
from tests.server.browsing import shot_and_fit
from tests.server.conftest import Mailbox, link_token, smtp_server
from tests.server.processes import REQUEST_SECONDS, Server

pytestmark = pytest.mark.browser
COOKIE = "otherside_session"
WAIT = 20000
WORDS = {
    "en-US": {
        "not": "not confirmed",
        "yes": "confirmed",
        "again": "Send the link again",
        "unknown": "this confirmation link is unknown",
        "done": "is confirmed",
        "button": "Confirm my address",
        "subject": "otherside: confirm your e-mail address",
    },
    "de-DE": {
        "not": "nicht bestätigt",
        "yes": "bestätigt",
        "again": "Link erneut senden",
        "unknown": "dieser Bestätigungslink ist unbekannt",
        "done": "ist bestätigt",
        "button": "Meine Adresse bestätigen",
        "subject": "otherside: Bestätige deine E-Mail-Adresse",
    },
}


@pytest.fixture(scope="module")
def mailing_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Mailbox]]:
    """A server process on SQLite mailing to an SMTP server of the test: its address and the
    mailbox."""
    with smtp_server() as box:
        url = sqlite_url(tmp_path_factory.mktemp("mail") / "otherside.db")
        process = Server(
            url,
            None,
            "--bot-workers",
            "0",
            "--smtp",
            box.url,
            limits=("signups_per_address=1000",),
        )
        try:
            yield process.url, box
        finally:
            process.kill()


def mails_to(box: Mailbox, address: str, count: int) -> list[Any]:
    """The mails to ``address`` once there are ``count`` (the server sends before answering;
    the wait is for the SMTP server's thread)."""
    deadline = time.monotonic() + REQUEST_SECONDS
    while True:
        found = [m for m in box.messages if m["To"] == address]
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


@pytest.mark.parametrize(("width", "height", "locale"), [(1280, 800, "en-US"), (390, 844, "de-DE")])
def test_the_lobby_shows_whether_the_address_is_confirmed(
    mailing_server: tuple[str, Mailbox], browser: Any, width: int, height: int, locale: str
) -> None:
    server, box = mailing_server
    words, name = WORDS[locale], f"Mail{width}"
    address = f"{name.lower()}@example.org"
    with httpx.Client(base_url=server, timeout=REQUEST_SECONDS) as person:
        assert person.post("/api/signup", json={"name": name, "password": "secret-pw"})
        cookie = str(person.cookies.get(COOKIE))
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    context.add_cookies([{"name": COOKIE, "value": cookie, "url": server}])
    page = context.new_page()
    page.goto(server + "/")
    page.wait_for_selector("#email-form", timeout=WAIT)
    assert page.is_hidden("#email-state")  # no address: nothing to confirm
    page.fill("#email", address)
    page.click("#email-form button[type=submit]")
    page.wait_for_selector("#email-state[data-state=unconfirmed]", timeout=WAIT)
    assert page.inner_text("#email-status") == words["not"]
    assert page.is_visible("#email-resend") and page.inner_text("#email-resend") == words["again"]
    (first,) = mails_to(box, address, 1)
    assert first["Subject"] == words["subject"]  # in the reader's language: none chosen
    shot_and_fit(page, f"email-unconfirmed-{width}")
    found = violations(page)
    assert not found, report(found)

    page.click("#email-resend")
    first_link, second = [link_token(m) for m in mails_to(box, address, 2)]
    # The link replaced by the new one: its page refuses it, and says why.
    page.goto(f"{server}/confirm-email#{first_link}")
    page.click("#confirm")
    page.wait_for_selector("#confirm-result.error", timeout=WAIT)
    assert words["unknown"] in page.inner_text("#confirm-result")
    assert page.is_hidden("#confirm-form")
    shot_and_fit(page, f"email-link-refused-{width}")

    page.goto("about:blank")  # (else only the part after '#' would change: no new page)
    page.goto(f"{server}/confirm-email#{second}")
    page.wait_for_selector("#confirm", timeout=WAIT)
    assert page.inner_text("#confirm") == words["button"]
    assert first_link not in page.url and second not in page.url  # off the address bar
    with httpx.Client(base_url=server, timeout=REQUEST_SECONDS, cookies={COOKIE: cookie}) as me:
        # The page opened: nothing confirmed before the button is pressed.
        assert me.get("/api/me").json()["user"]["email_confirmed"] is False
        shot_and_fit(page, f"email-confirm-page-{width}")
        found = violations(page)
        assert not found, report(found)
        page.click("#confirm")
        page.wait_for_selector("#confirm-result.ok", timeout=WAIT)
        assert words["done"] in page.inner_text("#confirm-result") and address in page.inner_text(
            "#confirm-result"
        )
        assert me.get("/api/me").json()["user"]["email_confirmed"] is True
    shot_and_fit(page, f"email-confirmed-page-{width}")

    page.goto(server + "/")
    page.wait_for_selector("#email-state[data-state=confirmed]", timeout=WAIT)
    assert page.inner_text("#email-status") == words["yes"]
    assert page.is_hidden("#email-resend")
    page.locator(".lobby-reminders").scroll_into_view_if_needed()
    shot_and_fit(page, f"email-confirmed-{width}")
    context.close()
