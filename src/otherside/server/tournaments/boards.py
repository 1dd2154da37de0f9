"""An event's board made whole: the game's table seated with its entrants, started, and
recorded as the board's in one write
(:meth:`~otherside.server.store.contract.TableStore.create_board`), then taken into this
process's memory and its bots and clock set going.

The start is decided by the rules the lobby's own start uses
(:mod:`~otherside.server.tables.seat_rules`: the game's first state, rated only when the event
is, the clocks), on the table as it will be written; only where it is written differs. A table
born started cannot be sat at, filled with bots or started by a lobby request of any server
process (its seats are locked from the first moment others can see it), and a table born with
its record cannot outlive a crash as a game no event knows. It names its event, too, so that a
lobby request that would change a game in play (its host stopping a game of bots) refuses it.
"""

from __future__ import annotations

from collections.abc import Sequence

from otherside.server import faults
from otherside.server.accounts.sessions import UserInfo
from otherside.server.store.records import EventBoard, Opening, SeatInfo
from otherside.server.tables import seat_rules
from otherside.server.tables.adapters import get_adapter
from otherside.server.tables.hub import TableHub
from otherside.server.tables.live import GameClock
from otherside.server.tables.pace import Pace
from otherside.server.tournaments.records import Event, EventGame

BOARD_MADE = "event_board_made"  # moments a test may stop the process at (:mod:`..faults`)
BOARD_STARTED = "event_board_started"


def opening(
    event: Event, host: UserInfo, players: int, seats: Sequence[SeatInfo], hub: TableHub
) -> tuple[Pace, Opening]:
    """The pace of the board's table and how its game starts now (``Refused`` if the event's
    settings no longer make a table, as the lobby would say)."""
    settings = event.settings
    options, pace = seat_rules.new_table(settings.game, players, settings.options, settings.pace)
    now = hub.services.clock.now()
    # The table as it will be written; the write chooses its id, which nothing here reads.
    waiting = seat_rules.created("", host, settings.game, players, options, pace, now, seats)
    adapter = get_adapter(settings.game)
    game = adapter.game_with_clock(GameClock(hub.services.clock))
    state = adapter.new_state(players, options, game)
    start = seat_rules.started(waiting, adapter, state, now, may_rate=settings.rated)
    return pace, Opening(start.options, start.record, start.rated, start.plan, now)


async def make_board(
    hub: TableHub, event: Event, game: EventGame, host: UserInfo, seats: Sequence[SeatInfo]
) -> str:
    """Make, start and record the table of ``game`` (see the module docstring); its id.

    Raises:
        StaleWrite: the board has a table already (another process made it meanwhile).
    """
    players = len(game.entrants)
    pace, start = opening(event, host, players, seats, hub)
    board = EventBoard(event.id, game.round, game.board)
    services = hub.services
    table_id = await services.store.create_board(
        board, host, event.settings.game, players, pace, seats, start
    )
    await faults.moment(BOARD_MADE)
    await faults.moment(BOARD_STARTED)
    # Read back as any process would load it (its first state rebuilt from the record).
    live = await hub.live(table_id)
    services.seated(s.user_id for s in seats if s.user_id is not None)
    services.kick_bots(live)
    services.on_deadline_change(live.info.deadline_at)
    return table_id
