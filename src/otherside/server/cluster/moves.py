"""A move told to the other server processes with the move itself, so that a process holding
the table applies it from the notification instead of reading the database again.

The announcement of a move (:func:`move_note`, sent with the writer's batch when the move
commits) carries what the table in memory needs to advance exactly as its owner's did: the
version the move makes, the seat, the action's notation, the time it was played (the game's
clock is pinned to it while the move is applied, as when a game is rebuilt from its stored
moves) and the table's clocks and deadlines after it. A process holding the table at exactly
the version before applies it through the table's actor with the game's own ``apply`` and
shows it to its watchers (:class:`~otherside.server.cluster.catch_up.Follow`). Anything else
falls back on the database catch-up (:mod:`.catch_up`): a version missed (a gap), a move that
ends the game or gives up a seat (the outcome, ratings and seats are read from the database),
an action the engine refuses here, or a note without the move (an action too long for one
``NOTIFY``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from otherside.server.store.records import Timing

# The longest action carried in a note: JSON may write a character as six bytes, and the whole
# note must stay under PostgreSQL's 8000 bytes a ``NOTIFY`` (the writer packs notes up to that).
MOST_ACTION_CHARS = 1000


@dataclass(frozen=True)
class NotedMove:
    """A move another process committed, as its announcement told it: ``seat`` played
    ``action`` as move ``version`` at ``at``, after ``takebacks`` takebacks at the table; the
    table's clocks and deadlines are then ``plan``."""

    version: int
    seat: int
    action: str
    at: datetime
    plan: Timing
    takebacks: int = 0


def _stamp(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _moment(text: Any) -> datetime | None:
    return datetime.fromisoformat(text) if text is not None else None


def move_note(
    number: int,
    seat: int,
    action: str,
    plan: Timing,
    now: datetime,
    whole: bool = True,
    takebacks: int = 0,
) -> dict[str, Any]:
    """The fields of the announcement of move ``number`` (``seat`` played ``action`` at
    ``now``, after ``takebacks`` takebacks at the table — the version alone may name a position
    taken back — after which the table's clocks and deadlines are ``plan``). ``whole=False`` (a move
    that ended the game or gave up a seat) tells only the version: the others re-read it.

    >>> from datetime import UTC
    >>> at = datetime(2026, 1, 2, tzinfo=UTC)
    >>> plan = Timing((1,), at, None, None, {0: 9000})
    >>> move_note(3, 0, "flip", plan, at)["move"]["clocks"]
    {'0': 9000}
    >>> move_note(3, 0, "flip", plan, at, whole=False)
    {'version': 3}
    """
    if not whole or len(action) > MOST_ACTION_CHARS:
        return {"version": number}
    return {
        "version": number,
        "move": {
            "seat": seat,
            "action": action,
            "at": now.isoformat(),
            "to_move": list(plan.to_move),
            "turn_started_at": _stamp(plan.turn_started_at),
            "deadline_at": _stamp(plan.deadline_at),
            "reminded_at": _stamp(plan.reminded_at),
            # JSON keys are text: the seat numbers come back with int() in :func:`heard_move`.
            "clocks": {str(s): left for s, left in plan.clocks.items()},
            "takebacks": takebacks,
        },
    }


def heard_move(message: dict[str, Any]) -> NotedMove | None:
    """The move carried by an announcement of kind ``move`` (``None``: it carries none, or not
    in a form this process reads — the caller catches up with the database instead)."""
    move = message.get("move")
    if not isinstance(move, dict):
        return None
    try:
        plan = Timing(
            to_move=tuple(int(s) for s in move["to_move"]),
            turn_started_at=_moment(move["turn_started_at"]),
            deadline_at=_moment(move["deadline_at"]),
            reminded_at=_moment(move["reminded_at"]),
            clocks={int(s): None if v is None else int(v) for s, v in move["clocks"].items()},
        )
        at = _moment(move["at"])
        if at is None:
            return None
        return NotedMove(
            int(message["version"]),
            int(move["seat"]),
            str(move["action"]),
            at,
            plan,
            int(move.get("takebacks", 0)),
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
