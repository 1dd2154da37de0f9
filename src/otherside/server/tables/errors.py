"""Why a table refuses a request: one error, :class:`Refused`, with a stable code and its
parameters, whatever the request (a seat, a start, a move, a takeback, a chat line) and however
it came (HTTP or the websocket). HTTP answers it with :data:`HTTP_STATUS` of its code, the
websocket with an ``error`` message; :meth:`Refused.words` says it in a reader's language (the
code's words, :func:`words`, or the more precise sentence it was raised with).

>>> str(Refused("seat_not_free", seat=1, free=[0, 2]))
'seat 2 is not free; free seats: 1, 3'
>>> Refused("table_full").status
409
"""

from __future__ import annotations

from typing import Any

from otherside.i18n import DEFAULT, N_, Nn_, say, say_n


def _seats(seats: list[int]) -> str:
    return ", ".join(str(s + 1) for s in seats)


# Seats are 0-based in the parameters, as in the API, and counted from 1 in words, as on the
# page: a refusal's words take these fields, made from its parameters.
def _fields(params: dict[str, Any]) -> dict[str, Any]:
    fields = dict(params)
    if "seat" in params:
        fields["seat"] = params["seat"] + 1
        fields["given"] = params["seat"]
    for name in ("free", "seats"):
        if name in params:
            fields[name] = _seats(params[name])
    if "seats" in params:
        fields["count"] = len(params["seats"])
    if "players" in params:
        fields["last"] = params["players"] - 1
    if "seconds" in params:
        fields["seconds"] = f"{params['seconds']:g}"
    return fields


# code -> (HTTP status, its words: an English template, or a singular and plural pair counted
# by the field ``count``). The templates are the catalogs' messages (otherside.i18n).
_CODES: dict[str, tuple[int, str | tuple[str, str]]] = {
    "no_table": (404, N_("no table '{table}'")),
    # A table's setup (game, players, options, pace) and a bot spec: the words follow the
    # params' ``problem`` (:mod:`.setup_refusals`).
    "bad_request": (422, "{reason}"),
    "bad_bot": (422, "{reason}"),
    "no_such_seat": (422, N_("no seat {given}; seats are 0 to {last}")),
    "too_many_tables": (
        429,
        N_("you already host {most} open tables: start one or leave one first"),
    ),
    "not_host": (403, N_("only the table's host ({host}) may do this")),
    "not_a_player": (403, N_("only the game's players may ask for a rematch")),
    "seats_locked": (409, N_("the game has started; seats cannot change now")),
    "already_started": (409, N_("the game has already started")),
    "seats_empty": (
        409,
        Nn_(
            "seat {seats} is empty: invite someone or add bots",
            "seats {seats} are empty: invite someone or add bots",
        ),
    ),
    "table_full": (409, N_("the table is full")),
    "seat_not_free": (409, N_("seat {seat} is not free; free seats: {free}")),
    "seat_taken": (409, N_("seat {seat} is taken by {name}")),
    "no_seat": (409, N_("you have no seat in this game")),
    "game_over": (409, N_("the game is over")),
    "not_finished": (409, N_("a rematch is for a finished game")),
    "changed_meanwhile": (409, N_("the table changed meanwhile: please try again")),
    "too_many_bot_games": (
        429,
        N_(
            "you already run {most} games with bots only: stop one or wait for it to end "
            "(a game with a person seated does not count)"
        ),
    ),
    "no_bot_accounts": (
        403,
        N_("the host of this table does not let bot accounts play with people"),
    ),
    "not_playing": (409, N_("the game is not in play")),
    "not_a_person": (409, N_("seat {seat} is not played by another person")),
    "has_a_clock": (409, N_("a player with a clock is replaced only when their time runs out")),
    "not_away": (409, N_("{name} is at the table, or has been away less than {seconds} s")),
    "not_bots_only": (
        409,
        N_("only a game with bots only can be stopped; players may resign or leave"),
    ),
    "event_table": (409, N_("this game is one of an event's: the event's director runs it")),
    # Playing: a move, a resignation, a takeback, a chat line (raised with a sentence of their
    # own; these words are the code's in general, as the protocol documents them).
    "not_seated": (403, N_("only a player seated at this table may act")),
    "not_started": (409, N_("the game has not started")),
    "not_your_turn": (409, N_("it is another player's turn")),
    "out_of_time": (409, N_("your time ran out before the action arrived")),
    "stale": (409, N_("the action was chosen on an older state; here is the current one")),
    "illegal": (422, N_("the action is malformed or not legal now")),
    "chat": (422, N_("the chat line is empty, too long, or sent too fast")),
    "takeback_unsupported": (409, N_("this game has no takebacks")),
    "takeback_rated": (409, N_("takebacks are only for unrated games")),
    "takeback_bot": (409, N_("only a person can agree to a takeback")),
    "takeback_pending": (409, N_("a takeback is already asked for")),
    "takeback_none": (409, N_("there is no move of yours to take back")),
    "no_takeback": (409, N_("no takeback was asked for")),
    "not_waiting": (409, N_("no bot waits for a player to be ready")),
    "server_error": (
        503,
        N_("the server could not save the action; nothing changed, try again"),
    ),
}

