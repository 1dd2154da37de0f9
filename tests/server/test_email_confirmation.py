"""An account's e-mail address is confirmed by a link mailed to it before any reminder goes
there (server/accounts/email_links.py, server/http/email.py): through a real SMTP server
(aiosmtpd, started by the test), on SQLite and PostgreSQL, time from a ManualClock."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import timedelta
from typing import Any

from fastapi import FastAPI
from sqlalchemy import text

from otherside.server.clock import ManualClock
from otherside.server.live.inbox import handle
from tests.server.conftest import (
    GENEROUS,
    PUBLIC_URL,
    Mailbox,
    Player,
    client,
    link_token,
    registered,
    running,
    table_with,
    watched,
)

PACE = {"kind": "turn", "days": 7, "remind_days": 4}


@asynccontextmanager
async def mailing(
    database_url: str, mailbox: Mailbox, clock: ManualClock, **limits: Any
) -> AsyncIterator[FastAPI]:
    """An app that mails through ``mailbox``, its time from ``clock``, its scheduler run by
    the test, with ``limits`` changed from the tests' generous ones."""
    async with running(
        database_url,
        clock=clock,
        run_scheduler=False,
        smtp_url=mailbox.url,
        public_url=PUBLIC_URL,
        limits=replace(GENEROUS, **limits),
    ) as app:
        yield app


async def state(player: Player) -> tuple[str | None, bool]:
    """The player's address and whether it is confirmed, as ``/api/me`` tells them."""
    me = (await player.http.get("/api/me")).json()["user"]
    return me["email"], me["email_confirmed"]


async def confirm(player: Player, token: str) -> Any:
    """Follow a link as its page does: a POST of its token (no sign-in needed)."""
    return await player.http.post("/api/email/confirm", json={"token": token})


async def reminded_after_four_days(
    app: FastAPI, clock: ManualClock, ada: Player, bob: Player
) -> None:
    """A VERSUS game of Ada and Bob where Bob has been to move for four days (reminded)."""
    table_id = await table_with(app, [ada, bob], game="versus", pace=PACE)
    hub, live, (blue, _brown, _) = await watched(app, table_id, [ada, bob])
    move = {"type": "action", "version": 0, "action": "0:-4>0:-3"}
    await handle(hub, live, blue, json.dumps(move))
    clock.advance(days=4)
    assert await app.state.scheduler.run_due() >= 1  # (an earlier game may end now too)
    mine = (await bob.http.get("/api/my/tables")).json()
    assert [t["reminded"] for t in mine if t["id"] == table_id] == [True]


async def test_an_unconfirmed_address_gets_no_reminder_until_its_link_is_followed(
    database_url: str, mailbox: Mailbox
) -> None:
    clock = ManualClock()
    async with mailing(database_url, mailbox, clock) as app:
        ada, bob = await registered(app, "Ada", "Bob")
        given = await bob.http.post("/api/me/email", json={"email": "bob@example.org"})
        assert given.json() == {"email": "bob@example.org", "confirmed": False, "sent": True}
        (asked,) = mailbox.messages
        assert asked["To"] == "bob@example.org"
        assert asked["Subject"] == "otherside: confirm your e-mail address"
        body = asked.get_content()
        assert f"{PUBLIC_URL}/confirm-email#" in body and "Bob" in body
        token = link_token(asked)
        assert await state(bob) == ("bob@example.org", False)
        # Only the hash is kept: the token is nowhere in the database.
        rows = await app.state.db.run(lambda s: s.execute(text("SELECT * FROM email_links")).all())
        assert len(rows) == 1 and token not in repr(rows)

        await reminded_after_four_days(app, clock, ada, bob)
        assert len(mailbox.messages) == 1  # the lobby shows the reminder; no mail went

        # The page of the link changes nothing when fetched (a mail scanner's prefetch).
        page = await bob.http.get(f"/confirm-email?token={token}")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert await state(bob) == ("bob@example.org", False)

        # Four days on, that link has expired: Bob asks for another and follows it on another
        # device, signed in nowhere (the token is the proof).
        assert (await confirm(bob, token)).json()["code"] == "link_expired"
        assert (await bob.http.post("/api/me/email/resend")).json()["sent"]
        token = link_token(mailbox.messages[-1])
        done = await confirm(Player(client(app), bob.user), token)
        assert done.status_code == 200, done.text
        assert done.json() == {"email": "bob@example.org", "confirmed": True}
        assert await state(bob) == ("bob@example.org", True)

        await reminded_after_four_days(app, clock, ada, bob)
        reminder = mailbox.messages[-1]
        assert len(mailbox.messages) == 3 and reminder["To"] == "bob@example.org"
        assert reminder["Subject"] == "otherside: your move in VERSUS against Ada"


