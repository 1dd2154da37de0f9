"""Limits that keep a public server usable: how fast one account or address may sign in wrongly,
make guests, accounts and tables, or chat — each a setting with a default a small public server
can live with, counted by :class:`~otherside.server.accounts.limiter.Limiter` on the server's clock.

A refused request gets HTTP 429 with ``Retry-After`` (whole seconds) and changes nothing. Counts
are kept in the database, shared by every server process on it; a request reserves its slot
before the slow work, so simultaneous requests cannot all slip under a limit. Addresses are
counted by :func:`~otherside.server.accounts.addresses.address_key` (an IPv6 /64 is one). The
rates of the costly reads the pages poll (the lobby's lists…) are counted in each process's
memory instead (:mod:`~otherside.server.accounts.rates`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, TypeVar

from otherside.i18n import N_
from otherside.server.accounts.limiter import Limiter, Quota

S = TypeVar("S")
DAY_SECONDS = 86400.0


@dataclass(frozen=True)
class Limits:
    """The server's limits (every count is per window of the given seconds).

    Attributes:
        signin_failures_per_name_address: wrong passwords for one account from one address
            before that address pauses for the rest of the window.
        signin_failures_per_address: wrong passwords from one address (any names) before it
            pauses.
        signin_failures_per_name: wrong passwords for one account from everywhere before the
            account slows down: each further attempt from a browser that never signed in to it
            waits 1, 2, 4 … seconds after the previous one (never locked: a browser signed in
            keeps its session, and one that signed in to the account before is not slowed).
        signin_slowdown_max: seconds, the longest wait of that slowdown.
        signin_window: seconds over which sign-in failures count (and a pause lasts).
        signups_per_address: accounts one address may create per ``creation_window``.
        guests_per_address: guest accounts one address may create per ``creation_window``.
        creation_window: seconds, for sign-ups and guests.
        tables_per_user: tables one account may create per ``tables_window``.
        tables_per_address: tables one address may create per ``tables_window``.
        tables_window: seconds, for table creation.
        waiting_tables_per_user: open (waiting) tables one account may host at once.
        chat_lines_per_minute: chat lines one person may send to a table per minute.
        bot_think_cap: seconds one bot decision may think; a host's ``think`` above it is
            refused, a worker past it (and a grace) is stopped and the bot plays a random move.
        all_bot_tables_per_user: games with no person seated one account may run at once.
        all_bot_events_per_user: events of built-in bots only one account may run at once
            (each may play many games at once).
        all_bot_moves: moves after which a game with no person seated ends, aborted.
        away_seconds: how long a player without a clock (a Recto Verso partner) must have been
            gone from the table before the others may play on with a bot in their seat.
        token_requests_per_minute: requests one API token may make per minute (its
            websocket's messages and its event stream count as one each when opened).
        token_failures_per_address: requests with an unknown or revoked API token one address
            may make per ``token_failures_window`` before it is refused with 429.
        token_failures_window: seconds, for those.
        email_links_per_account: confirmation mails one account may have sent (giving an
            address, or asking again) per ``email_links_window``.
        email_links_per_address: confirmation mails that may go to one e-mail address (from
            any accounts) per ``email_links_window``: nobody can flood a stranger's mailbox.
        email_links_window: seconds, for those.
        email_links_per_address_day: confirmation mails that may go to one e-mail address in
            a day, however the hours are spread (else a stranger's accounts could send it
            ``email_links_per_address`` every hour, a hundred and twenty a day).
        lobby_lists_per_minute: lists of tables (the lobby's open and live tables, my games)
            one person may read a minute on average, five seconds' worth at once: the lobby page
            reads three every 5 s, 36 a minute, so three lobby pages open and their reloads.
        player_pages_per_minute: players' pages one person may read a minute (a page reads
            its player once, when opened).
        lesson_moves_per_minute: moves one person may try in the lessons a minute (one a
            click).
        people_per_address: how many signed-in people one address may stand for in those
            three rates (a club or a school behind one NAT): an address may read that many
            persons' rates; nobody signed in, one person's
            (:mod:`~otherside.server.accounts.rates`).

    A refused request gets HTTP 429 with ``Retry-After`` and changes nothing.
    """

    signin_failures_per_name_address: int = 5
    signin_failures_per_address: int = 20
    signin_failures_per_name: int = 10
    signin_slowdown_max: float = 60.0
    signin_window: float = 900.0
    signups_per_address: int = 10
    guests_per_address: int = 10
    creation_window: float = 3600.0
    tables_per_user: int = 10
    tables_per_address: int = 30
    tables_window: float = 600.0
    waiting_tables_per_user: int = 5
    chat_lines_per_minute: int = 12
    bot_think_cap: float = 10.0
    all_bot_tables_per_user: int = 2
    all_bot_events_per_user: int = 2
    all_bot_moves: int = 400
    away_seconds: float = 60.0
    token_requests_per_minute: int = 300
    token_failures_per_address: int = 30
    token_failures_window: float = 600.0
    email_links_per_account: int = 3
    email_links_per_address: int = 5
    email_links_window: float = 3600.0
    email_links_per_address_day: int = 10
    lobby_lists_per_minute: int = 120
    player_pages_per_minute: int = 60
    lesson_moves_per_minute: int = 300
    people_per_address: int = 50


def parse_limits(items: list[str]) -> Limits:
    """Limits from ``NAME=VALUE`` settings (``otherside serve --limit guests_per_address=50``).

    >>> parse_limits(["guests_per_address=50"]).guests_per_address
    50
    >>> parse_limits(["guests=5"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown limit 'guests'; limits: signin_failures_per_name_address, ...
    """
    return parse_settings(Limits(), items, "limit")


def parse_settings(defaults: S, items: list[str], word: str) -> S:
    """``defaults`` (a dataclass of numbers) changed by ``NAME=VALUE`` settings; ``word``
    names a setting in errors (``limit``, ``guard``)."""
    fields = {f.name: f.type for f in dataclasses.fields(defaults)}  # type: ignore[arg-type]
    values: dict[str, Any] = {}
    for item in items:
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep:
            raise ValueError(f"a {word} is NAME=VALUE, not {item!r}")
        if name not in fields:
            raise ValueError(f"unknown {word} {name!r}; {word}s: {', '.join(fields)}")
        try:
            value = int(text) if fields[name] in (int, "int") else float(text)
        except ValueError as exc:
            raise ValueError(f"{word} {name}: {text!r} is not a number") from exc
        if value < 0:
            raise ValueError(f"{word} {name}: {value} is negative")
        values[name] = value
    return dataclasses.replace(defaults, **values)  # type: ignore[type-var]


class Throttles:
    """Every quota of a server, built from its :class:`Limits`, and the limiter they count in."""

    def __init__(self, limits: Limits, limiter: Limiter) -> None:
        self.limits = limits
        self.limiter = limiter
        signin = limits.signin_window
        self.signin_address = Quota(
            "signin-address",
            limits.signin_failures_per_address,
            signin,
            N_("failed sign-ins from your address"),
        )
        self.signin_name_address = Quota(
            "signin-name-address",
            limits.signin_failures_per_name_address,
            signin,
            N_("failed sign-ins for this name from your address"),
        )
        # Counted without a limit: past signin_failures_per_name the account slows down.
        self.signin_name = Quota("signin-name", limits.signin_failures_per_name, signin, "")
        self.signups = Quota(
            "signups",
            limits.signups_per_address,
            limits.creation_window,
            N_("new accounts from your address"),
        )
        self.guests = Quota(
            "guests",
            limits.guests_per_address,
            limits.creation_window,
            N_("guest accounts from your address"),
        )
        self.tables_user = Quota(
            "tables-user",
            limits.tables_per_user,
            limits.tables_window,
            N_("new tables from your account"),
        )
        self.tables_address = Quota(
            "tables-address",
            limits.tables_per_address,
            limits.tables_window,
            N_("new tables from your address"),
        )
        self.chat = Quota("chat", limits.chat_lines_per_minute, 60.0, N_("chat lines"))
        self.token_requests = Quota(
            "token-requests", limits.token_requests_per_minute, 60.0, N_("requests with this token")
        )
        self.token_failures = Quota(
            "token-failures",
            limits.token_failures_per_address,
            limits.token_failures_window,
            N_("requests with unknown tokens from your address"),
        )
        self.email_links_account = Quota(
            "email-links-account",
            limits.email_links_per_account,
            limits.email_links_window,
            N_("confirmation mails for your account"),
        )
        self.email_links_address = Quota(
            "email-links-address",
            limits.email_links_per_address,
            limits.email_links_window,
            N_("confirmation mails to this address"),
        )
        self.email_links_address_day = Quota(
            "email-links-address-day",
            limits.email_links_per_address_day,
            DAY_SECONDS,
            N_("confirmation mails to this address in a day"),
        )
