"""A stranger's mailbox flooded through the confirmation mails of e-mail addresses, against a
real server process over real sockets, its mail taken by a real SMTP server (aiosmtpd) that
keeps each mail's envelope: who it really went to.

The limit on mails to one address counted the text given, while mail software reads more into
it: ``v(1)@x.org``, ``v@x.org(2)`` and ``"v"@x.org`` (a comment, quotes) all went to
``v@x.org``, each counted apart — without end, to one victim — and ``a,v@x.org`` went to two
recipients (``a`` of the relay's own domain, and ``v@x.org``). An address is now a plain one,
each mail goes to that address alone, and the limit counts the mailbox (``V+tag@X.org`` is
``v@x.org``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx

from otherside.server.accounts.email_links import mailbox
from tests.security.conftest import limit_args
from tests.security.outside import client, fresh, refusal
from tests.server.processes import free_port

VICTIM = "victim@example.org"


@dataclass
class Envelopes:
    """What a real SMTP server was asked to deliver: each mail's recipients."""

    url: str
    recipients: list[list[str]] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.recipients.append(list(envelope.rcpt_tos))
        return "250 OK"


@contextmanager
def smtp_envelopes() -> Iterator[Envelopes]:
    """An SMTP server on loopback for the block, keeping each mail's envelope recipients."""
    from aiosmtpd.controller import Controller

    port = free_port()
    box = Envelopes(f"smtp://127.0.0.1:{port}")
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box
    finally:
        controller.stop()


async def _signed_up(http: httpx.AsyncClient) -> None:
    made = await http.post("/api/signup", json={"name": fresh("Mal"), "password": "p4ssword"})
    assert made.status_code == 200, made.text


async def test_one_mailbox_gets_the_limit_whatever_its_address_is_dressed_as(serve: Any) -> None:
    with smtp_envelopes() as box:
        api = serve("--smtp", box.url, *limit_args(email_links_per_address=1))
        async with client(api) as first, client(api) as mallory:
            await asyncio.gather(_signed_up(first), _signed_up(mallory))
            given = await first.post("/api/me/email", json={"email": VICTIM})
            assert given.json() == {"email": VICTIM, "confirmed": False, "sent": True}
            disguises = [
                "victim(2)@example.org",
                "victim@example.org(3)",
                "victim@(4)example.org",
                '"victim"@example.org',
                "someone,victim@example.org",
                "<victim@example.org>",
                "victim@example.org.",
            ]
            for disguise in disguises:
                refused = await mallory.post("/api/me/email", json={"email": disguise})
                assert refusal(refused, 422, "bad_email")["params"]["email"] == disguise
            # The same mailbox written otherwise is counted as one: the limit (1) was reached.
            for same in ("Victim@EXAMPLE.org", "victim+chess@example.org"):
                assert mailbox(same) == VICTIM
                refusal(await mallory.post("/api/me/email", json={"email": same}), 429, "too_many")
            me = (await mallory.get("/api/me")).json()["user"]
            assert me["email"] is None
        assert box.recipients == [[VICTIM]]
