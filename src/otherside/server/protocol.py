"""The websocket protocol of a table, as Pydantic schemas.

A browser opens ``/ws/tables/{id}`` (its session cookie says who it is) and at once receives a
``table`` message (seats, status) and a ``view`` message. It may then send:

- ``{"type": "action", "version": 17, "action": "flip"}``: play ``action`` (the game's notation)
  at state version 17 (the number of actions applied so far, as in the last ``view``);
- ``{"type": "sync"}``: send me the table and my view again;
- ``{"type": "ping"}``: answered by ``{"type": "pong"}``.

The server sends ``table``, ``view`` (``view`` is exactly ``Game.view(state, seat)``: a seat gets
its own, a spectator the public one; ``legal`` lists the actions of the seat to move, for that
seat only) and ``error`` (``code`` from :data:`ERROR_CODES`, ``message`` in words). A refused
message changes nothing.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

MAX_MESSAGE_CHARS = 4096

ERROR_CODES = {
    "malformed": "the message is not a JSON object of a known shape",
    "unknown_type": "the message type is not one the server knows",
    "not_seated": "only a player seated at this table may act",
    "not_started": "the game has not started",
    "game_over": "the game is over",
    "not_your_turn": "it is another player's turn",
    "stale": "the action was chosen on an older state; here is the current one",
    "illegal": "the action is malformed or not legal now",
    "server_error": "the server could not save the action; nothing changed, try again",
}


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ActionMessage(_Message):
    """Play an action at the state version the client saw."""

    type: Literal["action"]
    version: int = Field(ge=0)
    action: str = Field(min_length=1, max_length=200)


class SyncMessage(_Message):
    """Ask for the table and the current view again."""

    type: Literal["sync"]


class PingMessage(_Message):
    """Keep-alive."""

    type: Literal["ping"]


ClientMessage = Annotated[ActionMessage | SyncMessage | PingMessage, Field(discriminator="type")]
CLIENT_TYPES = ("action", "sync", "ping")
_CLIENT = TypeAdapter(ClientMessage)


class ProtocolError(ValueError):
    """A message refused before it reached the table: ``code`` and words."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


def parse_client_message(text: str) -> ActionMessage | SyncMessage | PingMessage:
    """Parse one client message; :class:`ProtocolError` saying what is wrong.

    >>> parse_client_message('{"type": "action", "version": 3, "action": "flip"}').action
    'flip'
    >>> parse_client_message('{"type": "dance"}')
    Traceback (most recent call last):
    ...
    otherside.server.protocol.ProtocolError: unknown message type 'dance'; known: action, sync, ping
    """
    if len(text) > MAX_MESSAGE_CHARS:
        raise ProtocolError("malformed", f"message longer than {MAX_MESSAGE_CHARS} characters")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProtocolError("malformed", f"not JSON: {exc.msg} at column {exc.colno}") from exc
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message must be a JSON object with a 'type'")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            "unknown_type", f"unknown message type {kind!r}; known: {', '.join(CLIENT_TYPES)}"
        )
    try:
        return _CLIENT.validate_python(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'][1:]) or 'message'}: {err['msg']}"
            for err in exc.errors()
        )
        raise ProtocolError("malformed", f"bad {kind!r} message: {problems}") from exc


class SeatOut(BaseModel):
    """A seat as the browser sees it."""

    seat: int
    kind: Literal["empty", "human", "bot"]
    name: str | None
    user_id: int | None = None
    bot: str | None = None


class TableOut(BaseModel):
    """A table's public summary (lobby lists and the ``table`` message)."""

    id: str
    game: str
    title: str
    players: int
    options: dict[str, Any]
    status: Literal["waiting", "playing", "over"]
    owner: str
    owner_id: int
    seats: list[SeatOut]
    version: int
    outcome: dict[str, Any] | None
    created_at: str


class TableMessage(BaseModel):
    """Server → client: the table changed (seats, status)."""

    type: Literal["table"] = "table"
    table: TableOut
    you: int | None = None


class ViewMessage(BaseModel):
    """Server → client: the game as this connection may see it."""

    type: Literal["view"] = "view"
    table: str
    version: int
    seat: int | None
    view: dict[str, Any]
    legal: list[str]


class ErrorMessage(BaseModel):
    """Server → client: a refused message, and why."""

    type: Literal["error"] = "error"
    code: str
    message: str
    version: int | None = None


class PongMessage(BaseModel):
    """Server → client: answer to ``ping``."""

    type: Literal["pong"] = "pong"
