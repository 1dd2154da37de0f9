"""Accounts and sessions: sign up / sign in with a name and password, or play as a guest.

Passwords are kept as argon2 hashes (argon2-cffi); hashing runs in a worker thread so that a
sign-in never stalls the tables. A sign-in with an unknown name checks the password against a
dummy hash, so that it takes as long as one with a known name and the timing tells nothing.

A session is a row of ``auth_sessions`` (the SHA-256 of a random token, the user, its expiry);
the cookie holds the token, signed with a secret kept in the database (itsdangerous):
``HttpOnly``, ``SameSite=Lax``, and ``Secure`` whenever the page was served over HTTPS. Signing
out deletes the row, so the cookie is worthless from then on, wherever a copy of it is.

Wrong passwords, sign-ups and guests are throttled per name and per address
(:mod:`otherside.server.accounts.limits`, :mod:`otherside.server.accounts.signin`): HTTP 429
with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import re
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Annotated, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Depends, Request, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer
from pydantic import BaseModel, Field
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from otherside.i18n import N_
from otherside.server.accounts.addresses import client_key
from otherside.server.accounts.session_cache import SessionCache
from otherside.server.clock import Clock, as_utc
from otherside.server.http.errors import Told
from otherside.server.live.nudges import session_credential
from otherside.server.store.batched import BatchedRead
from otherside.server.store.db import Database
from otherside.server.store.models import AuthSession, User

COOKIE = "otherside_session"
SESSION_DAYS = 30
NAME_PATTERN = re.compile(r"^[A-Za-z0-9_\-]{2,24}$")
PASSWORD_MIN = 6


@dataclass(frozen=True)
class UserInfo:
    """Who is signed in (what the request handlers and the tables need)."""

    id: int
    name: str
    is_guest: bool
    # A program plays this account (it declared itself a bot).
    is_bot: bool = False


def user_info(user: User) -> UserInfo:
    return UserInfo(user.id, user.name, user.is_guest, bool(user.is_bot))


class Credentials(BaseModel):
    """Body of sign-up and sign-in."""

    name: str = Field(max_length=64)
    password: str = Field(max_length=256)


def _lowest_priority() -> None:
    """Run this thread at the lowest CPU priority (Linux schedules threads one by one; where
    that is not allowed, it runs as it is)."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)


# argon2id as OWASP's Password Storage Cheat Sheet sets it (19 MiB, 2 passes, one lane): one
# lane, so that hashing a password holds one core, not all of them.
def password_hasher() -> PasswordHasher:
    """The server's password hasher (see above)."""
    return PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)


# Passwords are hashed in one thread of the process (made at its first password) at the lowest
# CPU priority: the event loops (this process's and the others') always run first, so a password
# check waits, not a move.
HASHER_THREAD = ThreadPoolExecutor(
    max_workers=1, thread_name_prefix="otherside-hash", initializer=_lowest_priority
)


class Sessions:
    """Signs and reads session cookies; hashes and checks passwords."""

    def __init__(
        self, secret: str, db: Database, clock: Clock, hasher: PasswordHasher | None = None
    ) -> None:
        self.serializer = URLSafeTimedSerializer(secret, salt="otherside-session")
        self.hasher = hasher or password_hasher()
        # Checked for unknown names, so that they cost the same time as known ones.
        self.dummy_hash = self.hasher.hash(secrets.token_urlsafe(16))
        # One password hashed at a time in this process: a flood of sign-ins, each allowed by
        # the limits, queues here instead of taking every core from the tables.
        self._hashing = asyncio.Semaphore(1)
        self.cache = SessionCache()
        # Sessions read from the database by token, many in one transaction when many are
        # asked at once (a process died and its players all come here: store.batched).
        self.reads: BatchedRead[str, tuple[UserInfo, datetime]] = BatchedRead(
            db, lambda session, tokens: session_users(session, tokens, clock.now())
        )

    async def hashed(self, password: str) -> str:
        """The digest of a new password (off the event loop, one at a time)."""
        async with self._hashing:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(HASHER_THREAD, self.hasher.hash, password)

    async def check(self, digest: str | None, password: str) -> bool:
        """:meth:`verify` off the event loop, one at a time."""
        async with self._hashing:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(HASHER_THREAD, self.verify, digest, password)

    def token(self, cookie: str | None) -> str | None:
        """The session token in a cookie, or ``None`` if absent, forged or too old."""
        read = self.token_until(cookie)
        return read[0] if read is not None else None

    def token_until(self, cookie: str | None) -> tuple[str, datetime] | None:
        """The session token in a cookie and until when the cookie is valid, or ``None`` if
        absent, forged or too old."""
        if not cookie:
            return None
        try:
            data, signed = self.serializer.loads(
                cookie, max_age=SESSION_DAYS * 86400, return_timestamp=True
            )
        except BadSignature:
            return None
        token = data.get("sid") if isinstance(data, dict) else None
        if not isinstance(token, str):
            return None
        return token, signed + timedelta(days=SESSION_DAYS)

    def set_cookie(self, response: Response, request: Request, token: str) -> None:
        """Attach the session cookie of ``token`` to ``response``."""
        response.set_cookie(
            COOKIE,
            self.serializer.dumps({"sid": token}),
            max_age=SESSION_DAYS * 86400,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
            path="/",
        )

    def verify(self, digest: str | None, password: str) -> bool:
        """Whether ``password`` matches ``digest`` (blocking; as slow without a digest)."""
        try:
            self.hasher.verify(digest or self.dummy_hash, password)
        except (VerificationError, InvalidHashError):
            return False
        return digest is not None


