"""The contract of :class:`TableStore`: the same answers from the store in memory and from the
database (SQLite, then PostgreSQL) — what each write leaves, and each write decided on a table
that changed since refused with ``StaleWrite`` and nothing written."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from otherside.server.accounts.sessions import UserInfo
from otherside.server.cluster.peers import SoloCluster
from otherside.server.store.contract import TableStore
from otherside.server.store.db import Database, sqlite_url
from otherside.server.store.memory import MemoryTableStore
from otherside.server.store.models import Tournament, TournamentGame, User
from otherside.server.store.records import (
    EventBoard,
    LimitReached,
    Opening,
    SeatInfo,
    StaleWrite,
    TableInfo,
    TakebackRequest,
    Timing,
)
from otherside.server.store.tables import SqlTableStore
from otherside.server.tables import seat_rules
from otherside.server.tables.pace import Pace
from tests.server.conftest import postgres_database

NOW = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)
LIVE = Pace(kind="live", minutes=10, increment=5)


class Setup:
    """A store and three people known to it."""

    def __init__(self, store: TableStore, people: list[UserInfo]) -> None:
        self.store = store
        self.ada, self.bob, self.cyd = people


def _add_users(session: Any) -> list[UserInfo]:
    rows = [
        User(name=name, name_key=name.lower(), is_guest=guest)
        for name, guest in (("Ada", False), ("Bob", False), ("Cyd", True))
    ]
    session.add_all(rows)
    session.flush()
    return [UserInfo(r.id, r.name, r.is_guest) for r in rows]


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def setup(request: pytest.FixtureRequest, tmp_path: Any) -> AsyncIterator[Setup]:
    if request.param == "memory":
        people = [UserInfo(1, "Ada", False), UserInfo(2, "Bob", False), UserInfo(3, "Cyd", True)]
        yield Setup(MemoryTableStore(), people)
        return

    async def on(url: str) -> AsyncIterator[Setup]:
        db = Database(url)
        try:
            await asyncio.to_thread(db.migrate)
            people = await db.run(_add_users)
            yield Setup(SqlTableStore(db, SoloCluster()), people)
        finally:
            db.close()

    if request.param == "sqlite":
        async for made in on(sqlite_url(tmp_path / "store.db")):
            yield made
        return
    with postgres_database() as url:
        async for made in on(url):
            yield made


def _plan(to_move: tuple[int, ...], clocks: dict[int, int | None], minutes: int = 10) -> Timing:
    return Timing(
        to_move=to_move,
        turn_started_at=NOW,
        deadline_at=NOW + timedelta(minutes=minutes),
        reminded_at=None,
        clocks=clocks,
    )


async def _two_seated(s: Setup) -> TableInfo:
    table = await s.store.create(s.ada, "verso", 2, {"first_player": 0}, LIVE, NOW)
    info = await s.store.table(table)
    assert info is not None
    await s.store.seats(info, [SeatInfo(1, s.bob.id, s.bob.name)], NOW)
    seated = await s.store.table(table)
    assert seated is not None
    return seated


async def _started(s: Setup, rated: bool = True) -> TableInfo:
    seated = await _two_seated(s)
    plan = _plan((0,), {0: 600_000, 1: 600_000})
    await s.store.start(seated, {"first_player": 0}, {"game": "verso"}, rated, plan, NOW)
    started = await s.store.table(seated.id)
    assert started is not None
    return started


@pytest.mark.parametrize("host", ["ada", "cyd"])
async def test_a_new_table_is_what_the_hub_takes_into_memory_without_reading_it(
    setup: Setup, host: str
) -> None:
    # The hub keeps a table it has just made as the seat rules describe it (no read back): that
    # must be the very table a later load gives, or the process would act on another one.
    s = setup
    owner = getattr(s, host)
    options = {"first_player": 1, "public_hand": True}
    table = await s.store.create(owner, "verso", 3, options, LIVE, NOW)
    assert await s.store.table(table) == seat_rules.created(
        table, owner, "verso", 3, options, LIVE, NOW
    )
    assert seat_rules.created(table, owner, "verso", 2, options, LIVE, NOW) != (
        await s.store.table(table)
    )


async def test_a_new_table_seats_its_host_and_counts_as_hosted(setup: Setup) -> None:
    s = setup
    table = await s.store.create(s.ada, "verso", 3, {"first_player": 0}, LIVE, NOW)
    info = await s.store.table(table)
    assert info is not None and info.status == "waiting" and info.version == 0
    assert (info.owner_id, info.owner_name, info.pace) == (s.ada.id, "Ada", LIVE)
    assert [(x.user_id, x.user_name, x.bot) for x in info.seats] == [
        (s.ada.id, "Ada", None),
        (None, None, None),
        (None, None, None),
    ]
    assert await s.store.waiting_hosted(s.ada.id) == 1
    assert await s.store.waiting_hosted(s.bob.id) == 0
    assert await s.store.table("nope") is None
    assert await s.store.playing_ids() == []


async def test_a_host_with_enough_open_tables_makes_no_more_and_others_still_do(
    setup: Setup,
) -> None:
    s = setup
    for _ in range(2):
        await s.store.create(s.ada, "verso", 2, {}, LIVE, NOW, most_waiting=2)
    with pytest.raises(LimitReached) as refused:
        await s.store.create(s.ada, "verso", 2, {}, LIVE, NOW, most_waiting=2)
    assert refused.value.most == 2
    assert await s.store.waiting_hosted(s.ada.id) == 2
    # Written together with a refused one, another host's table is made all the same.
    made, bobs = await asyncio.gather(
        s.store.create(s.ada, "verso", 2, {}, LIVE, NOW, most_waiting=2),
        s.store.create(s.bob, "verso", 2, {}, LIVE, NOW, most_waiting=2),
        return_exceptions=True,
    )
    assert isinstance(made, LimitReached) and isinstance(bobs, str)
    assert await s.store.waiting_hosted(s.bob.id) == 1
    assert await s.store.waiting_hosted(s.ada.id) == 2


async def test_seats_are_written_only_while_they_are_as_known(setup: Setup) -> None:
    s = setup
    table = await s.store.create(s.ada, "verso", 3, {}, LIVE, NOW)
    known = await s.store.table(table)
    assert known is not None
    await s.store.seats(known, [SeatInfo(1, s.cyd.id, "Cyd", guest=True)], NOW)
    # Decided on the table before Cyd sat down: refused, and nothing written.
    with pytest.raises(StaleWrite):
        await s.store.seats(known, [SeatInfo(2, bot="random")], NOW)
    after = await s.store.table(table)
    assert after is not None
    assert [(x.user_id, x.guest, x.bot) for x in after.seats] == [
        (s.ada.id, False, None),
        (s.cyd.id, True, None),
        (None, False, None),
    ]


async def test_a_start_writes_the_first_record_and_the_clocks_once(setup: Setup) -> None:
    s = setup
    started = await _started(s)
    assert (started.status, started.version, started.rated) == ("playing", 0, True)
    assert [x.time_left_ms for x in started.seats] == [600_000, 600_000]
    assert started.to_move == (0,) and started.deadline_at == NOW + timedelta(minutes=10)
    assert await s.store.moves(started.id) == ({"game": "verso"}, [])
    assert await s.store.playing_ids() == [started.id]
    with pytest.raises(StaleWrite):
        plan = _plan((0,), {})
        await s.store.start(started, {}, {"game": "verso"}, False, plan, NOW)


async def test_moves_are_appended_at_their_version_only(setup: Setup) -> None:
    s = setup
    started = await _started(s)
    later = NOW + timedelta(seconds=3)
    plan = _plan((1,), {0: 602_000})
    assert await s.store.move(started, 0, "flip", None, None, plan, later) == {}
    moved = await s.store.table(started.id)
    assert moved is not None and moved.version == 1 and moved.to_move == (1,)
    assert [x.time_left_ms for x in moved.seats] == [602_000, 600_000]
    # The same move again, decided at version 0: refused, and the moves stay as they were.
    with pytest.raises(StaleWrite):
        await s.store.move(started, 0, "flip", None, None, plan, later)
    initial, moves = await s.store.moves(started.id)
    assert initial == {"game": "verso"}
    assert [(m.seat, m.action, m.played_at) for m in moves] == [(0, "flip", later)]
    await s.store.move(moved, 1, "draw", None, None, _plan((0,), {}), later)
    assert [m.action for m in await s.store.moves_after(started.id, 1, 2)] == ["draw"]
    assert [m.action for m in (await s.store.moves(started.id, upto=1))[1]] == ["flip"]


async def test_a_takeback_request_is_kept_with_the_table_until_answered_or_lapsed(
    setup: Setup,
) -> None:
    s = setup
    started = await _started(s, rated=False)
    await s.store.move(started, 0, "flip", None, None, _plan((1,), {}), NOW)
    moved = await s.store.table(started.id)
    assert moved is not None and moved.takeback is None
    asked = TakebackRequest(seat=0, version=1, plies=1)
    await s.store.takeback(moved.id, asked, asked=True)
    assert (await s.store.table(moved.id)) == replace(moved, takeback=asked)
    # A second request while one is open, one at another version, an answer to a request
    # that is not the open one: refused, and the open request stays.
    for request, ask in (
        (TakebackRequest(1, 1, 1), True),
        (TakebackRequest(0, 0, 1), True),
        (TakebackRequest(1, 1, 1), False),
    ):
        with pytest.raises(StaleWrite):
            await s.store.takeback(moved.id, request, asked=ask)
        assert (await s.store.table(moved.id)) == replace(moved, takeback=asked)
    await s.store.takeback(moved.id, asked, asked=False)
    assert (await s.store.table(moved.id)) == moved
    with pytest.raises(StaleWrite):
        await s.store.takeback(moved.id, asked, asked=False)
    # Asked again and the game moves on: the request lapsed, a new one may be asked; the
    # table taken back forgets it.
    await s.store.takeback(moved.id, asked, asked=True)
    await s.store.move(moved, 1, "flip", None, None, _plan((0,), {}), NOW)
    later = await s.store.table(moved.id)
    assert later is not None and later.version == 2
    again = TakebackRequest(seat=1, version=2, plies=1)
    await s.store.takeback(moved.id, again, asked=True)
    assert (await s.store.table(moved.id)) == replace(later, takeback=again)
    await s.store.takeback(moved.id, again, asked=False)
    with pytest.raises(StaleWrite):  # declined (through another process, say): nothing to take
        await s.store.take_back(later, 1, _plan((1,), {}), NOW)
    await s.store.takeback(moved.id, again, asked=True)
    await s.store.take_back(replace(later, takeback=again), 1, _plan((1,), {}), NOW)
    back = await s.store.table(moved.id)
    assert back is not None and back.version == 1 and back.takeback is None
    # Counted (the refused one was not): the version went down, the count of takebacks up.
    assert later.takebacks == 0 and back.takebacks == 1


async def test_the_last_move_of_a_rated_game_moves_the_ratings(setup: Setup) -> None:
    s = setup
    started = await _started(s)
    outcome = {"scores": [3, 1], "winners": [0], "reason": ""}
    ended = Timing((), NOW, None, None, {})
    rated = await s.store.move(started, 0, "stop", {"final": True}, outcome, ended, NOW)
    assert rated[s.ada.id] > 1500 > rated[s.bob.id]
    assert await s.store.ratings("verso", [s.ada.id, s.bob.id, s.cyd.id]) == rated
    over = await s.store.table(started.id)
    assert over is not None and over.status == "over" and over.outcome == outcome
    assert await s.store.playing_ids() == []


async def test_a_table_is_held_as_stored_in_one_read(setup: Setup) -> None:
    s = setup
    assert await s.store.held("no-such") is None
    waiting = await _two_seated(s)
    held = await s.store.held(waiting.id)
    # Not started: no record, no moves; the seated players' ratings (none yet).
    assert held is not None and held.info == await s.store.table(waiting.id)
    assert (held.initial, held.moves, held.ratings, held.changes) == (None, [], {}, {})
    started = await _started(s)
    await s.store.move(started, 0, "flip", None, None, _plan((1,), {}), NOW)
    held = await s.store.held(started.id)
    assert held is not None and held.info.version == 1 and held.initial == {"game": "verso"}
    assert [(m.seat, m.action) for m in held.moves] == [(0, "flip")]
    # A rated game over: its players' ratings, and what the game did to them.
    moved = await s.store.table(started.id)
    assert moved is not None
    outcome = {"scores": [3, 1], "winners": [0], "reason": ""}
    ended = Timing((), NOW, None, None, {})
    rated = await s.store.move(moved, 1, "stop", {"final": True}, outcome, ended, NOW)
    held = await s.store.held(started.id)
    assert held is not None and held.info.status == "over" and held.ratings == rated
    assert held.changes == {user: rating - 1500 for user, rating in rated.items()}


async def test_tables_asked_at_once_are_each_as_asked_alone(setup: Setup) -> None:
    # A process that died sends all its tables here at once: the reads then share a
    # transaction (store.batched), and each table must still come back as its own.
    s = setup
    waiting = await _two_seated(s)
    first, second = await _started(s), await _started(s, rated=False)
    await s.store.move(first, 0, "flip", None, None, _plan((1,), {}), NOW)
    moved = await s.store.table(first.id)
    assert moved is not None
    await s.store.move(moved, 1, "flip", None, None, _plan((0,), {}), NOW)
    ids = [waiting.id, first.id, second.id, "no-such"]
    alone = [await s.store.held(table_id) for table_id in ids]
    together = await asyncio.gather(*(s.store.held(table_id) for table_id in ids))
    assert together == alone and together[-1] is None
    assert [len(h.moves) for h in together if h is not None] == [0, 2, 0]
    tables = await asyncio.gather(*(s.store.table(table_id) for table_id in ids))
    assert tables == [h.info if h is not None else None for h in alone]
    for minute, (table, text) in enumerate([(first, "a"), (second, "b"), (first, "c")]):
        at = NOW + timedelta(minutes=minute)
        line = {"name": "Ada", "seat": 0, "text": text, "at": at.isoformat()}
        await s.store.chat(table.id, s.ada, 0, text, at, line)
    chats = await asyncio.gather(
        s.store.recent_chat(first.id, 1),
        s.store.recent_chat(first.id, 5),
        s.store.recent_chat(second.id, 5),
        s.store.recent_chat(waiting.id, 5),
    )
    assert [[x.text for x in lines] for lines in chats] == [["c"], ["a", "c"], ["b"], []]


async def test_a_forfeit_hands_the_seat_over_or_ends_the_game(setup: Setup) -> None:
    s = setup
    started = await _started(s, rated=False)
    left = replace(started.seats[1], bot="greedy", forfeit="left", time_left_ms=None)
    await s.store.hand_over(started, left, _plan((0,), {}), NOW)
    handed = await s.store.table(started.id)
    assert handed is not None
    assert (handed.seats[1].user_id, handed.seats[1].bot, handed.seats[1].forfeit) == (
        s.bob.id,
        "greedy",
        "left",
    )
    with pytest.raises(StaleWrite):
        await s.store.timing(replace(handed, version=5), _plan((0,), {}), NOW)
    reminded = replace(_plan((0,), {}, minutes=20), reminded_at=NOW)
    await s.store.timing(handed, reminded, NOW)
    timed = await s.store.table(started.id)
    assert timed is not None and timed.reminded_at == NOW
    gone = timed.with_seat(replace(timed.seats[0], forfeit="timeout"))
    outcome = {"scores": [0, 0], "winners": [1], "reason": "Ada ran out of time"}
    assert await s.store.end(gone, 0, outcome, {"result": outcome}, NOW) == {}
    over = await s.store.table(started.id)
    assert over is not None and over.status == "over" and over.deadline_at is None
    assert over.seats[0].forfeit == "timeout" and over.to_move == ()


async def test_one_rematch_per_finished_table(setup: Setup) -> None:
    s = setup
    started = await _started(s, rated=False)
    await s.store.end(started, 1, {"scores": [0, 0], "winners": [0]}, {}, NOW)
    over = await s.store.table(started.id)
    assert over is not None
    seats = [SeatInfo(0, s.ada.id, "Ada"), SeatInfo(1, s.bob.id, "Bob")]
    again = await s.store.rematch(over, s.bob, {"first_player": 1}, seats, NOW)
    made = await s.store.table(again)
    linked = await s.store.table(started.id)
    assert made is not None and linked is not None and linked.rematch_id == again
    assert (made.status, made.owner_id, made.options) == ("waiting", s.bob.id, {"first_player": 1})
    assert [x.user_name for x in made.seats] == ["Ada", "Bob"]
    with pytest.raises(StaleWrite):
        await s.store.rematch(over, s.ada, {}, seats, NOW)


async def test_chat_lines_come_back_oldest_first(setup: Setup) -> None:
    s = setup
    table = await s.store.create(s.ada, "verso", 2, {}, LIVE, NOW)
    for minute, (user, text) in enumerate([(s.ada, "hi"), (s.cyd, "hello"), (s.ada, "go")]):
        at = NOW + timedelta(minutes=minute)
        line = {"name": user.name, "seat": None, "text": text, "at": at.isoformat()}
        await s.store.chat(table, user, 0 if user is s.ada else None, text, at, line)
    lines = await s.store.recent_chat(table, 2)
    assert [(x.name, x.seat, x.text) for x in lines] == [("Cyd", None, "hello"), ("Ada", 0, "go")]
    assert lines[-1].at == NOW + timedelta(minutes=2)


async def _bots_only(s: Setup, host: UserInfo) -> TableInfo:
    """A waiting two-seat table of ``host`` with a bot in each seat."""
    table = await s.store.create(host, "versus", 2, {}, LIVE, NOW)
    waiting = await s.store.table(table)
    assert waiting is not None
    await s.store.seats(waiting, [SeatInfo(0, bot="greedy"), SeatInfo(1, bot="greedy")], NOW)
    seated = await s.store.table(table)
    assert seated is not None
    return seated


async def test_a_start_counts_the_hosts_games_with_bots_only(setup: Setup) -> None:
    s = setup
    plan = _plan((0,), {})
    for _ in range(2):
        await s.store.start(await _bots_only(s, s.ada), {}, {"game": "versus"}, False, plan, NOW, 2)
    third = await _bots_only(s, s.ada)
    with pytest.raises(LimitReached):
        await s.store.start(third, {}, {"game": "versus"}, False, plan, NOW, bots_only_limit=2)
    after = await s.store.table(third.id)
    assert after is not None and after.status == "waiting"  # nothing written
    # Another host has a count of their own; a game with a person seated is not counted.
    await s.store.start(await _bots_only(s, s.bob), {}, {"game": "versus"}, False, plan, NOW, 2)
    await _started(s)
    assert len(await s.store.playing_ids()) == 4


async def _an_event_board(s: Setup) -> EventBoard:
    """Board 1 of round 1 of an event hosted by Ada, still without its table."""
    board = EventBoard("event1", 1, 1)
    if isinstance(s.store, SqlTableStore):

        def add(session: Any) -> None:
            session.add(
                Tournament(
                    id=board.event_id,
                    name="Spring cup",
                    game="verso",
                    kind="swiss",
                    group_size=2,
                    max_entrants=4,
                    pace=LIVE.to_json(),
                    open_to="both",
                    host_id=s.ada.id,
                    status="playing",
                    current_round=1,
                )
            )
            session.flush()
            session.add(
                TournamentGame(tournament_id=board.event_id, round=1, board=1, entrants=[1, 2])
            )

        await s.store.db.run(add)
    return board


async def test_an_event_board_is_born_started_and_made_once(setup: Setup) -> None:
    s = setup
    board = await _an_event_board(s)
    seats = (SeatInfo(0, s.bob.id, s.bob.name), SeatInfo(1, bot="random"))
    start = Opening({"first_player": 0}, {"game": "verso"}, False, _plan((0,), {0: 600_000}), NOW)
    table = await s.store.create_board(board, s.ada, "verso", 2, LIVE, seats, start)
    made = await s.store.table(table)
    assert made is not None
    assert (made.status, made.version, made.rated, made.owner_id) == ("playing", 0, False, s.ada.id)
    assert [(x.user_id, x.bot) for x in made.seats] == [(s.bob.id, None), (None, "random")]
    assert made.to_move == (0,) and made.seats[0].time_left_ms == 600_000
    assert await s.store.moves(table) == ({"game": "verso"}, [])
    # The board has its table: a second one is refused, and nothing of it is kept.
    with pytest.raises(StaleWrite):
        await s.store.create_board(board, s.ada, "verso", 2, LIVE, seats, start)
    assert await s.store.playing_ids() == [table]
    if isinstance(s.store, SqlTableStore):
        recorded = await s.store.db.run(
            lambda session: session.get(TournamentGame, (board.event_id, 1, 1)).table_id
        )
        assert recorded == table
    else:
        assert isinstance(s.store, MemoryTableStore) and s.store.boards == {board: table}
