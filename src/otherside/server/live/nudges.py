"""Waking the event streams of this process (:mod:`otherside.server.http.feed`) when, and only
when, something concerns them: an idle stream reads nothing.

A stream follows the tables where its account is seated by watching them, as a browser does
(the tables' own messages, pushed by their actors and, from other server processes, by the
cluster's notifications). What it cannot see from there is told to it here:

- the account took a seat at another table (:meth:`Nudges.seated`; from another process, the
  announcement :data:`~otherside.server.cluster.seated.SEATED`): the stream reads the account's
  tables once and watches the new one;
- the credential the stream was opened with ended — its API token revoked, its session signed
  out (:meth:`Nudges.ended`; from another process,
  :data:`~otherside.server.cluster.seated.TOKEN_REVOKED` or the sign-out's own announcement):
  the stream checks it once and ends;
- this process may have missed announcements (its notification connection came back,
  ``resync``): every stream checks and looks once (:meth:`Nudges.everyone`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any, Protocol, TypeVar

from otherside.server.cluster.seated import SEATED, TOKEN_REVOKED

K = TypeVar("K")
LOOK = "look"  # read the account's tables again
CHECK = "check"  # check the stream's credential again


def token_credential(token_id: int) -> str:
    """The credential of a stream opened with API token ``token_id``."""
    return f"token:{token_id}"


def session_credential(digest: str) -> str:
    """The credential of a stream opened with the session whose digest is ``digest``."""
    return f"session:{digest}"


class Nudged(Protocol):
    """An open stream, as :class:`Nudges` knows it."""

    user_id: int
    credential: str

    def nudge(self, why: str) -> None:
        """Something concerns the stream (:data:`LOOK` or :data:`CHECK`); it must not block."""


class Nudges:
    """The open streams of this process, by account and by credential (see the module)."""

    def __init__(self) -> None:
        self._by_user: dict[int, set[Nudged]] = defaultdict(set)
        self._by_credential: dict[str, set[Nudged]] = defaultdict(set)

    def add(self, stream: Nudged) -> None:
        """Wake ``stream`` from now on when something concerns it."""
        self._by_user[stream.user_id].add(stream)
        self._by_credential[stream.credential].add(stream)

    def discard(self, stream: Nudged) -> None:
        """``stream`` ended."""
        _drop(self._by_user, stream.user_id, stream)
        _drop(self._by_credential, stream.credential, stream)

    def open_count(self) -> int:
        """How many streams are open here."""
        return sum(len(streams) for streams in self._by_user.values())

    def seated(self, user_ids: Iterable[int]) -> None:
        """The accounts ``user_ids`` took seats somewhere: their streams look."""
        for user_id in set(user_ids):
            for stream in list(self._by_user.get(user_id, ())):
                stream.nudge(LOOK)

    def ended(self, credential: str) -> None:
        """``credential`` may sign nobody in any more: its streams check it."""
        for stream in list(self._by_credential.get(credential, ())):
            stream.nudge(CHECK)

    def everyone(self) -> None:
        """Announcements may have been missed: every stream checks and looks."""
        for streams in list(self._by_user.values()):
            for stream in list(streams):
                stream.nudge(CHECK)
                stream.nudge(LOOK)

    def hear(self, message: dict[str, Any]) -> None:
        """Another server process's announcement (those about tables are not ours)."""
        kind = message.get("kind")
        if kind == SEATED:
            self.seated(int(u) for u in message.get("users") or ())
        elif kind == TOKEN_REVOKED:
            self.ended(token_credential(int(message.get("token") or 0)))
        elif kind == "resync":
            self.everyone()


def _drop(streams: dict[K, set[Nudged]], key: K, stream: Nudged) -> None:
    found = streams.get(key)
    if found is not None:
        found.discard(stream)
        if not found:
            del streams[key]
