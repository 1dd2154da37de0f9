"""What the table's page is told of presence across real server processes on the test
PostgreSQL database (:mod:`otherside.server.cluster.away_marks`): a Recto Verso partner
connected through the other process is never shown away in the ``table`` message — when either
comes, or comes back — and one who leaves (closes their socket, or whose process dies) is shown
away to the other within seconds, with no move made, and not away once back; and the page
itself, in Chromium, marks no partner on the other process away.

The two processes are the module's pair (:func:`tests.server.conftest.pair`); a test that kills
one kills the first. Waits are for what the processes do, bounded by :data:`TOLD`."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from otherside.server.cluster.liveness import VANISHED_SECONDS
from tests.server.cluster_processes import Heard, Wanted, connected, guest, heard, partners_table
from tests.server.conftest import eventually
from tests.server.test_browser_table import _context, _page

pytestmark = pytest.mark.postgres
TOLD = 15.0  # seconds a presence change may take to reach the other process's page, loaded


def _table(away: dict[int, bool]) -> Wanted:
    """A ``table`` message in which each seat of ``away`` is shown away (``True``) or not."""
    return lambda m: (
        m["type"] == "table"
        and all(
            (m["table"]["seats"][seat]["away_since"] is not None) == gone
            for seat, gone in away.items()
        )
    )


@asynccontextmanager
async def _partners(ada_port: int, bob_port: int) -> AsyncIterator[tuple[str, str, str]]:
    """Ada (seat 0), a guest through the process on ``ada_port``, and Bob (seat 1) through
    ``bob_port``, at the Recto Verso table they started: the table, and each one's cookie."""
    ada, ada_cookie = await guest(ada_port)
    bob, bob_cookie = await guest(bob_port)
    try:
        yield await partners_table(ada, bob), ada_cookie, bob_cookie
    finally:
        await ada.aclose()
        await bob.aclose()


def _shown_away(kept: Heard, seat: int, since: int = 0) -> list[dict[str, Any]]:
    """The ``table`` messages from number ``since`` on that show ``seat`` away."""
    return [
        m
        for m in kept.messages[since:]
        if m["type"] == "table" and m["table"]["seats"][seat]["away_since"] is not None
    ]


async def test_a_partner_connected_through_the_other_process_is_never_shown_away(
    two: Any,
) -> None:
    database, servers = two
    first, second = (server.port for server in servers)
    async with (
        _partners(first, second) as (table, ada_cookie, bob_cookie),
        heard(first, table, ada_cookie) as ada_ws,
    ):
        # Bob has not come yet: Ada is told so.
        await ada_ws.until(_table({1: True}), timeout=TOLD)
        await eventually(lambda: connected(database, table) == 1)
        async with heard(second, table, bob_cookie) as bob_ws:
            # Bob, through the other process, is told at once that Ada is here...
            first_table = await bob_ws.until(lambda m: m["type"] == "table", timeout=TOLD)
            assert first_table["table"]["seats"][0]["away_since"] is None, first_table
            # ...and Ada that he came, with no move made.
            await ada_ws.until(_table({1: False}), timeout=TOLD)
            both = ada_ws.read_to
            # Another tab of each, through the other's process: nobody away there either.
            async with (
                heard(second, table, ada_cookie) as ada_there,
                heard(first, table, bob_cookie) as bob_there,
            ):
                for tab in (ada_there, bob_there):
                    shown = await tab.until(lambda m: m["type"] == "table", timeout=TOLD)
                    assert [s["away_since"] for s in shown["table"]["seats"]] == [None, None]
            # Each tab closed (its process told the other tab's leaving at once): the players
            # are still connected through the other process.
            await eventually(lambda: connected(database, table) == 2)
            assert not _shown_away(ada_ws, 1, since=both)
            assert not _shown_away(bob_ws, 0)
            left = len(ada_ws.messages)
        # Bob's page reloads, through the same process: away meanwhile, then back, and his
        # new page shows Ada here from its first message.
        await ada_ws.until(_table({1: True}), since=left, timeout=TOLD)
        async with heard(second, table, bob_cookie) as bob_again:
            first_table = await bob_again.until(lambda m: m["type"] == "table", timeout=TOLD)
            assert first_table["table"]["seats"][0]["away_since"] is None, first_table
            await ada_ws.until(_table({1: False}), since=ada_ws.read_to, timeout=TOLD)
            back = ada_ws.read_to
            await eventually(lambda: connected(database, table) == 2)
            assert not _shown_away(bob_again, 0)
            assert not _shown_away(ada_ws, 1, since=back)


