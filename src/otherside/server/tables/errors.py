"""Why a table refuses a request: one error, :class:`Refused`, with a stable code and its
parameters. HTTP answers it with :data:`HTTP_STATUS` of its code, the websocket with an
``error`` message; :func:`english` is one rendering of it (the one the server sends today).

>>> str(Refused("seat_not_free", seat=1, free=[0, 2]))
'seat 2 is not free; free seats: 1, 3'
>>> Refused("table_full").status
409
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _seats(seats: list[int]) -> str:
    return ", ".join(str(s + 1) for s in seats)


def _empty(params: dict[str, Any]) -> str:
    empty = params["seats"]
    many = len(empty) > 1
    return (
        f"seat{'s' if many else ''} {_seats(empty)} {'are' if many else 'is'} empty: "
        "invite someone or add bots"
    )


# code -> (HTTP status, English rendering of the parameters). Seats are 0-based in the
# parameters, as in the API, and counted from 1 in words, as on the page.
_CODES: dict[str, tuple[int, Callable[[dict[str, Any]], str]]] = {
    "no_table": (404, lambda p: f"no table {p['table']!r}"),
    "bad_request": (422, lambda p: str(p["reason"])),
    "bad_bot": (422, lambda p: str(p["reason"])),
    "no_such_seat": (422, lambda p: f"no seat {p['seat']}; seats are 0 to {p['players'] - 1}"),
    "too_many_tables": (
        429,
        lambda p: f"you already host {p['most']} open tables: start one or leave one first",
    ),
    "not_host": (403, lambda p: f"only the table's host ({p['host']}) may do this"),
    "not_a_player": (403, lambda p: "only the game's players may ask for a rematch"),
    "seats_locked": (409, lambda p: "the game has started; seats cannot change now"),
    "already_started": (409, lambda p: "the game has already started"),
    "seats_empty": (409, _empty),
    "table_full": (409, lambda p: "the table is full"),
    "seat_not_free": (
        409,
        lambda p: f"seat {p['seat'] + 1} is not free; free seats: {_seats(p['free'])}",
    ),
    "seat_taken": (409, lambda p: f"seat {p['seat'] + 1} is taken by {p['name']}"),
    "no_seat": (409, lambda p: "you have no seat in this game"),
    "game_over": (409, lambda p: "the game is over"),
    "not_finished": (409, lambda p: "a rematch is for a finished game"),
    "changed_meanwhile": (409, lambda p: "the table changed meanwhile: please try again"),
    "too_many_bot_games": (
        429,
        lambda p: (
            f"you already run {p['most']} games with bots only: stop one or wait for it "
            "to end (a game with a person seated does not count)"
        ),
    ),
    "not_playing": (409, lambda p: "the game is not in play"),
    "not_a_person": (409, lambda p: f"seat {p['seat'] + 1} is not played by another person"),
    "has_a_clock": (
        409,
        lambda p: "a player with a clock is replaced only when their time runs out",
    ),
    "not_away": (
        409,
        lambda p: f"{p['name']} is at the table, or has been away less than {p['seconds']:g} s",
    ),
    "not_bots_only": (
        409,
        lambda p: "only a game with bots only can be stopped; players may resign or leave",
    ),
}

HTTP_STATUS: dict[str, int] = {code: status for code, (status, _words) in _CODES.items()}
CODES = tuple(_CODES)


def english(code: str, params: dict[str, Any]) -> str:
    """The refusal ``code`` with ``params`` in English words."""
    return _CODES[code][1](params)


class Refused(Exception):
    """A request a table refuses, and why: ``code`` (one of :data:`CODES`) and ``params``.

    Nothing changed when it is raised.
    """

    def __init__(self, code: str, **params: Any) -> None:
        if code not in _CODES:
            raise ValueError(f"unknown refusal code {code!r}; known: {', '.join(CODES)}")
        self.code = code
        self.params = params
        super().__init__(english(code, params))

    @property
    def status(self) -> int:
        """The HTTP status that answers this refusal."""
        return HTTP_STATUS[self.code]
