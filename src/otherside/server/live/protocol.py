"""The websocket protocol of a table, as Pydantic schemas.

A browser opens ``/ws/tables/{id}`` (its session cookie says who it is) and at once receives a
``table`` message (seats, status) and a ``view`` message. It may then send:

- ``{"type": "action", "version": 17, "takebacks": 0, "action": "flip"}``: play ``action`` (the
  game's notation) at state version 17 (the number of actions applied so far, as in the last
  ``view``) after 0 takebacks (the view's ``takebacks``: a takeback lowers the version, and an
  action sent before one is refused as ``stale`` after it even at the same version; without
  ``takebacks`` the version alone is checked, see :mod:`otherside.server.tables.positions`).
  In a game where several players act at once (a Recto Verso build) the version is only a
  hint: an action still legal when it arrives is applied;
- ``{"type": "resign"}``: give up the game (any time, any game: see
  :mod:`otherside.server.tables.forfeits`);
- ``{"type": "takeback", "version": 17, "takebacks": 0, "step": "ask"}``: ask to take back
  your last move (``"accept"`` or ``"decline"``: answer the other player's request; see
  :mod:`otherside.server.tables.takebacks`);
- ``{"type": "ready", "version": 17}``: I am ready for the next round, as of version 17 (the
  view's): a bot about to start it (Recto Verso's ``reveal`` or ``turn``) waits for this (any
  seated person's, the first), or for its pause (10 s), when the view says ``bot_waits`` (see
  :mod:`otherside.server.tables.ready`); refused from a spectator (``not_seated``), at another
  version (``stale``) or when no bot waits (``not_waiting``);
- ``{"type": "chat", "text": "…"}``: say something at the table (players and spectators);
- ``{"type": "sync"}``: send me the table and my view again, as stored (read from the database
  since it was asked, or since the connection opened if it is the connection's first message);
- ``{"type": "ping"}``: answered by ``{"type": "pong"}``.

The server sends ``table``, ``view`` (``view`` is exactly ``Game.view(state, seat)``: a seat gets
its own, a spectator the public one; ``legal`` lists the actions that seat may play now, for
that seat only; ``clock`` the table's clocks), ``chat`` (new lines, or the recent ones on
connecting, marked ``"recent": true``) and ``error`` (``code`` from :data:`ERROR_CODES`,
``message`` in words). A refused message changes nothing; after ``stale`` and ``server_error``
a ``view`` of the table as it is follows, to act on again. A ``view`` also carries ``takeback``:
the open takeback request (``{"seat", "version", "plies"}``) or ``null``, ``takebacks``: the
takebacks accepted at the table so far (it never goes down), ``bot_waits``: a bot waits
for this player's ``ready`` before it starts the next round, and ``bot_waits_until``: while a
bot waits for a person's ``ready``, when it goes on by itself (ISO 8601, on the server's clock,
as ``clock.now``; a fixed moment, the pause after the move that ended the last round), else
``null`` — sent to everyone watching, spectators too, whose ``bot_waits`` is ``false``.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from otherside.i18n import N_, say
from otherside.server.http.inputs import InputRefused, parse_json
from otherside.server.tables.errors import PLAYING, code_words

MAX_MESSAGE_CHARS = 4096
CHAT_CHARS = 300
# The largest version or count of takebacks a message may name: a table's column holds no more
# (a larger number is no state a table was ever at: refused as malformed, not as stale).
MOST = 2**31 - 1

# Every code of an ``error`` message: the protocol's own (a message it cannot read), then a
# table's refusals of what it asks (:mod:`otherside.server.tables.errors`).
ERROR_CODES = {
    "malformed": N_(
        "the message is not a JSON object of a known shape (nested at most 32 deep, "
        "its text without control characters)"
    ),
    "unknown_type": N_("the message type is not one the server knows"),
    **{code: code_words(code) for code in PLAYING},
}


class _Message(BaseModel):
    # Strict: a field of the wrong JSON type is refused, not converted ("3" or true for a
    # version, 3.0 for a count were taken as the number 3 and acted on).
    model_config = ConfigDict(extra="forbid", strict=True)


class ActionMessage(_Message):
    """Play an action at the state version the client saw."""

    type: Literal["action"]
    version: int = Field(ge=0, le=MOST)
    action: str = Field(min_length=1, max_length=200)
    # The view's count of takebacks (optional: a program written before it sends none).
    takebacks: int | None = Field(default=None, ge=0, le=MOST)


class ResignMessage(_Message):
    """Give up the game."""

    type: Literal["resign"]


class TakebackMessage(_Message):
    """Ask to take back one's last move, or answer the other player's request."""

    type: Literal["takeback"]
    version: int = Field(ge=0, le=MOST)
    step: Literal["ask", "accept", "decline"]
    takebacks: int | None = Field(default=None, ge=0, le=MOST)


class ReadyMessage(_Message):
    """Say one is ready for the next round (a bot partner waits to start it)."""

    type: Literal["ready"]
    version: int = Field(ge=0, le=MOST)


class ChatMessage(_Message):
    """A line of chat (plain text, shown as text)."""

    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=CHAT_CHARS)


class SyncMessage(_Message):
    """Ask for the table and the current view again."""

    type: Literal["sync"]


class PingMessage(_Message):
    """Keep-alive."""

    type: Literal["ping"]


AnyClientMessage = (
    ActionMessage
    | ResignMessage
    | TakebackMessage
    | ReadyMessage
    | ChatMessage
    | SyncMessage
    | PingMessage
)
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
CLIENT_TYPES = ("action", "resign", "takeback", "ready", "chat", "sync", "ping")
_CLIENT = TypeAdapter(ClientMessage)


class ProtocolError(ValueError):
    """A message the protocol cannot read (``malformed``, ``unknown_type``): ``code``, and its
    words (an English template marked with ``N_``, its fields filled from ``params``;
    :meth:`words` says them in a reader's language). A table's refusal of what a message asks
    is a :class:`~otherside.server.tables.errors.Refused`."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        self.code = code
        self.template = message
        self.params = params
        super().__init__(message.format(**params) if params else message)

    def words(self, language: str) -> str:
        """The refusal in ``language``."""
        return say(language, self.template, **self.params)


def parse_client_message(text: str) -> AnyClientMessage:
    """Parse one client message; :class:`ProtocolError` saying what is wrong.

    >>> parse_client_message('{"type": "action", "version": 3, "action": "flip"}').action
    'flip'
    >>> parse_client_message('{"type": "dance"}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    otherside.server.live.protocol.ProtocolError: unknown message type "dance"; known: action, ...
    """
    if len(text) > MAX_MESSAGE_CHARS:
        raise ProtocolError(
            "malformed", N_("the message is longer than {most} characters"), most=MAX_MESSAGE_CHARS
        )
    try:
        data = parse_json(text, where="message")
    except InputRefused as exc:
        raise ProtocolError("malformed", exc.template, **exc.params) from exc
    except json.JSONDecodeError as exc:
        raise ProtocolError(
            "malformed", N_("the message is not JSON (at column {column})"), column=exc.colno
        ) from exc
    if not isinstance(data, dict):
        raise ProtocolError("malformed", N_("a message must be a JSON object with a 'type'"))
    kind = data.get("type")
    if kind is None:
        raise ProtocolError(
            "unknown_type",
            N_("the message has no 'type'; known: {known}"),
            known=", ".join(CLIENT_TYPES),
        )
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            "unknown_type",
            N_("unknown message type {kind}; known: {known}"),
            kind=json.dumps(kind)[:40],
            known=", ".join(CLIENT_TYPES),
        )
    try:
        return _CLIENT.validate_python(data)
    except ValidationError as exc:
        raise _refused_shape(kind, exc.errors()[0]) from exc


