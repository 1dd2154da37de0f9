"""Personal API tokens: how a program (a bot, a script) signs in to an account without a cookie.

Shaped like lichess's personal access tokens: a signed-in person makes one with a label and
scopes, sees it once, and sends it as ``Authorization: Bearer <token>``; the server keeps only
its SHA-256 (as it does for sessions, :mod:`.sessions`), lists each token with when it was last
used, and revokes one by deleting its row.

Tokens are not cached: every request that carries one reads its row (one primary-key look-up,
in the same transaction that counts the request against the token's limit), so a revoked token
is refused at once by every server process on the database, with no notification to miss.

Scopes (:data:`SCOPES`): ``read`` lets a token read (``GET``), ``play`` lets it sit at tables,
act, follow its events, enter and leave tournaments and declare its account a bot,
``account`` lets it change the account's settings. Tokens never manage tokens: that needs a
signed-in person.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from otherside.i18n import N_
from otherside.server.accounts.limiter import Quota, claim
from otherside.server.accounts.sessions import UserInfo, user_info
from otherside.server.clock import as_utc
from otherside.server.store.models import ApiToken, User
from otherside.server.store.queries import lock_account

PREFIX = "ots_"
SCOPES = ("read", "play", "account")
LABEL_CHARS = 60
MOST_TOKENS = 20  # per account
# How stale a token's "last used" may be: it is written at most this often, not on every call.
LAST_USED_EVERY = timedelta(minutes=1)

# What each refusal of a token says (the catalogs' messages), by its stable code.
TOKEN_WORDS = {
    "bad_token": N_("the API token is unknown or revoked"),
    "missing_scope": N_("this API token lacks the scope '{scope}'"),
    "token_not_allowed": N_("API tokens are managed by a signed-in person, not with a token"),
    "bad_scopes": N_("scopes are some of {known}, at least one, each once (got {got})"),
    "bad_label": N_("a token's label has 1 to {most} characters"),
    "too_many_tokens": N_("an account has at most {most} API tokens: revoke one first"),
    "no_token": N_("no API token {id} on this account"),
}


@dataclass(frozen=True)
class TokenUser:
    """Who a bearer token signs in, and what it may do."""

    user: UserInfo
    token_id: int
    scopes: frozenset[str]


@dataclass(frozen=True)
class TokenRow:
    """A token as its owner sees it listed (never the token itself)."""

    id: int
    label: str
    scopes: list[str]
    created_at: datetime
    last_used_at: datetime | None


def token_digest(token: str) -> str:
    """What the database keeps of a token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def bearer_token(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer …`` header (``None``: no such header; ``""``:
    a bearer header without a token).

    >>> bearer_token("Bearer ots_abc"), bearer_token("bearer  x "), bearer_token("Basic x")
    ('ots_abc', 'x', None)
    """
    if not header:
        return None
    kind, _, token = header.strip().partition(" ")
    if kind.lower() != "bearer":
        return None
    return token.strip()


def check_scopes(scopes: list[str]) -> list[str]:
    """Valid scopes in the canonical order, or ``ValueError`` naming them.

    >>> check_scopes(["read", "play"])
    ['read', 'play']
    >>> check_scopes(["fly"])
    Traceback (most recent call last):
    ...
    ValueError: bad_scopes
    """
    if not scopes or len(set(scopes)) != len(scopes) or not set(scopes) <= set(SCOPES):
        raise ValueError("bad_scopes")
    return [scope for scope in SCOPES if scope in scopes]


def needed_scope(method: str, path: str) -> str | None:
    """The scope a token needs for a request (``None``: no token may make it).

    >>> needed_scope("GET", "/api/tables"), needed_scope("POST", "/api/tables/x/act")
    ('read', 'play')
    >>> needed_scope("GET", "/api/stream/events"), needed_scope("DELETE", "/api/tokens/3")
    ('play', None)
    >>> needed_scope("POST", "/api/account/email")
    'account'
    >>> needed_scope("POST", "/api/tournaments/x/join")
    'play'
    """
    if path == "/api/tokens" or path.startswith("/api/tokens/"):
        return None
    if path.startswith(("/api/stream/", "/ws/")):
        return "play"
    if method in ("GET", "HEAD", "OPTIONS"):
        return "read"
    if path.startswith("/api/tables") or path == "/api/account/bot":
        return "play"
    if path.startswith("/api/tournaments/") and path.endswith(("/join", "/leave")):
        return "play"  # a bot account enters events as it sits down at tables
    return "account"


def create_token(
    session: Session, user_id: int, label: str, scopes: list[str], now: datetime
) -> tuple[int, str] | None:
    """A new token of ``user_id``: its id and the token (shown once; only its hash is kept);
    ``None`` if the account has :data:`MOST_TOKENS` already. The account's row is locked
    first: requests made at once count one after the other (else each counted the same tokens
    and all of them were made, past the limit)."""
    lock_account(session, user_id)
    held = session.scalar(select(func.count()).where(ApiToken.user_id == user_id)) or 0
    if held >= MOST_TOKENS:
        return None
    token = PREFIX + secrets.token_urlsafe(32)
    row = ApiToken(
        token_hash=token_digest(token),
        user_id=user_id,
        label=label,
        scopes=" ".join(scopes),
        created_at=now,
    )
    session.add(row)
    session.flush()
    return row.id, token


def list_tokens(session: Session, user_id: int) -> list[TokenRow]:
    """The tokens of ``user_id``, oldest first."""
    rows = session.scalars(
        select(ApiToken).where(ApiToken.user_id == user_id).order_by(ApiToken.id)
    )
    return [
        TokenRow(
            row.id, row.label, row.scopes.split(), as_utc(row.created_at), _maybe(row.last_used_at)
        )
        for row in rows
    ]


def revoke_token(session: Session, user_id: int, token_id: int) -> bool:
    """Delete token ``token_id`` of ``user_id``: whether there was one."""
    done = session.execute(
        delete(ApiToken).where(ApiToken.id == token_id, ApiToken.user_id == user_id)
    )
    return bool(getattr(done, "rowcount", 0))


def token_user(
    session: Session, token: str, now: datetime, quota: Quota | None = None
) -> TokenUser | None:
    """Who ``token`` signs in (``None``: unknown or revoked); with ``quota``, the request is
    counted against the token's limit in the same transaction (``TooMany`` past it). Its last
    use is written at most every :data:`LAST_USED_EVERY`."""
    row = session.scalar(select(ApiToken).where(ApiToken.token_hash == token_digest(token)))
    if row is None:
        return None
    user = session.get(User, row.user_id)
    if user is None:
        return None
    if quota is not None:
        claim(session, quota, str(row.id), now.timestamp())
    last = _maybe(row.last_used_at)
    if last is None or now - last >= LAST_USED_EVERY:
        row.last_used_at = now
    return TokenUser(user_info(user), row.id, frozenset(row.scopes.split()))


def _maybe(moment: datetime | None) -> datetime | None:
    return None if moment is None else as_utc(moment)
