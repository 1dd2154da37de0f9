"""Takebacks in VERSUS, over real websockets against a real server process: a player asks to
take back their last move, the other declines or accepts; accepted, the position before that
move is back for both (and after a restart: the moves are gone from the database). Every
refusal — a spectator, no move to take back, a second request while one is open, an answer
with none open, a stale version, a rated game, a bot opponent — gets its code and changes
nothing (:mod:`otherside.server.tables.takebacks`). On PostgreSQL with two processes, a
request asked through one is seen, declined and accepted through the other, and is still open
after the process it was asked through restarts.

One server per database serves the module (a start costs seconds of CPU; each test makes its
own tables and looks only at those): the first test restarts it, which is what it tests, and
the cross-process test takes the PostgreSQL one as its second process."""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Any

import pytest

from tests.server.processes import Server, free_port
from tests.server.takeback_tables import (
    Seat,
    Served,
    board_ply,
    position,
    postgres_served_fixture,  # noqa: F401 (the fixture "postgres_served")
    served_fixture,  # noqa: F401 (the fixture "served")
    signed_in,
    sit,
    sqlite_served_fixture,  # noqa: F401 (the fixture "sqlite_served")
    versus_table,
)


async def _play(mover: Seat, others: list[Seat], view: dict[str, Any], skip: int = 0) -> str:
    """``mover`` plays a ply at ``view``; the new view of each seat once everyone has it."""
    ply = board_ply(view, skip)
    await mover.send(type="action", version=view["version"], action=ply)
    for seat in [mover, *others]:
        # Views sent before the move (on connecting) are passed over.
        while (seen := await seat.next("view"))["version"] < view["version"] + 1:
            pass
        assert seen["version"] == view["version"] + 1
    return ply


async def test_takeback_asked_declined_then_accepted_and_every_refusal_changes_nothing(
    served: Served,
) -> None:
    server, port = served.server, served.port
    async with AsyncExitStack() as stack:
        blue_http = await stack.enter_async_context(signed_in(server.url))
        brown_http = await stack.enter_async_context(signed_in(server.url))
        watcher_http = await stack.enter_async_context(signed_in(server.url))
        table = await versus_table(blue_http, brown_http)
        blue, brown, watcher = [
            await sit(stack, port, table, h) for h in (blue_http, brown_http, watcher_http)
        ]
        start = await blue.now()
        assert start["version"] == 0 and start["takeback"] is None

        # Nothing to take back yet; a spectator, an answer to nothing: all refused.
        await blue.refused("takeback_none", type="takeback", version=0, step="ask")
        await brown.refused("takeback_none", type="takeback", version=0, step="ask")
        await watcher.refused("not_seated", type="takeback", version=0, step="ask")
        await brown.refused("no_takeback", type="takeback", version=0, step="accept")

        await _play(blue, [brown], start)
        after_one = await brown.now()
        await _play(brown, [blue], after_one)
        after_two = await blue.now()
        await _play(blue, [brown], after_two)
        after_three = await brown.now()
        assert after_three["version"] == 3

        await blue.refused("stale", type="takeback", version=2, step="ask")
        # Blue asks: both players see the request (one ply: Brown has not replied).
        await blue.send(type="takeback", version=3, step="ask")
        for seat in (blue, brown):
            seen = await seat.next("view")
            assert seen["takeback"] == {"seat": 0, "version": 3, "plies": 1}
        await blue.refused("takeback_pending", type="takeback", version=3, step="ask")
        await brown.refused("takeback_pending", type="takeback", version=3, step="ask")
        await blue.refused("no_takeback", type="takeback", version=3, step="accept")
        await watcher.refused("not_seated", type="takeback", version=3, step="accept")
        await brown.refused("stale", type="takeback", version=2, step="accept")

        # Declined: the request is gone, the game is where it was.
        await brown.send(type="takeback", version=3, step="decline")
        for seat in (blue, brown):
            seen = await seat.next("view")
            assert seen["takeback"] is None and seen["version"] == 3
            assert position(seen) == position(after_three)
        await brown.refused("no_takeback", type="takeback", version=3, step="accept")

        # Brown replies; Blue asks again: her move and Brown's reply go back (two plies).
        await _play(brown, [blue], after_three)
        after_four = await blue.now()
        await blue.send(type="takeback", version=4, step="ask")
        for seat in (blue, brown):
            assert (await seat.next("view"))["takeback"]["plies"] == 2
        await brown.send(type="takeback", version=4, step="accept")
        for seat, mine in ((blue, after_two), (brown, None)):
            back = await seat.next("view")
            assert back["version"] == 2 and back["takeback"] is None
            assert position(back) == position(after_two)
            if mine is not None:
                assert back["legal"] == mine["legal"]
            assert back["clock"]["to_move"] == [0]
        record = (await blue_http.get(f"/api/tables/{table}")).json()
        assert record["version"] == 2 and record["to_move"] == [0]
        assert after_four["version"] == 4

        # An answer to the request taken back, and the old version, are refused now.
        await brown.refused("no_takeback", type="takeback", version=2, step="accept")
        await blue.refused("stale", type="action", version=4, action=board_ply(after_four))
        # Play goes on from there, with another move than the one taken back.
        again = await blue.now()
        replay_ply = await _play(blue, [brown], again, skip=1)
        assert replay_ply != board_ply(after_two)
        seen = await brown.now()

    # The moves taken back are gone from the database: a restart resumes at the same place.
    served.restart()
    async with AsyncExitStack() as stack:
        http = await stack.enter_async_context(signed_in(served.server.url))
        watcher = await sit(stack, port, table, http)
        resumed = await watcher.now()
        assert resumed["version"] == 3 and position(resumed) == position(seen)


