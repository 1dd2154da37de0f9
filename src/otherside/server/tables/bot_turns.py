"""When bots act: while a seat that may act is a bot's, one task per table (in the one process
that owns the table) waits the bot's pace, lets it choose — off the event loop, in the bot
workers of :mod:`otherside.server.bots.workers` — and asks the table's actor to play the
choice, checked like anyone's move (a bot about to start a round with a person at the table
waits for their ``ready`` instead: :mod:`.ready`). A human's move, a start or a catch-up
starts the task again when bots must act.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from otherside.core.simultaneous import actors, is_simultaneous, legal_actions_of
from otherside.server.bots.workers import fallback_choice
from otherside.server.store.outage import log_failure
from otherside.server.tables import bot_tables, ready
from otherside.server.tables.entropy import fresh_seed
from otherside.server.tables.errors import Refused
from otherside.server.tables.live import LiveTable
from otherside.server.tables.play import apply_action
from otherside.server.tables.services import Services

log = logging.getLogger("otherside.server")
FIRST_BACKOFF = 0.05  # seconds before a failed bot move is tried again (doubling)
LAST_BACKOFF = 5.0


def bots_to_act(live: LiveTable) -> list[tuple[int, str]]:
    """The bot seats that may act now, with their bots."""
    state = live.state
    if live.info.status != "playing" or state is None:
        return []
    seats = live.info.seats
    return [(s, seats[s].bot) for s in actors(state) if seats[s].bot is not None]  # type: ignore[misc]


def kick(services: Services, live: LiveTable) -> None:
    """Start the table's bot task if a bot may act and none runs."""
    if live.bot_task is None and bots_to_act(live):
        live.bot_task = services.background(_run(services, live), f"bots-{live.id}")


async def _run(services: Services, live: LiveTable) -> None:
    try:
        # Bots move in the one process that owns the table.
        cluster = services.cluster
        if not cluster.holds(live.id) and not await cluster.acquire(live.id):
            return
        bots = services.bots
        delay = max(bots.delay, live.adapter.bot_pace) if bots.delay > 0 else 0.0
        backoff = FIRST_BACKOFF
        while (acting := bots_to_act(live)) and cluster.holds(live.id):
            try:
                if bot_tables.over_move_limit(live.info, services.limits):
                    await services.ask(live.id, bot_tables.EndAtMoveLimit())
                    break
                if not live.bot_waits():
                    await asyncio.sleep(delay)
                # Checked after the pace too: the round may have ended meanwhile (timed out).
                if live.bot_waits():
                    await ready.until_ready(services, live)  # a round starts when a person says
                for seat, bot in acting:
                    await _turn(services, live, seat, bot)
            except Exception:
                # The move could not be stored (the database away): nothing changed, and the
                # actor reloads the table before its next command. Try again, later and later,
                # rather than leave the table frozen with its bots stopped.
                log_failure(
                    log, "a bot's move at table %s failed; retrying in %.2f s", live.id, backoff
                )
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, LAST_BACKOFF)
            else:
                backoff = FIRST_BACKOFF
    finally:
        # Cleared with no await after the last check, so a human's move can start a new task.
        live.bot_task = None
        services.forget_if_idle(live)


async def _turn(services: Services, live: LiveTable, seat: int, bot: str) -> None:
    """``bot`` chooses for ``seat`` on the table as it is now, and its choice is played."""
    state = live.state
    if state is None or seat not in actors(state) or live.info.seats[seat].bot != bot:
        return
    version = live.info.version
    legal = legal_actions_of(state, seat)
    view = live.adapter.game.view(state, seat)
    seed = fresh_seed()  # the bot's own randomness, shared with no other game
    try:
        choice = str(await services.bots.choose(live.id, live.info.game, bot, view, legal, seed))
    except Exception:
        # The runner falls back by itself when a bot fails or overruns; this is for a spec it
        # could not even read: the table must not freeze either.
        log_failure(log, "bot %s failed at table %s; playing a random action", bot, live.id)
        choice = str(fallback_choice(live.info.game, view, legal, seed))
    await services.ask(live.id, BotMove(seat, bot, version, choice))


@dataclass(frozen=True)
class BotMove:
    """``bot`` at ``seat`` plays ``choice``, chosen at ``version``, if it still may."""

    seat: int
    bot: str
    version: int
    choice: str

    async def run(self, live: LiveTable, services: Services) -> None:
        """Play the choice, unless the table moved on without it meanwhile."""
        state = live.state
        if state is None or live.info.seats[self.seat].bot != self.bot:
            return
        if live.info.version != self.version and not is_simultaneous(state):
            return
        try:
            await apply_action(services, live, self.seat, live.info.version, self.choice)
        except Refused as exc:
            if exc.code == "server_error":
                raise
            # In a simultaneous game a partner may have acted meanwhile: choose again.
            log.info("bot %s at table %s: %s", self.bot, live.id, exc)
