"""A stranger's address gets no reminder: the confirmation of an address, from outside a real
server process (``otherside serve --smtp`` to an SMTP server the test starts), on SQLite and
PostgreSQL. The link's page fetched (as a mail scanner does) confirms nothing; only its token
sent back does, once; a replaced link is refused; asking again is limited per account."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from otherside.testing.servers import LIFTED_LIMITS
from tests.server.conftest import Mailbox, link_token
from tests.server.processes import REQUEST_SECONDS, Server

LIMITS = (*LIFTED_LIMITS, "signups_per_address=1000", "email_links_per_account=3")


@pytest.fixture
def served(database_url: str, mailbox: Mailbox) -> Iterator[str]:
    """A server process on ``database_url`` mailing through ``mailbox``: its address."""
    process = Server(database_url, None, "--smtp", mailbox.url, "--bot-workers", "0", limits=LIMITS)
    try:
        yield process.url
    finally:
        process.stop()


def me(http: httpx.Client) -> tuple[str | None, bool]:
    user = http.get("/api/me").json()["user"]
    return user["email"], user["email_confirmed"]


def test_only_the_token_sent_back_confirms_and_only_once(served: str, mailbox: Mailbox) -> None:
    with httpx.Client(base_url=served, timeout=REQUEST_SECONDS) as ada:
        assert ada.post("/api/signup", json={"name": "Ada", "password": "secret-ada"})
        given = ada.post("/api/me/email", json={"email": "victim@example.org"})
        assert given.status_code == 200 and given.json()["sent"], given.text
        (mail,) = mailbox.messages
        assert mail["To"] == "victim@example.org"
        link = next(w for w in mail.get_content().split() if "/confirm-email#" in w)
        token = link_token(mail)
        # (The server names itself "localhost" in links; the test speaks to 127.0.0.1.)
        assert link.endswith(f":{served.rsplit(':', 1)[1]}/confirm-email#{token}")
        link = f"{served}/confirm-email#{token}"

        # Every way a scanner may fetch the link is a GET of a page: none confirms.
        with httpx.Client(timeout=REQUEST_SECONDS) as scanner:
            for url in (link, link.replace("#", "?token="), link.replace("#", "/")):
                scanner.get(url)
            assert scanner.head(link).status_code in (200, 405)
        assert me(ada) == ("victim@example.org", False)

        wrong = ada.post("/api/email/confirm", json={"token": token[::-1]})
        assert wrong.status_code == 404 and wrong.json()["code"] == "link_unknown"
        assert me(ada) == ("victim@example.org", False)

        # Ada changes the address: the link in the first mail no longer confirms anything.
        assert ada.post("/api/me/email", json={"email": "ada@example.org"}).json()["sent"]
        stale = ada.post("/api/email/confirm", json={"token": token})
        assert stale.status_code == 404 and stale.json()["code"] == "link_unknown"
        assert me(ada) == ("ada@example.org", False)

        fresh = link_token(mailbox.messages[-1])
        with httpx.Client(base_url=served, timeout=REQUEST_SECONDS) as phone:  # not signed in
            done = phone.post("/api/email/confirm", json={"token": fresh})
            assert done.json() == {"email": "ada@example.org", "confirmed": True}
            used = phone.post("/api/email/confirm", json={"token": fresh})
            assert used.status_code == 410 and used.json()["code"] == "link_used"
        assert me(ada) == ("ada@example.org", True)


def test_asking_again_is_limited_per_account(served: str, mailbox: Mailbox) -> None:
    with httpx.Client(base_url=served, timeout=REQUEST_SECONDS) as bob:
        assert bob.post("/api/signup", json={"name": "Bob", "password": "secret-bob"})
        assert bob.post("/api/me/email", json={"email": "bob@example.org"}).is_success
        assert bob.post("/api/me/email/resend").is_success
        assert bob.post("/api/me/email/resend").is_success
        refused = bob.post("/api/me/email/resend")
        assert refused.status_code == 429 and refused.json()["code"] == "too_many"
        assert int(refused.headers["Retry-After"]) > 0
        assert len(mailbox.messages) == 3
        # The refusal changed nothing: the last link mailed still confirms.
        last = link_token(mailbox.messages[-1])
        assert bob.post("/api/email/confirm", json={"token": last}).is_success
        assert me(bob) == ("bob@example.org", True)
