"""Which position a client chose an action for, and its refusal once that position is gone.

A table's ``version`` counts the plies played, and a takeback lowers it: after one, a version
comes again for another position in the table's history — or for the same board reached again,
where the player who acted meant the line since taken back (and the opponent who asked for the
takeback would see it silently undone). The table's count of accepted ``takebacks`` only grows,
so the two together name one position: a client that sends back the count of the view it acted
on has its action refused (``stale``, changing nothing) once a takeback has happened since,
whatever the version. A client that sends no count (a program written before it) is checked by
the version alone.
"""

from __future__ import annotations

from otherside.i18n import N_
from otherside.server.tables.errors import Refused
from otherside.server.tables.live import LiveTable


def stale(version: int, now: int) -> Refused:
    """The refusal of an action (or a takeback's step) chosen at ``version`` when the game is
    at ``now``."""
    return Refused(
        "stale",
        N_("your action was for version {version}; the game is at version {now}"),
        version=version,
        now=now,
    )


def check_not_taken_back(live: LiveTable, version: int, takebacks: int | None) -> None:
    """Refuse an action chosen at ``version`` with ``takebacks`` accepted (``None``: not said)
    when the table has had another count of takebacks since: its position is gone."""
    if takebacks is None or takebacks == live.info.takebacks:
        return
    raise Refused(
        "stale",
        N_(
            "a move was taken back after your action was chosen (at version {version}); "
            "the game is at version {now}"
        ),
        version=version,
        now=live.info.version,
        takebacks=live.info.takebacks,
    )