# A message of a known type that its schema refuses, said by the first problem found (the
# words an HTTP body's problems have, where they are the same).
_PROBLEMS = {
    "missing": N_("'{field}' is missing"),
    "string_too_long": N_("'{field}' has at most {most} characters"),
    "string_too_short": N_("'{field}' has at least {least} characters"),
    "extra_forbidden": N_("the '{kind}' message has no field '{field}'"),
}
_PROBLEM_OTHER = N_("'{field}' does not have the value or type the '{kind}' message takes")


def _refused_shape(kind: str, error: Any) -> ProtocolError:
    """The refusal of a ``kind`` message by its schema's first ``error`` (Pydantic's)."""
    context = error.get("ctx") or {}
    params: dict[str, Any] = {
        "kind": kind,
        "field": ".".join(str(part) for part in error["loc"][1:]) or "type",
        "problem": str(error["type"]),
    }
    if "max_length" in context:
        params["most"] = context["max_length"]
    if "min_length" in context:
        params["least"] = context["min_length"]
    return ProtocolError("malformed", _PROBLEMS.get(params["problem"], _PROBLEM_OTHER), **params)


class SeatOut(BaseModel):
    """A seat as the browser sees it."""

    seat: int
    kind: Literal["empty", "human", "bot"]
    name: str | None
    user_id: int | None = None
    bot: str | None = None
    # The bot's registry name and its label with settings ("search · 2 s a move"), parsed from
    # ``bot`` by the server so that pages never split a spec.
    bot_name: str | None = None
    bot_label: str | None = None
    guest: bool = False
    # A program plays this account (it declared itself a bot): shown as a bot.
    bot_account: bool = False
    # Why the player named here gave up the seat during the game (a bot plays it on).
    forfeit: str | None = None
    rating: int | None = None
    # What the finished, rated game did to the rating (shown with the result).
    rating_change: int | None = None
    # Since when the player of a game in play has had no connection to the table.
    away_since: str | None = None


