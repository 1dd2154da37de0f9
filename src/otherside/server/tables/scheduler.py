"""The scheduler: acts on the tables' deadlines (clocks running out, reminders, game timers).

Deadlines live in the database (``game_tables.deadline_at``), so they survive restarts and a
game played over days needs no memory in between. :meth:`Scheduler.run_due` handles every table
whose deadline has come (:mod:`.deadlines` decides what is due); :meth:`loop` calls it,
then sleeps on the injected clock until the next deadline, or until a move moves one earlier.
Tests move a :class:`~otherside.server.clock.ManualClock` and call :meth:`run_due` themselves.

A reminder goes by e-mail when the server has a mailer and the player a confirmed address
(:mod:`~otherside.server.accounts.email_links`); either way the lobby shows it (the table is
marked reminded).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta

from otherside.i18n import spoken
from otherside.server.accounts.email_links import mail_address
from otherside.server.clock import Clock
from otherside.server.live.wire import seat_names
from otherside.server.mail.reminders import reminder_mail
from otherside.server.mail.smtp import Mailer
from otherside.server.store.db import Database
from otherside.server.store.outage import log_failure
from otherside.server.store.queries import due_table_ids, next_deadline
from otherside.server.tables.deadlines import on_deadline
from otherside.server.tables.errors import Refused
from otherside.server.tables.hub import TableHub
from otherside.server.tables.live import LiveTable
from otherside.server.tasks import cancel

log = logging.getLogger("otherside.server")
LONGEST_SLEEP = 60.0
OTHERS_WAIT = 1.0  # seconds before looking again at deadlines another process owns


class Scheduler:
    """Runs what is due at the tables of ``hub``.

    Args:
        hub: the tables.
        clock: the server's clock.
        mailer: sends reminders (``None``: reminders show in the lobby only).
        public_url: the server's address for links in mail (``http://host:port``).
    """

    def __init__(
        self, hub: TableHub, clock: Clock, mailer: Mailer | None = None, public_url: str = ""
    ) -> None:
        if hub.db is None:
            raise ValueError("the scheduler reads the tables' deadlines from a database")
        self.hub = hub
        self.db: Database = hub.db
        self.clock = clock
        self.mailer = mailer
        self.public_url = public_url.rstrip("/")
        self.sent: list[tuple[str, str]] = []  # (address, subject) of every reminder mailed
        self._wake = asyncio.Event()
        self._mail: set[asyncio.Task[None]] = set()
        self._task: asyncio.Task[None] | None = None
        self.passes = 0  # completed passes of the loop (tests wait for the next one)
        self.others_due = 0  # due tables of the last pass that another process owns
        self._passed = asyncio.Condition()
        self._planned: datetime | None = None  # when the loop looks next, while it sleeps
        self._stale = False  # deadlines changed that no wake told of: read them all again
        hub.services.on_deadline_change = self.wake
        hub.services.remind = self._remind

    def wake(self, deadline: datetime | None = None) -> None:
        """A table's deadline is now ``deadline`` (``None``: unknown, or none): look again,
        unless the loop sleeps until a moment no later than it (the common case: a move puts
        its table's deadline later than the earliest one), which costs nothing."""
        planned = self._planned
        if deadline is not None and planned is not None and planned <= deadline:
            return
        self._wake.set()

    def look_again(self) -> None:
        """Deadlines changed that this process was not told of: another process that owned
        tables died (their moves and deadlines were its to schedule, and this loop may sleep
        past them, up to :data:`LONGEST_SLEEP`). Read every table's deadline again now."""
        self._stale = True
        self._wake.set()

    async def run_due(self) -> int:
        """Act on every table whose deadline has come; the number of tables handled. Mail it
        sends has gone (or failed) when this returns."""
        now = self.clock.now()
        ids = await self.db.run(lambda s: due_table_ids(s, now))
        handled = 0
        for table_id in ids:
            try:
                handled += await on_deadline(self.hub, table_id)
            except Refused:
                continue
            except Exception:
                log_failure(log, "the deadline of table %s failed", table_id)
        if self._mail:
            await asyncio.gather(*self._mail, return_exceptions=True)
        # A due table another process owns is theirs to handle: don't spin on it.
        self.others_due = len(ids) - handled
        return handled

    async def loop(self) -> None:
        """Run due work for ever, sleeping until the next deadline in between."""
        while True:
            self._wake.clear()
            self._stale = False
            try:
                await self.run_due()
                upcoming = await self.db.run(next_deadline)
            except Exception:
                log_failure(log, "the scheduler failed; trying again shortly")
                upcoming = None
            wait = LONGEST_SLEEP
            if upcoming is not None:
                wait = min(wait, (upcoming - self.clock.now()).total_seconds())
            if self.others_due:
                wait = max(wait, OTHERS_WAIT)
            planned = self.clock.now() + timedelta(seconds=wait) if wait > 0 else None
            # The plan is known before the pass is told: a wake that comes after the pass with
            # a later deadline (a move's) costs nothing, as it does once the loop sleeps;
            # told first, such a wake made the loop look once more for nothing.
            self._planned = planned
            await self._passed_once()
            if planned is not None:
                await self._sleep_until(planned)

    async def _sleep_until(self, planned: datetime) -> None:
        """Sleep until ``planned``, or until a wake finds a deadline before it.

        A wake comes after every move, and a move mostly puts its table's deadline later than
        the earliest one: the tables held here say so without reading the database (a change
        made elsewhere reaches a held table before its wake; a table not held here changes
        only elsewhere, and its own process schedules it)."""
        self._planned = planned
        try:
            await self._sleep_until_planned(planned)
        finally:
            self._planned = None

    async def _sleep_until_planned(self, planned: datetime) -> None:
        while True:
            wait = (planned - self.clock.now()).total_seconds()
            if wait <= 0:
                return
            sleeper = asyncio.ensure_future(self.clock.sleep(wait))
            woken = asyncio.ensure_future(self._wake.wait())
            await asyncio.wait({sleeper, woken}, return_when=asyncio.FIRST_COMPLETED)
            for task in (sleeper, woken):
                task.cancel()
            if not self._wake.is_set() or self._stale or self._held_deadline_before(planned):
                return
            self._wake.clear()
            await self._passed_once()  # looked, and nothing comes sooner

    def _held_deadline_before(self, planned: datetime) -> bool:
        for table_id in self.hub.held_ids():
            live = self.hub.loaded(table_id)
            deadline = live.info.deadline_at if live is not None else None
            if deadline is not None and deadline < planned:
                return True
        return False

    async def _passed_once(self) -> None:
        async with self._passed:
            self.passes += 1
            self._passed.notify_all()

    async def next_pass(self) -> None:
        """Wait until the loop has completed one more pass (for tests and tools)."""
        async with self._passed:
            target = self.passes + 1
            await self._passed.wait_for(lambda: self.passes >= target)

    def start(self) -> None:
        """Run :meth:`loop` in the background."""
        if self._task is None:
            self._task = asyncio.create_task(self.loop(), name="otherside-scheduler")

    async def stop(self) -> None:
        """Stop the loop and let mail in flight finish."""
        await cancel(self._task)
        self._task = None
        if self._mail:
            await asyncio.gather(*self._mail, return_exceptions=True)

    # -- reminders -------------------------------------------------------------------------

    def _remind(self, live: LiveTable, seat: int) -> None:
        if self.mailer is None:
            return
        task = asyncio.create_task(self._send_reminder(live, seat))
        self._mail.add(task)
        task.add_done_callback(self._mail.discard)

    async def _send_reminder(self, live: LiveTable, seat: int) -> None:
        assert self.mailer is not None
        info = live.info
        player = info.seats[seat]
        if player.user_id is None:
            return
        user_id = player.user_id
        address, language = await self.db.run(lambda s: mail_address(s, user_id))
        if not address or info.turn_started_at is None:
            return
        # The others named as their table names them, bots in the mail's language.
        names = seat_names(info.seats, spoken(language))
        others = [name or "?" for s, name in zip(info.seats, names, strict=True) if s.seat != seat]
        subject, body = reminder_mail(
            language,
            name=player.user_name or "",
            game=live.adapter.title,
            others=others,
            waited=info.pace.remind_days,
            days=info.pace.days,
            end=info.turn_started_at + timedelta(days=info.pace.days),
            link=f"{self.public_url}/table/{info.id}",
        )
        if await self.mailer.send(address, subject, body):
            self.sent.append((address, subject))