async def test_takebacks_are_refused_in_rated_games_and_against_a_bot(served: Served) -> None:
    server, port = served.server, served.port
    async with AsyncExitStack() as stack:
        ada = await stack.enter_async_context(signed_in(server.url, guest=False, name="ada"))
        bob = await stack.enter_async_context(signed_in(server.url, guest=False, name="bob"))
        rated = await versus_table(ada, bob)
        assert (await ada.get(f"/api/tables/{rated}")).json()["rated"] is True
        blue, brown = [await sit(stack, port, rated, h) for h in (ada, bob)]
        await _play(blue, [brown], await blue.now())
        await blue.refused("takeback_rated", type="takeback", version=1, step="ask")

        guest = await stack.enter_async_context(signed_in(server.url))
        with_bot = await versus_table(guest, None, bot="random")
        player = await sit(stack, port, with_bot, guest)
        first = await player.now()
        await _play(player, [], first)
        while (await player.next("view"))["version"] < 2:
            pass  # the bot's reply
        await player.refused("takeback_bot", type="takeback", version=2, step="ask")


@pytest.mark.postgres
async def test_a_request_through_one_process_is_answered_through_another_and_outlives_it(
    postgres_served: Served,
) -> None:
    url = postgres_served.database
    # The first process is this test's own (it restarts); the module's is the second.
    ports = [free_port(), postgres_served.port]
    servers = [Server(url, ports[0]), postgres_served.server]
    try:
        async with AsyncExitStack() as stack:
            blue_http = await stack.enter_async_context(signed_in(servers[0].url))
            brown_http = await stack.enter_async_context(signed_in(servers[1].url))
            table = await versus_table(blue_http, brown_http)
            # Blue plays through the first process, Brown through the second.
            blue = await sit(stack, ports[0], table, blue_http)
            brown = await sit(stack, ports[1], table, brown_http)
            start = await blue.now()
            await _play(blue, [brown], start)
            one = await brown.now()

            # Asked through the first, seen and declined through the second.
            await blue.send(type="takeback", version=1, step="ask")
            for seat in (blue, brown):
                assert (await seat.next("view"))["takeback"] == {
                    "seat": 0,
                    "version": 1,
                    "plies": 1,
                }
            await brown.refused("takeback_pending", type="takeback", version=1, step="ask")
            await brown.send(type="takeback", version=1, step="decline")
            for seat in (blue, brown):
                seen = await seat.next("view")
                assert seen["takeback"] is None and position(seen) == position(one)
            await blue.send(type="takeback", version=1, step="ask")
            assert (await brown.next("view"))["takeback"]["seat"] == 0
        # The process it was asked through stops; the request is still open, for the
        # other process and for the first once it is back.
        servers[0].stop()
        servers[0] = Server(url, ports[0])
        async with AsyncExitStack() as stack:
            blue = await sit(stack, ports[0], table, blue_http)
            brown = await sit(stack, ports[1], table, brown_http)
            for seat in (blue, brown):
                assert (await seat.now())["takeback"] == {"seat": 0, "version": 1, "plies": 1}
            await blue.refused("no_takeback", type="takeback", version=1, step="accept")
            await brown.send(type="takeback", version=1, step="accept")
            for seat in (blue, brown):
                while (back := await seat.next("view"))["version"] != 0:
                    pass
                assert back["takeback"] is None and position(back) == position(start)
            assert (await blue.now())["legal"] == start["legal"]
    finally:
        servers[0].stop()