SETUP_CODES = ("bad_request", "bad_bot")
# The codes a move, a resignation, a takeback or a chat line is refused with (on the websocket,
# beside the protocol's own for an unreadable message).
PLAYING = (
    "not_seated", "not_started", "game_over", "not_your_turn", "out_of_time", "chat", "stale",
    "illegal", "takeback_unsupported", "takeback_rated", "takeback_bot", "takeback_pending",
    "takeback_none", "no_takeback", "not_waiting", "server_error",
)  # fmt: skip
HTTP_STATUS: dict[str, int] = {code: status for code, (status, _words) in _CODES.items()}
CODES = tuple(_CODES)


def words(code: str, params: dict[str, Any], language: str = DEFAULT) -> str:
    """The refusal ``code`` with ``params`` in ``language``'s words.

    >>> words("seat_taken", {"seat": 0, "name": "Ada"}, "de")
    'Platz 1 ist von Ada besetzt'
    """
    template = _CODES[code][1]
    if code in SETUP_CODES:
        # Here, not at the top: setup_refusals reads reasons with refusals.first_match, and
        # refusals' engine refusal is a Refused.
        from otherside.server.tables import setup_refusals

        template = setup_refusals.template(params)
    fields = _fields(params)
    if isinstance(template, tuple):
        return say_n(language, *template, fields.pop("count"), **fields)
    return say(language, template, **fields)


def code_words(code: str) -> str:
    """The English words of ``code`` in general (a single template)."""
    template = _CODES[code][1]
    return template if isinstance(template, str) else template[1]


def english(code: str, params: dict[str, Any]) -> str:
    """The refusal ``code`` with ``params`` in English words."""
    return words(code, params)


class Refused(Exception):
    """A request a table refuses, and why: ``code`` (one of :data:`CODES`) and ``params``.

    Nothing changed when it is raised.
    """

    def __init__(self, code: str, template: str | None = None, /, **params: Any) -> None:
        """``template``: a sentence more precise than the code's words (an English template
        marked with ``N_``, filled from ``params`` as they are)."""
        if code not in _CODES:
            raise ValueError(f"unknown refusal code {code!r}; known: {', '.join(CODES)}")
        self.code = code
        self.template = template
        self.params = params
        super().__init__(code)

    def __str__(self) -> str:
        # Said when read, not when raised: most refusals are answered, never printed.
        return self.words(DEFAULT)

    def words(self, language: str) -> str:
        """The refusal in ``language``."""
        if self.template is None:
            return words(self.code, self.params, language)
        return say(language, self.template, **self.params)

    @property
    def status(self) -> int:
        """The HTTP status that answers this refusal."""
        return HTTP_STATUS[self.code]
