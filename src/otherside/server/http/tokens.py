"""Personal API tokens over HTTP: ``POST /api/tokens`` (made once, shown once), ``GET
/api/tokens`` (listed with their last use), ``DELETE /api/tokens/{id}`` (revoked at once); and
the gate (:func:`bearer_gate`, a dependency of every route) that signs a request with
``Authorization: Bearer <token>`` in as the token's account, checks the scope the route needs
and counts the request against the token's own limit (:mod:`otherside.server.accounts.tokens`).

A wrong or revoked token is refused with 401 ``bad_token`` and changes nothing (and counts
against its address: past the limit, 429); a token without the route's scope, with 403
``missing_scope``. A request with a token is the token's alone: a cookie beside it is ignored.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection

from otherside.i18n import N_
from otherside.server.accounts.addresses import client_key
from otherside.server.accounts.limits import Throttles
from otherside.server.accounts.sessions import (
    BEARER_SCOPE_KEY,
    UserInfo,
    current_user,
)
from otherside.server.accounts.tokens import (
    LABEL_CHARS,
    MOST_TOKENS,
    SCOPES,
    TOKEN_WORDS,
    TokenRow,
    TokenUser,
    bearer_token,
    check_scopes,
    create_token,
    list_tokens,
    needed_scope,
    revoke_token,
    token_user,
)
from otherside.server.cluster.seated import TOKEN_REVOKED
from otherside.server.http.deps import ClockDep, DatabaseDep, HubDep
from otherside.server.http.errors import Told
from otherside.server.live.nudges import token_credential

router = APIRouter(prefix="/api")
ROW_ID_MOST = 2**63 - 1  # the largest id a row may have (a 64-bit integer in every database)


def refusal(status: int, code: str, **params: Any) -> Told:
    """A token's refusal (:data:`TOKEN_WORDS`)."""
    return Told(status, code, TOKEN_WORDS[code], **params)


async def resolve_bearer(state: Any, token: str, address: str) -> TokenUser:
    """The account ``token`` signs in, the request counted against the token's limit; 401
    ``bad_token`` (counted against ``address``, 429 past its limit) if it signs in nobody."""
    throttles: Throttles = state.throttles
    now = state.clock.now()
    found = None
    if token:
        found = await state.db.run(lambda s: token_user(s, token, now, throttles.token_requests))
    if found is None:
        await throttles.limiter.reserve(throttles.token_failures, address)
        raise refusal(401, "bad_token")
    return found


async def token_still_valid(state: Any, token: str) -> bool:
    """Whether ``token`` still signs someone in (a websocket asks before each message)."""
    now = state.clock.now()
    return await state.db.run(lambda s: token_user(s, token, now)) is not None


def require_scope(found: TokenUser, scope: str | None) -> None:
    """403 unless ``found``'s token has ``scope`` (``None``: no token may)."""
    if scope is None:
        raise refusal(403, "token_not_allowed")
    if scope not in found.scopes:
        raise refusal(403, "missing_scope", scope=scope)


async def bearer_gate(conn: HTTPConnection) -> None:
    """Dependency of every route: sign a request with a bearer token in (see the module)."""
    if conn.scope["type"] != "http":
        return  # the table websocket reads its token itself (:mod:`..live.sockets`)
    token = bearer_token(conn.headers.get("authorization"))
    if token is None or BEARER_SCOPE_KEY in conn.scope:
        return
    found = await resolve_bearer(conn.app.state, token, client_key(conn))
    require_scope(found, needed_scope(conn.scope["method"], conn.url.path))
    conn.scope[BEARER_SCOPE_KEY] = found


class NewToken(BaseModel):
    """Body of ``POST /api/tokens``: a label to know it by, and its scopes."""

    label: str = Field(max_length=200)
    scopes: list[str] = Field(max_length=len(SCOPES) + 1)


class TokenOut(BaseModel):
    """A token as listed (never the token itself)."""

    id: int
    label: str
    scopes: list[str]
    created_at: str
    last_used_at: str | None


class MadeToken(TokenOut):
    """A new token: the token itself, shown this once."""

    token: str


def _out(row: TokenRow) -> TokenOut:
    return TokenOut(
        id=row.id,
        label=row.label,
        scopes=row.scopes,
        created_at=row.created_at.isoformat(),
        last_used_at=row.last_used_at.isoformat() if row.last_used_at else None,
    )


async def signed_in_person(
    request: Request, user: Annotated[UserInfo | None, Depends(current_user)]
) -> UserInfo:
    """Dependency: a person signed in with a cookie (not a guest); tokens manage no tokens."""
    if BEARER_SCOPE_KEY in request.scope:
        raise refusal(403, "token_not_allowed")
    if user is None or user.is_guest:
        raise Told(401, "signed_out", N_("sign in to an account first"))
    return user


Person = Annotated[UserInfo, Depends(signed_in_person)]


@router.post("/tokens", status_code=201)
async def make(body: NewToken, db: DatabaseDep, clock: ClockDep, user: Person) -> MadeToken:
    """A new token of mine with ``label`` and ``scopes`` (``read``, ``play``, ``account``):
    the answer holds the token, which is never shown again."""
    label = body.label.strip()
    if not 1 <= len(label) <= LABEL_CHARS:
        raise refusal(422, "bad_label", most=LABEL_CHARS)
    try:
        scopes = check_scopes(body.scopes)
    except ValueError:
        raise refusal(
            422, "bad_scopes", known=", ".join(SCOPES), got=", ".join(body.scopes)
        ) from None
    now: datetime = clock.now()
    made = await db.run(lambda s: create_token(s, user.id, label, scopes, now))
    if made is None:
        raise refusal(409, "too_many_tokens", most=MOST_TOKENS)
    token_id, token = made
    return MadeToken(
        id=token_id,
        label=label,
        scopes=scopes,
        created_at=now.isoformat(),
        last_used_at=None,
        token=token,
    )


@router.get("/tokens")
async def listed(db: DatabaseDep, user: Person) -> list[TokenOut]:
    """My tokens, oldest first, each with when it was made and last used."""
    rows = await db.run(lambda s: list_tokens(s, user.id))
    return [_out(row) for row in rows]


class Revoked(BaseModel):
    """The answer to a revocation."""

    revoked: int


@router.delete("/tokens/{token_id}")
async def revoke(
    token_id: int, request: Request, db: DatabaseDep, hub: HubDep, user: Person
) -> Revoked:
    """Revoke my token ``token_id``: from this answer on it signs nobody in, in every server
    process (tokens are read from the database on every request), and the event streams
    opened with it end (told here at once, and the other processes in the same transaction)."""
    if not 0 < token_id <= ROW_ID_MOST:
        # No token has that id; the database would fail on a number it cannot hold (500).
        raise refusal(404, "no_token", id=token_id)
    cluster = hub.cluster

    def delete(session: Session) -> bool:
        done = revoke_token(session, user.id, token_id)
        if done:
            cluster.announce(session, "", TOKEN_REVOKED, token=token_id)
        return done

    if not await db.run(delete):
        raise refusal(404, "no_token", id=token_id)
    request.app.state.nudges.ended(token_credential(token_id))
    return Revoked(revoked=token_id)