async def test_a_wrong_used_or_expired_link_is_refused_and_changes_nothing(
    database_url: str, mailbox: Mailbox
) -> None:
    clock = ManualClock()
    async with mailing(database_url, mailbox, clock) as app:
        (ada,) = await registered(app, "Ada")
        await ada.http.post("/api/me/email", json={"email": "ada@example.org"})
        first = link_token(mailbox.messages[-1])

        for wrong in ("", "x" * 43, first[:-1], first + "A", "y" * 500):
            refused = await confirm(ada, wrong)
            if len(wrong) > 100:
                assert refused.status_code == 422, wrong  # refused unread: too long
                continue
            assert refused.status_code == 404, (wrong, refused.text)
            assert refused.json()["code"] == "link_unknown"
            assert "unknown" in refused.json()["detail"]
        assert await state(ada) == ("ada@example.org", False)

        clock.advance(hours=24)
        expired = await confirm(ada, first)
        assert expired.status_code == 410 and expired.json()["code"] == "link_expired"
        assert await state(ada) == ("ada@example.org", False)

        again = await ada.http.post("/api/me/email/resend")
        assert again.json() == {"email": "ada@example.org", "confirmed": False, "sent": True}
        second = link_token(mailbox.messages[-1])
        assert second != first
        clock.advance(hours=23, minutes=59)
        assert (await confirm(ada, second)).status_code == 200
        used = await confirm(ada, second)
        assert used.status_code == 410 and used.json()["code"] == "link_used"
        assert await state(ada) == ("ada@example.org", True)
        # Nothing left to confirm: asking again is refused, and sends nothing.
        sent = len(mailbox.messages)
        confirmed = await ada.http.post("/api/me/email/resend")
        assert confirmed.status_code == 409 and confirmed.json()["code"] == "email_confirmed"
        assert len(mailbox.messages) == sent


async def test_a_new_address_makes_the_old_link_useless(
    database_url: str, mailbox: Mailbox
) -> None:
    clock = ManualClock()
    async with mailing(database_url, mailbox, clock) as app:
        (ada,) = await registered(app, "Ada")
        await ada.http.post("/api/me/email", json={"email": "old@example.org"})
        old = link_token(mailbox.messages[-1])
        await ada.http.post("/api/me/email", json={"email": "new@example.org"})
        assert mailbox.messages[-1]["To"] == "new@example.org"
        new = link_token(mailbox.messages[-1])
        stale = await confirm(ada, old)
        assert stale.status_code == 404 and stale.json()["code"] == "link_unknown"
        assert await state(ada) == ("new@example.org", False)
        assert (await confirm(ada, new)).json()["email"] == "new@example.org"
        assert await state(ada) == ("new@example.org", True)

        # The same address again stays confirmed and mails nothing.
        sent = len(mailbox.messages)
        same = await ada.http.post("/api/me/email", json={"email": "new@example.org"})
        assert same.json() == {"email": "new@example.org", "confirmed": True, "sent": False}
        assert len(mailbox.messages) == sent and await state(ada) == ("new@example.org", True)

        # A change is unconfirmed again; a link of the address before it no longer confirms.
        await ada.http.post("/api/me/email", json={"email": "third@example.org"})
        third = link_token(mailbox.messages[-1])
        assert await state(ada) == ("third@example.org", False)
        await ada.http.post("/api/me/email", json={"email": None})
        assert await state(ada) == (None, False)
        gone = await confirm(ada, third)
        assert gone.status_code == 404 and await state(ada) == (None, False)
        nothing = await ada.http.post("/api/me/email/resend")
        assert nothing.status_code == 409 and nothing.json()["code"] == "no_email"


async def test_confirmation_mails_are_limited_per_account_and_per_address(
    database_url: str, mailbox: Mailbox
) -> None:
    clock = ManualClock()
    limits = {"email_links_per_account": 2, "email_links_per_address": 3}
    async with mailing(database_url, mailbox, clock, **limits) as app:
        ada, bob, cyd = await registered(app, "Ada", "Bob", "Cyd")
        await ada.http.post("/api/me/email", json={"email": "x@example.org"})
        assert (await ada.http.post("/api/me/email/resend")).status_code == 200
        working = link_token(mailbox.messages[-1])
        refused = await ada.http.post("/api/me/email/resend")
        assert refused.status_code == 429 and refused.json()["code"] == "too_many"
        assert 0 < int(refused.headers["Retry-After"]) <= 3600
        assert "confirmation mails for your account" in refused.json()["detail"]
        # A change of address counts too (else changing it back and forth would flood).
        changed = await ada.http.post("/api/me/email", json={"email": "y@example.org"})
        assert changed.status_code == 429 and await state(ada) == ("x@example.org", False)
        assert len(mailbox.messages) == 2
        # The refusals changed nothing: the last link still works.
        assert (await confirm(ada, working)).status_code == 200

        # Many accounts can't flood one stranger's address either.
        assert (await bob.http.post("/api/me/email", json={"email": "X@example.org"})).is_success
        flood = await cyd.http.post("/api/me/email", json={"email": "x@example.org"})
        assert flood.status_code == 429 and "to this address" in flood.json()["detail"]
        assert await state(cyd) == (None, False) and len(mailbox.messages) == 3

        clock.advance(hours=1)
        assert (await bob.http.post("/api/me/email/resend")).json()["sent"]
        assert (await cyd.http.post("/api/me/email", json={"email": "x@example.org"})).is_success
        assert len(mailbox.messages) == 5


