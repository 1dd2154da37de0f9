"""An event's board written whole: its table made, seated with the entrants, started, and
recorded as the board's, in the caller's one transaction (blocking; the store of
:mod:`.tables` runs it in a batch of its writer).

Written apart, a crash between the table and the record left a started game that no event
knew (and the director, restarted, made another for the same pairing); and a table made
waiting could, for the moment before its start, be started, filled or sat at from the lobby
of another server process. Now there is no such moment: the table is never waiting, and it
exists only with its record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from sqlalchemy import Connection, Table, bindparam, update

from otherside.server.store.models import TournamentGame
from otherside.server.store.records import EventBoard, Opening, SeatInfo, StaleWrite
from otherside.server.store.writes import TABLES, create_table, save_start
from otherside.server.tables.pace import Pace

GAMES = cast(Table, TournamentGame.__table__)

# Compare-and-set: a board takes one table, the first written.
_CLAIM = (
    update(GAMES)
    .where(
        GAMES.c.tournament_id == bindparam("g_event"),
        GAMES.c.round == bindparam("g_round"),
        GAMES.c.board == bindparam("g_board"),
        GAMES.c.table_id.is_(None),
    )
    .values(table_id=bindparam("g_table"))
)
_OF_EVENT = (
    update(TABLES).where(TABLES.c.id == bindparam("t_id")).values(event_id=bindparam("t_event"))
)


def create_board(
    connection: Connection,
    board: EventBoard,
    owner_id: int,
    game: str,
    players: int,
    pace: Pace,
    seats: Sequence[SeatInfo],
    start: Opening,
) -> str:
    """Make ``board``'s table, hosted by ``owner_id`` with ``seats``, started as ``start``
    says, and record it as the board's; its id.

    Raises:
        StaleWrite: the board has a table already (nothing is kept: the caller's transaction
            rolls back).
    """
    options, now = start.options, start.now
    table_id = create_table(connection, owner_id, game, players, options, pace, now, seats)
    save_start(connection, table_id, options, start.record, start.rated, start.plan, now)
    connection.execute(_OF_EVENT, {"t_id": table_id, "t_event": board.event_id})
    where = {"g_event": board.event_id, "g_round": board.round, "g_board": board.board}
    if connection.execute(_CLAIM, {**where, "g_table": table_id}).rowcount != 1:
        raise StaleWrite(f"board {board} has a table already")
    return table_id
