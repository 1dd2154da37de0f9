"""Who a session cookie signs in, kept in memory: no database read and no signature check on
every request and every websocket.

An entry is the cookie's user until the earlier of the session's expiry and the cookie's own
age limit; after that the cookie is read from the database again. Signing out removes the
session's entries at once (:meth:`SessionCache.evict`, by the session token's digest), here and,
announced through the cluster's notifications, in every other server process on the database;
a process that lost its notification connection forgets every entry (:meth:`clear`), since it
may have missed a sign-out meanwhile.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from otherside.server.accounts.sessions import UserInfo

MOST_ENTRIES = 50_000


@dataclass(frozen=True)
class _Entry:
    user: UserInfo
    digest: str
    until: datetime


class SessionCache:
    """Cookie → user, with expiry and eviction by session (see the module docstring)."""

    def __init__(self, most: int = MOST_ENTRIES) -> None:
        self.most = most
        self._entries: dict[str, _Entry] = {}
        self._cookies: dict[str, set[str]] = {}  # session digest -> its cookies seen here

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, cookie: str, now: datetime) -> UserInfo | None:
        """The user ``cookie`` signs in, if known here and not expired (else ``None``)."""
        entry = self._entries.get(cookie)
        if entry is None:
            return None
        if entry.until <= now:
            self._drop(cookie)
            return None
        return entry.user

    def put(self, cookie: str, digest: str, user: UserInfo, until: datetime) -> None:
        """Remember that ``cookie`` (of the session ``digest``) signs ``user`` in until
        ``until``."""
        if cookie not in self._entries and len(self._entries) >= self.most:
            # The oldest entry goes: it is read from the database again if it comes back.
            self._drop(next(iter(self._entries)))
        self._entries[cookie] = _Entry(user, digest, until)
        self._cookies.setdefault(digest, set()).add(cookie)

    def evict(self, digest: str) -> None:
        """Forget the session ``digest`` (signed out): its cookies sign nobody in from now on."""
        for cookie in self._cookies.pop(digest, set()):
            self._entries.pop(cookie, None)

    def clear(self) -> None:
        """Forget every session."""
        self._entries.clear()
        self._cookies.clear()

    def _drop(self, cookie: str) -> None:
        entry = self._entries.pop(cookie, None)
        if entry is None:
            return
        cookies = self._cookies.get(entry.digest)
        if cookies is not None:
            cookies.discard(cookie)
            if not cookies:
                del self._cookies[entry.digest]