def session_digest(token: str) -> str:
    """What the database keeps of a session token (and what a sign-out is announced by)."""
    return hashlib.sha256(token.encode()).hexdigest()


def open_session(session: Session, user_id: int, now: datetime) -> str:
    """A new session of ``user_id``; its token (only its hash is stored)."""
    token = secrets.token_urlsafe(32)
    session.add(
        AuthSession(
            token_hash=session_digest(token),
            user_id=user_id,
            created_at=now,
            expires_at=now + timedelta(days=SESSION_DAYS),
        )
    )
    return token


def session_user(session: Session, token: str, now: datetime) -> UserInfo | None:
    """The user of a live session, or ``None`` (unknown, signed out or expired)."""
    found = session_user_until(session, token, now)
    return found[0] if found is not None else None


def session_user_until(
    session: Session, token: str, now: datetime
) -> tuple[UserInfo, datetime] | None:
    """The user of a live session and when the session expires, or ``None`` (unknown, signed
    out or expired)."""
    return session_users(session, [token], now).get(token)


def session_users(
    session: Session, tokens: list[str], now: datetime
) -> dict[str, tuple[UserInfo, datetime]]:
    """:func:`session_user_until` of many sessions in two statements, by token (those unknown,
    signed out or expired left out; the expired deleted)."""
    digests = {session_digest(token): token for token in tokens}
    rows = session.execute(
        select(AuthSession.token_hash, AuthSession.expires_at, User)
        .join(User, User.id == AuthSession.user_id)
        .where(AuthSession.token_hash.in_(list(digests)))
    ).all()
    found: dict[str, tuple[UserInfo, datetime]] = {}
    expired = []
    for digest, expires_at, user in rows:
        expires = as_utc(expires_at)
        if expires <= now:
            expired.append(digest)
        else:
            found[digests[digest]] = (user_info(user), expires)
    if expired:
        session.execute(delete(AuthSession).where(AuthSession.token_hash.in_(expired)))
    return found


def close_session(session: Session, token: str) -> None:
    """End a session: its cookie no longer signs anyone in."""
    session.execute(delete(AuthSession).where(AuthSession.token_hash == session_digest(token)))


def client_address(request: Request) -> str:
    """Who a request counts as for the limits: its client's address, an IPv6 one by its /64
    (a trusted proxy's client: :mod:`~otherside.server.accounts.addresses`)."""
    return client_key(request)


def check_name(name: str) -> str:
    """A valid account name, or ``ValueError`` saying what is allowed.

    >>> check_name("Ada_L")
    'Ada_L'
    >>> check_name("a b")
    Traceback (most recent call last):
    ...
    ValueError: a name has 2 to 24 letters, digits, '_' or '-' (got 'a b')
    """
    if not NAME_PATTERN.match(name):
        raise ValueError(f"a name has 2 to 24 letters, digits, '_' or '-' (got {name!r})")
    return name


async def user_of_cookie(state: Any, cookie: str | None) -> UserInfo | None:
    """The user signed in by a session cookie (HTTP or websocket), or ``None``: from memory
    while the session is known here (:mod:`.session_cache`), else from the database."""
    if not cookie:
        return None
    sessions: Sessions = state.sessions
    now = state.clock.now()
    known = sessions.cache.get(cookie, now)
    if known is not None:
        return known
    read = sessions.token_until(cookie)
    if read is None:
        return None
    token, cookie_until = read
    found = await sessions.reads.get(token)
    if found is None:
        return None
    user, expires = found
    sessions.cache.put(cookie, session_digest(token), user, min(expires, cookie_until))
    return user


async def end_session(state: Any, token: str) -> None:
    """Sign the session ``token`` out: delete it, forget it and close its websockets here at
    once, and tell the other server processes to do the same (in the same transaction as the
    delete); answer once they all have (their receipts, :mod:`..cluster.receipts`), so that
    no socket of the session anywhere plays a move after the sign-out has answered."""
    digest = session_digest(token)
    cluster = state.hub.cluster
    ask = cluster.ask()

    def close(session: Session) -> None:
        close_session(session, token)
        cluster.announce(session, "", "signout", digest=digest, ask=ask)

    try:
        await state.db.run(close)
    finally:
        # Forgotten here even if the database failed: at worst it is read from there again.
        await forget_session(state, digest)
    await cluster.heard_by_all(ask)


async def forget_session(state: Any, digest: str) -> None:
    """Forget the session ``digest`` in this process (signed out, here or elsewhere): its
    cookie signs nobody in any more, and its websockets here are closed (4401)."""
    sessions: Sessions = state.sessions
    sessions.cache.evict(digest)
    await state.admission.sign_out(digest)
    # Its event streams here check their session (read again, now forgotten) and end.
    state.nudges.ended(session_credential(digest))


# Where the app's bearer gate (:mod:`otherside.server.http.tokens`) leaves the user of a
# request's API token, read before any route's own dependencies.
BEARER_SCOPE_KEY = "otherside.bearer"


async def current_user(request: Request) -> UserInfo | None:
    """Dependency: the signed-in user (by an API token, else by the cookie), or ``None``."""
    bearer = request.scope.get(BEARER_SCOPE_KEY)
    if bearer is not None:
        # A request with a token is the token's alone: a cookie beside it signs nobody in.
        user: UserInfo = bearer.user
        return user
    return await user_of_cookie(request.app.state, request.cookies.get(COOKIE))


async def require_user(user: Annotated[UserInfo | None, Depends(current_user)]) -> UserInfo:
    """Dependency: the signed-in user; 401 if nobody is signed in."""
    if user is None:
        raise Told(401, "signed_out", N_("sign in or play as a guest first"))
    return user