async def test_a_partner_who_leaves_the_other_process_is_shown_away_then_back(
    two: Any,
) -> None:
    database, servers = two
    first, second = (server.port for server in servers)
    async with (
        _partners(first, second) as (table, ada_cookie, bob_cookie),
        heard(first, table, ada_cookie) as ada_ws,
    ):
        async with heard(second, table, bob_cookie):
            await ada_ws.until(_table({1: False}), timeout=TOLD)
            await eventually(lambda: connected(database, table) == 2)
            before = len(ada_ws.messages)
        # Bob closed his socket: Ada, through the other process, is told he is away (since
        # when he left), with no move made.
        gone = await ada_ws.until(_table({1: True}), since=before, timeout=TOLD)
        assert gone["table"]["seats"][0]["away_since"] is None
        async with heard(second, table, bob_cookie):
            await ada_ws.until(_table({1: False}), since=ada_ws.read_to, timeout=TOLD)


async def test_a_partner_whose_process_dies_is_shown_away_on_the_other(two: Any) -> None:
    database, servers = two
    doomed, survivor = servers  # the pair gets a new first process for the next test
    async with (
        _partners(survivor.port, doomed.port) as (table, ada_cookie, bob_cookie),
        heard(survivor.port, table, ada_cookie) as ada_ws,
        heard(doomed.port, table, bob_cookie),
    ):
        await ada_ws.until(_table({1: False}), timeout=TOLD)
        await eventually(lambda: connected(database, table) == 2)
        before = len(ada_ws.messages)
        # kill -9: its rows still say Bob is here, until the survivor sees its lock gone and
        # marks them gone, and tells its own page so (Bob's browser does not come back).
        doomed.kill()
        await ada_ws.until(_table({1: True}), since=before, timeout=VANISHED_SECONDS + TOLD)


def _until_connected(database: str, table: str, count: int, within: float = TOLD) -> None:
    deadline = time.monotonic() + within
    while connected(database, table) != count:
        assert time.monotonic() < deadline, f"not {count} connected within {within:g} s"
        time.sleep(0.05)


@pytest.mark.browser
def test_the_page_marks_no_partner_on_the_other_process_away(two: Any, browser: Any) -> None:
    database, servers = two
    first, second = (f"http://127.0.0.1:{server.port}" for server in servers)
    errors: list[str] = []
    # Each in a browser of their own (the cookies of one host are the same on every port).
    ada, bob = _context(browser, first, False), _context(browser, second, False)
    made = ada.request.post(
        first + "/api/tables",
        data={"game": "rectoverso", "players": 2, "options": {"difficulty": "easy"}},
    ).json()
    table = str(made["id"])
    assert bob.request.post(second + f"/api/tables/{table}/join", data={"seat": 1}).ok
    assert ada.request.post(first + f"/api/tables/{table}/start").ok
    bob_page = _page(bob, errors, f"{second}/table/{table}")
    bob_page.wait_for_selector(".rv")
    _until_connected(database, table, 1)
    ada_page = _page(ada, errors, f"{first}/table/{table}")
    ada_page.wait_for_selector(".rv")
    # Ada's page, through the first process, never marks Bob (through the second) away...
    assert ada_page.locator("[data-testid=away-mark-1]").count() == 0
    assert ada_page.locator("[data-testid=away-1]").count() == 0
    # ...and Bob's, which did while she was not there, stops once she came.
    timeout = TOLD * 1000
    bob_page.wait_for_selector("[data-testid=away-mark-0]", state="detached", timeout=timeout)
    bob_page.wait_for_selector("[data-testid=away-0]", state="detached", timeout=timeout)
    _until_connected(database, table, 2)
    assert ada_page.locator("[data-testid=away-mark-1]").count() == 0
    # Bob closes his page: Ada's says he is away, with no move made.
    bob_page.close()
    ada_page.wait_for_selector("[data-testid=away-mark-1]", timeout=timeout)
    assert "has been away for" in ada_page.locator("[data-testid=away-1]").inner_text()
    assert not errors, errors