class TableOut(BaseModel):
    """A table's public summary (lobby lists and the ``table`` message)."""

    id: str
    game: str
    title: str
    players: int
    options: dict[str, Any]
    pace: dict[str, Any]
    pace_text: str
    rated: bool
    status: Literal["waiting", "playing", "over"]
    owner: str
    owner_id: int
    seats: list[SeatOut]
    version: int
    outcome: dict[str, Any] | None
    to_move: list[int]
    deadline_at: str | None
    reminded: bool
    created_at: str
    updated_at: str | None
    rematch: str | None = None


class TableMessage(BaseModel):
    """Server → client: the table changed (seats, status)."""

    type: Literal["table"] = "table"
    table: TableOut
    you: int | None = None


class ClockOut(BaseModel):
    """The table's clocks when a view is sent: ``now`` (the server's time, to set the page's
    clock by), the seats that may act, when the current turn began, each seat's time left at
    that moment (live pace, ms; ``None`` without a clock) and the next deadline."""

    now: str
    to_move: list[int]
    turn_started_at: str | None
    time_left_ms: list[int | None]
    deadline_at: str | None
    pace: dict[str, Any]


class ViewMessage(BaseModel):
    """Server → client: the game as this connection may see it."""

    type: Literal["view"] = "view"
    table: str
    version: int
    seat: int | None
    view: dict[str, Any]
    legal: list[str]
    clock: ClockOut
    takeback: dict[str, int] | None = None
    # The takebacks accepted at the table so far: sent back with an action, with ``version``.
    takebacks: int = 0
    # A bot waits for this player's ``ready`` before it starts the next round; until when it
    # waits for anyone's (also in a spectator's view).
    bot_waits: bool = False
    bot_waits_until: str | None = None


class ChatLineOut(BaseModel):
    """One line of chat."""

    name: str
    seat: int | None
    text: str
    at: str


class ChatOutMessage(BaseModel):
    """Server → client: lines of chat (new ones, or the recent ones on connecting)."""

    type: Literal["chat"] = "chat"
    lines: list[ChatLineOut]
    # The recent lines sent on connecting (said before, some perhaps seen on an earlier
    # connection), told apart from a line said now: a page counts unread lines by this mark, as
    # one line said just after connecting looks like one recent line otherwise.
    recent: bool = False


class ErrorMessage(BaseModel):
    """Server → client: a refused message, and why."""

    type: Literal["error"] = "error"
    code: str
    message: str
    version: int | None = None
    # The message's fields (a cell, a seat…): the words are one rendering of code and params.
    params: dict[str, Any] = Field(default_factory=dict)


class PongMessage(BaseModel):
    """Server → client: answer to ``ping``."""

    type: Literal["pong"] = "pong"
