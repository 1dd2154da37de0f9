"""Routes of accounts: sign up, sign in, guests, sign out, who am I (the e-mail address and its
confirmation: :mod:`.email`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from sqlalchemy import select
from sqlalchemy.orm import Session

from otherside.i18n import N_
from otherside.server.accounts.email_links import Address, address_of
from otherside.server.accounts.guest_names import guest_names, is_guest_form
from otherside.server.accounts.sessions import (
    BEARER_SCOPE_KEY,
    COOKIE,
    PASSWORD_MIN,
    Credentials,
    UserInfo,
    check_name,
    client_address,
    current_user,
    end_session,
    open_session,
    user_info,
)
from otherside.server.http.deps import (
    ClockDep,
    DatabaseDep,
    SessionsDep,
    SignInDep,
    ThrottlesDep,
)
from otherside.server.http.errors import Told
from otherside.server.http.reader import remember_language
from otherside.server.http.schemas import Done, MeOut, MeUser, UserOut
from otherside.server.store.models import User

router = APIRouter(prefix="/api")


def _user_out(user: UserInfo) -> UserOut:
    return UserOut(id=user.id, name=user.name, guest=user.is_guest)


@router.post("/signup")
async def sign_up(
    body: Credentials,
    request: Request,
    response: Response,
    db: DatabaseDep,
    sessions: SessionsDep,
    throttles: ThrottlesDep,
    signin: SignInDep,
    clock: ClockDep,
) -> UserOut:
    """Create an account and sign in."""
    try:
        name = check_name(body.name.strip())
    except ValueError as exc:
        raise Told(
            422,
            "bad_name",
            N_("a name has 2 to 24 letters, digits, '_' or '-' (not '{name}')"),
            name=body.name.strip(),
        ) from exc
    if is_guest_form(name):
        raise Told(
            422,
            "guest_name",
            N_("names like '{name}' are kept for guests; choose another"),
            name=name,
        )
    if len(body.password) < PASSWORD_MIN:
        raise Told(
            422,
            "short_password",
            N_("a password has at least {least} characters"),
            least=PASSWORD_MIN,
        )
    # Reserved before the hash: a sign-up that costs a hash counts, even for a taken name.
    await throttles.limiter.reserve(throttles.signups, client_address(request))
    digest = await sessions.hashed(body.password)
    now = clock.now()

    def create(session: Session) -> tuple[UserInfo, str] | None:
        if session.scalar(select(User.id).where(User.name_key == name.lower())) is not None:
            return None
        user = User(name=name, name_key=name.lower(), password_hash=digest, is_guest=False)
        session.add(user)
        session.flush()
        return user_info(user), open_session(session, user.id, now)

    made = await db.run(create)
    if made is None:
        raise Told(
            409,
            "name_taken",
            N_("the name '{name}' is taken; choose another or sign in"),
            name=name,
        )
    user, token = made
    sessions.set_cookie(response, request, token)
    signin.remember(request, response, name.lower())
    return _user_out(user)


@router.post("/signin")
async def sign_in(
    body: Credentials,
    request: Request,
    response: Response,
    db: DatabaseDep,
    sessions: SessionsDep,
    guard: SignInDep,
    clock: ClockDep,
) -> UserOut:
    """Sign in with a name and password."""
    key = body.name.strip().lower()
    address = client_address(request)
    # Reserved before the password is checked: a refused attempt is never checked.
    slots = await guard.reserve(key, address, known=key in guard.known_names(request))

    def load(session: Session) -> tuple[UserInfo, str | None, str | None] | None:
        user = session.scalar(select(User).where(User.name_key == key))
        return (user_info(user), user.password_hash, user.language) if user else None

    found = await db.run(load)
    digest = found[1] if found is not None else None
    # Always one argon2 check, known name or not: equal time tells an attacker nothing.
    matches = await sessions.check(digest, body.password)
    if found is None or not matches:
        raise Told(401, "wrong_password", N_("wrong name or password"))
    await guard.succeeded(slots, key, address)
    user = found[0]
    now = clock.now()
    token = await db.run(lambda s: open_session(s, user.id, now))
    sessions.set_cookie(response, request, token)
    guard.remember(request, response, key)
    remember_language(request, response, found[2])  # the pages follow the account's choice
    return _user_out(user)


@router.post("/guest")
async def play_as_guest(
    request: Request,
    response: Response,
    db: DatabaseDep,
    sessions: SessionsDep,
    throttles: ThrottlesDep,
    clock: ClockDep,
) -> UserOut:
    """Create a guest account with a generated name and sign in."""
    slot = await throttles.limiter.reserve(throttles.guests, client_address(request))
    now = clock.now()

    def create(session: Session) -> tuple[UserInfo, str] | None:
        # A bounded number of draws, longer numbers after taken ones (accounts.guest_names).
        for name in guest_names():
            if session.scalar(select(User.id).where(User.name_key == name.lower())) is None:
                break
        else:
            return None
        user = User(name=name, name_key=name.lower(), password_hash=None, is_guest=True)
        session.add(user)
        session.flush()
        return user_info(user), open_session(session, user.id, now)

    try:
        made = await db.run(create)
    except Exception:
        await throttles.limiter.release(slot)
        raise
    if made is None:
        await throttles.limiter.release(slot)
        raise Told(503, "no_guest_name", N_("no guest name is free now; sign up instead"))
    user, token = made
    sessions.set_cookie(response, request, token)
    return _user_out(user)


@router.post("/signout")
async def sign_out(request: Request, response: Response, sessions: SessionsDep) -> Done:
    """End the session on the server and forget its cookie."""
    token = sessions.token(request.cookies.get(COOKIE))
    if token is not None:
        # The sign-out reaches every process through the state's services (cluster, cache).
        await end_session(request.app.state, token)  # its websockets close in every process
    response.delete_cookie(COOKIE, path="/")
    return Done()


@router.get("/me")
async def me(
    request: Request, db: DatabaseDep, user: Annotated[UserInfo | None, Depends(current_user)]
) -> MeOut:
    """The signed-in user (with their own e-mail address, if any, and whether it is confirmed),
    or ``{"user": null}``.

    The address is the account's own business: an API token shows it only with the scope
    ``account`` (a token to "see tables, games and players" is no key to it)."""
    if user is None:
        return MeOut(user=None)
    bearer = request.scope.get(BEARER_SCOPE_KEY)
    address = (
        await db.run(lambda s: address_of(s, user.id))
        if bearer is None or "account" in bearer.scopes
        else Address(None, False)
    )
    return MeOut(
        user=MeUser(
            id=user.id,
            name=user.name,
            guest=user.is_guest,
            email=address.email,
            email_confirmed=address.confirmed,
        )
    )
