"""The director: runs every event under way, round after round.

It pairs a round (:mod:`.swiss`, :mod:`.groups`, :mod:`.round_robin`), makes each game's table
seated with its entrants, started and recorded as the game's, all in one write (:mod:`.boards`:
the start decided by the lobby's own rules), and watches the tables: a periodic check on the
injected clock (every ``every`` seconds) reads each table of the round, records the points of
those that ended, and once the round is complete pairs the next one or ends the event. An
entrant who does not show loses through the tables' own clocks: their time runs out and they
forfeit (:mod:`~otherside.server.tables.forfeits`), which ends a duel, or a bot plays their seat
on at a bigger table and they are ranked last there. A table without player clocks (Recto
Verso's rounds) would wait for an absent partner for ever: the check hands such a seat to a bot
(:mod:`.absentees`, where the decision on partnerships is written).

One server process directs an event at a time (a lease on the event's row, renewed at each
check and taken over once it lapses). Each step can be done again safely: a round is paired
once (compare-and-set on its number), a game's table exists only with its record (a crash
leaves both or neither; a board takes one table, by compare-and-set), a table already started
is taken as it is. A table the director could not make is tried again at the next check.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from otherside.server.accounts.sessions import UserInfo
from otherside.server.clock import Clock
from otherside.server.ratings.rated import ratings_of
from otherside.server.store.db import Database
from otherside.server.store.outage import log_failure
from otherside.server.store.records import SeatInfo, StaleWrite, TableInfo
from otherside.server.tables import seat_rules, seating
from otherside.server.tables.errors import Refused
from otherside.server.tables.hub import TableHub
from otherside.server.tables.live import LiveTable
from otherside.server.tables.services import Services
from otherside.server.tournaments import events
from otherside.server.tournaments.absentees import HandOverAbsent
from otherside.server.tournaments.boards import make_board
from otherside.server.tournaments.groups import pair_groups
from otherside.server.tournaments.records import Event, EventGame
from otherside.server.tournaments.results import partnership_points, rank_points
from otherside.server.tournaments.round_robin import round_count, round_robin
from otherside.server.tournaments.settings import sizes
from otherside.server.tournaments.swiss import Pairing, pair_swiss

log = logging.getLogger("otherside.server")
UNRATED = 1500.0  # where a person without a rating in the game, or a bot, is seeded
LEASE = 30.0  # seconds an event stays with the process directing it after its last check


@dataclass(frozen=True)
class SeatEntrants:
    """The host puts an event's entrants in every seat of the event's new table (a command of
    the table's actor; decided and written as the lobby's seat changes are)."""

    host: UserInfo
    seats: tuple[SeatInfo, ...]

    async def run(self, live: LiveTable, services: Services) -> TableInfo:
        """The table after (as it is when it has already started)."""
        if live.info.status != "waiting":
            return live.info

        def decide(info: TableInfo) -> list[SeatInfo]:
            seat_rules.check_waiting(info)
            seat_rules.check_host(info, self.host)
            return list(self.seats)

        return await seating.change_seats(services, live, decide)


def read_result(info: TableInfo, partners: bool) -> tuple[dict[str, Any], list[float] | None]:
    """What a finished table gives the event: its result, and the points by seat (a
    partnership's wait for the round). A seat given up (timeout, resignation, left, away) ranks
    last whatever the bot that played it on scored; a partnership is ranked by what the pair
    achieved, a bot playing on for a partner who gave up (:mod:`.absentees`), and last if
    nobody of the pair played it."""
    outcome = info.outcome or {}
    raw = outcome.get("scores") or []
    scores = [float(raw[i]) if i < len(raw) else 0.0 for i in range(info.players)]
    winners = set(outcome.get("winners") or [])
    forfeits = [s.seat for s in info.seats if s.forfeit is not None]
    if partners:
        if len(forfeits) == info.players:
            return {"score": -1.0, "won": False, "forfeits": forfeits}, None
        won = bool(winners) and not outcome.get("aborted")
        return {"score": max(scores, default=0.0), "won": won, "forfeits": forfeits}, None
    top = max((abs(s) for s in scores), default=0.0) * 2 + 1
    strengths = [
        s + (top if i in winners else 0.0) - (3 * top if i in forfeits else 0.0)
        for i, s in enumerate(scores)
    ]
    return {"strengths": strengths, "forfeits": forfeits}, list(rank_points(strengths))


def pairing(event: Event, number: int) -> Pairing:
    """Round ``number``'s pairing of ``event``."""
    seeds = event.seeds()
    if event.settings.kind == "round-robin":
        return round_robin(seeds)[number - 1]
    least, most = sizes(event.settings.game, event.settings.group_size)
    if most == 2:
        return pair_swiss(seeds, event.played())
    return pair_groups(seeds, event.played(), most, least)


class Director:
    """Runs the events under way (see the module docstring).

    Args:
        db: the database.
        hub: the tables of this process (tables are made, seated and started through it).
        clock: the server's clock; the check runs every ``every`` seconds of it.
    """

    def __init__(self, db: Database, hub: TableHub, clock: Clock, every: float = 1.0) -> None:
        self.db = db
        self.hub = hub
        self.clock = clock
        self.every = every
        self._lock = asyncio.Lock()  # one step of one event at a time in this process

    async def run(self) -> None:
        """Check the events under way, forever (a task of the hub's, stopped at shutdown)."""
        while True:
            try:
                await self.check()
            except Exception:  # a failed check is tried again: the event must not stall
                log_failure(log, "tournament check failed")
            await self.clock.sleep(self.every)

    async def check(self) -> None:
        """Move every event under way on as far as it can go now."""
        for event_id in await self.db.run(events.playing_ids):
            await self.advance(event_id)

    async def start(self, event_id: str, host: UserInfo) -> None:
        """Seed and start an open event (the host's request), then pair its first round."""
        event = await self._load(event_id)
        seeds = await self._seeding(event)
        least = sizes(event.settings.game, event.settings.group_size)[0]
        rounds = event.settings.rounds or round_count(len(seeds))
        now, most = self.clock.now(), self.hub.services.limits.all_bot_events_per_user
        await self.db.run(
            lambda s: events.start_event(s, event_id, host.id, seeds, rounds, least, now, most)
        )
        await self.advance(event_id)

    async def advance(self, event_id: str) -> None:
        """Record what ended at the event's tables, make missing tables, pair the next round
        when this one is complete, end the event after its last (nothing while another server
        process holds the event's lease: it does this)."""
        async with self._lock:
            node, now = self.hub.cluster.node, self.clock.now()
            held = await self.db.run(lambda s: events.lease(s, event_id, node, now, LEASE))
            if not held:
                return
            event = await self._load(event_id)
            while event.status == "playing" and await self._next_round(event):
                event = await self._load(event_id)

    async def _next_round(self, event: Event) -> bool:
        """Pair the next round once this one is complete (``True``), or end the event after
        its last; ``False`` when there is nothing more to do now."""
        if event.current_round and not await self._round_done(event):
            return False
        number = event.current_round + 1
        if number > (event.settings.rounds or 0):
            now = self.clock.now()
            await self.db.run(lambda s: events.finish_event(s, event.id, now))
            return False
        # A matching over every pair of 64 entrants takes a quarter of a second: off the loop.
        drawn = await asyncio.to_thread(pairing, event, number)
        await self.db.run(
            lambda s: events.write_round(s, event.id, number, drawn.tables, drawn.byes)
        )
        return True

    async def _load(self, event_id: str) -> Event:
        event = await self.db.run(lambda s: events.load_event(s, event_id))
        if event is None:
            raise LookupError(event_id)
        return event

    async def _seeding(self, event: Event) -> list[int]:
        """The entrants' numbers by rating in the game (best first), then who came first."""
        people = [e.user_id for e in event.entrants if e.user_id is not None]
        game = event.settings.game
        ratings = await self.db.run(lambda s: ratings_of(s, game, people))
        ordered = sorted(
            event.entrants,
            key=lambda e: (-ratings.get(e.user_id, UNRATED) if e.user_id else -UNRATED, e.number),
        )
        return [e.number for e in ordered]

    async def _round_done(self, event: Event) -> bool:
        """Bring the current round's games on; whether every one has its points."""
        number = event.current_round
        for game in event.round_games(number):
            if game.bye or game.result is not None:
                continue
            try:
                await self._follow(event, game)
            except Refused as exc:
                log.warning("event %s board %s: %s", event.id, game.board, exc)
        event = await self._load(event.id)
        games = event.round_games(number)
        if any(g.result is None and not g.bye for g in games):
            return False
        if event.partners and any(g.points is None for g in games):
            await self._share_partnerships(event, games)
        return True

    async def _follow(self, event: Event, game: EventGame) -> None:
        """Make the game's table if it has none; record its end."""
        host = UserInfo(event.host_id, event.host_name, False)
        table_id = game.table_id
        seats = tuple(_seat(i, event, n) for i, n in enumerate(game.entrants))
        start = seating.Start(host, may_rate=event.settings.rated, limit_bots_only=False)
        if table_id is None:
            try:
                table_id = await make_board(self.hub, event, game, host, seats)
            except StaleWrite:
                return  # made meanwhile by another process: read at the next check
        info = await self.hub.services.store.table(table_id)
        if info is None:
            return
        if info.status == "waiting":
            # A board made waiting, then seated and started (before boards were born started).
            await self.hub.ask(table_id, SeatEntrants(host, seats))
            await self.hub.ask(table_id, start)
        elif info.status == "playing":
            await self.hub.ask(table_id, HandOverAbsent(self.hub.limits.away_seconds))
        elif info.status == "over":
            result, points = read_result(info, event.partners)
            await self.db.run(
                lambda s: events.set_result(s, event.id, game.round, game.board, result, points)
            )

    async def _share_partnerships(self, event: Event, games: list[EventGame]) -> None:
        """A round of partnerships: each pair's points by its rank among the round's pairs."""
        pairs = [g for g in games if not g.bye]
        shared = partnership_points(
            [(float(g.result["score"]), bool(g.result["won"])) for g in pairs if g.result]
        )
        points = {}
        for game, got in zip(pairs, shared, strict=True):
            gave_up = set(game.result["forfeits"]) if game.result else set()
            points[game.board] = [0.0 if i in gave_up else got for i in range(len(game.entrants))]
        number = games[0].round
        await self.db.run(lambda s: events.set_points(s, event.id, number, points))


def _seat(seat: int, event: Event, number: int) -> SeatInfo:
    entrant = next(e for e in event.entrants if e.number == number)
    if entrant.bot is not None:
        return SeatInfo(seat, bot=entrant.bot)
    return SeatInfo(seat, entrant.user_id, entrant.name, bot_account=entrant.bot_account)