async def test_confirmation_mails_to_one_address_are_limited_in_a_day_too(
    database_url: str, mailbox: Mailbox
) -> None:
    clock = ManualClock()
    limits = {"email_links_per_address": 2, "email_links_per_address_day": 3}
    async with mailing(database_url, mailbox, clock, **limits) as app:
        strangers = await registered(app, "S1", "S2", "S3", "S4")

        async def give(player: Player) -> Any:
            return await player.http.post("/api/me/email", json={"email": "v@example.org"})

        assert [(await give(s)).status_code for s in strangers[:3]] == [200, 200, 429]
        clock.advance(hours=1)  # the hour's count starts again, the day's does not
        assert (await give(strangers[2])).status_code == 200
        refused = await give(strangers[3])
        assert refused.status_code == 429
        assert "confirmation mails to this address in a day" in refused.json()["detail"]
        assert 3600 < int(refused.headers["Retry-After"]) <= 86400
        assert len(mailbox.messages) == 3 and await state(strangers[3]) == (None, False)
        clock.advance(hours=23)
        assert (await give(strangers[3])).status_code == 200
        assert len(mailbox.messages) == 4


async def test_the_confirmation_mail_is_in_the_account_language(
    database_url: str, mailbox: Mailbox
) -> None:
    clock = ManualClock()
    async with mailing(database_url, mailbox, clock) as app:
        de, fr, nl, en, chosen_by_browser = await registered(app, "De", "Fr", "Nl", "En", "Br")
        for player, language in ((de, "de"), (fr, "fr"), (nl, "nl")):
            assert (await player.http.post("/api/language", json={"language": language})).is_success
        for player in (de, fr, nl, en):
            await player.http.post("/api/me/email", json={"email": f"{player.user.name}@x.org"})
        await chosen_by_browser.http.post(
            "/api/me/email", json={"email": "br@x.org"}, headers={"Accept-Language": "nl-BE"}
        )
        subjects = {m["To"]: m["Subject"] for m in mailbox.messages}
        assert subjects == {
            "De@x.org": "otherside: Bestätige deine E-Mail-Adresse",
            "Fr@x.org": "otherside : confirmez votre adresse e-mail",
            "Nl@x.org": "otherside: bevestig je e-mailadres",
            "En@x.org": "otherside: confirm your e-mail address",
            "br@x.org": "otherside: bevestig je e-mailadres",
        }
        german = mailbox.messages[0].get_content()
        assert german.startswith("Hallo De,") and "dir gehört" in german
        end = clock.now() + timedelta(hours=24)
        assert f"{end.day}. " in german and "UTC" in german
        assert "vous" in mailbox.messages[1].get_content()


async def test_without_a_mail_server_nothing_is_sent_and_asking_again_says_so(
    app: FastAPI,
) -> None:
    (ada,) = await registered(app, "Ada")
    given = await ada.http.post("/api/me/email", json={"email": "ada@example.org"})
    assert given.json() == {"email": "ada@example.org", "confirmed": False, "sent": False}
    again = await ada.http.post("/api/me/email/resend")
    assert again.status_code == 503 and again.json()["code"] == "no_mail"


async def test_a_link_sent_twice_at_once_confirms_once(database_url: str, mailbox: Mailbox) -> None:
    clock = ManualClock()
    async with mailing(database_url, mailbox, clock) as app:
        (ada,) = await registered(app, "Ada")
        await ada.http.post("/api/me/email", json={"email": "ada@example.org"})
        token = link_token(mailbox.messages[-1])
        tries = [Player(client(app), ada.user) for _ in range(4)]
        answers = await asyncio.gather(*(confirm(t, token) for t in tries))
        assert sorted(a.status_code for a in answers) == [200, 410, 410, 410]
        assert {a.json().get("code") for a in answers if a.status_code == 410} == {"link_used"}
        assert await state(ada) == ("ada@example.org", True)
