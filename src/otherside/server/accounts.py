"""Accounts and sessions: sign up / sign in with a name and password, or play as a guest.

Passwords are kept as argon2 hashes (argon2-cffi); hashing runs in a worker thread so that a
sign-in never stalls the tables. A session is a cookie holding the user id, signed with a secret
kept in the database (itsdangerous): ``HttpOnly``, ``SameSite=Lax``, and ``Secure`` whenever the
page was served over HTTPS.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from dataclasses import dataclass
from typing import Annotated, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Depends, HTTPException, Request, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer
from pydantic import BaseModel, Field
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from otherside.server.models import User

COOKIE = "otherside_session"
SESSION_DAYS = 30
NAME_PATTERN = re.compile(r"^[A-Za-z0-9_\-]{2,24}$")
EMAIL_PATTERN = re.compile(r"^[^@\s]{1,64}@[^@\s]+\.[^@\s]{2,}$")
PASSWORD_MIN = 6
GUEST_WORDS = ("Heron", "Otter", "Lynx", "Puffin", "Marten", "Ibis", "Gecko", "Wren", "Tapir")


@dataclass(frozen=True)
class UserInfo:
    """Who is signed in (what the request handlers and the tables need)."""

    id: int
    name: str
    is_guest: bool

    def to_json(self) -> dict[str, Any]:
        """The public form, as sent to the browser."""
        return {"id": self.id, "name": self.name, "guest": self.is_guest}


def _info(user: User) -> UserInfo:
    return UserInfo(user.id, user.name, user.is_guest)


class Credentials(BaseModel):
    """Body of sign-up and sign-in."""

    name: str = Field(max_length=64)
    password: str = Field(max_length=256)


class Sessions:
    """Signs and reads session cookies; hashes and checks passwords."""

    def __init__(self, secret: str, hasher: PasswordHasher | None = None) -> None:
        self.serializer = URLSafeTimedSerializer(secret, salt="otherside-session")
        self.hasher = hasher or PasswordHasher()

    def cookie_value(self, user_id: int) -> str:
        """The signed cookie for ``user_id``."""
        return self.serializer.dumps({"uid": user_id})

    def user_id(self, cookie: str | None) -> int | None:
        """The user id in a cookie, or ``None`` if absent, forged or expired."""
        if not cookie:
            return None
        try:
            data = self.serializer.loads(cookie, max_age=SESSION_DAYS * 86400)
        except BadSignature:
            return None
        uid = data.get("uid") if isinstance(data, dict) else None
        return uid if isinstance(uid, int) else None

    def set_cookie(self, response: Response, request: Request, user_id: int) -> None:
        """Attach the session cookie of ``user_id`` to ``response``."""
        response.set_cookie(
            COOKIE,
            self.cookie_value(user_id),
            max_age=SESSION_DAYS * 86400,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
            path="/",
        )


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


def user_by_id(session: Session, user_id: int) -> UserInfo | None:
    """The user with ``user_id``, if any."""
    user = session.get(User, user_id)
    return _info(user) if user else None


def user_email(session: Session, user_id: int) -> str | None:
    """The e-mail address ``user_id`` gave for reminders, if any."""
    return session.scalar(select(User.email).where(User.id == user_id))


async def current_user(request: Request) -> UserInfo | None:
    """Dependency: the signed-in user, or ``None``."""
    state = request.app.state
    uid = state.sessions.user_id(request.cookies.get(COOKIE))
    if uid is None:
        return None
    return await state.db.run(lambda s: user_by_id(s, uid))


async def require_user(user: Annotated[UserInfo | None, Depends(current_user)]) -> UserInfo:
    """Dependency: the signed-in user; 401 if nobody is signed in."""
    if user is None:
        raise HTTPException(401, "sign in or play as a guest first")
    return user


router = APIRouter(prefix="/api")


@router.post("/signup")
async def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Create an account and sign in."""
    state = request.app.state
    try:
        name = check_name(body.name.strip())
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from exc
    if len(body.password) < PASSWORD_MIN:
        raise HTTPException(422, f"a password has at least {PASSWORD_MIN} characters")
    digest = await asyncio.to_thread(state.sessions.hasher.hash, body.password)

    def create(session: Session) -> UserInfo | None:
        if session.scalar(select(User.id).where(User.name_key == name.lower())) is not None:
            return None
        user = User(name=name, name_key=name.lower(), password_hash=digest, is_guest=False)
        session.add(user)
        session.flush()
        return _info(user)

    user = await state.db.run(create)
    if user is None:
        raise HTTPException(409, f"the name {name!r} is taken; choose another or sign in")
    state.sessions.set_cookie(response, request, user.id)
    return user.to_json()


@router.post("/signin")
async def sign_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Sign in with a name and password."""
    state = request.app.state
    key = body.name.strip().lower()

    def load(session: Session) -> tuple[UserInfo, str | None] | None:
        user = session.scalar(select(User).where(User.name_key == key))
        return (_info(user), user.password_hash) if user else None

    found = await state.db.run(load)
    wrong = HTTPException(401, "wrong name or password")
    if found is None or found[1] is None:
        raise wrong
    user, digest = found
    try:
        await asyncio.to_thread(state.sessions.hasher.verify, digest, body.password)
    except (VerificationError, InvalidHashError) as exc:
        raise wrong from exc
    state.sessions.set_cookie(response, request, user.id)
    return user.to_json()


@router.post("/guest")
async def play_as_guest(request: Request, response: Response) -> dict[str, Any]:
    """Create a guest account with a generated name and sign in."""
    state = request.app.state

    def create(session: Session) -> UserInfo:
        while True:
            name = f"{secrets.choice(GUEST_WORDS)}-{secrets.randbelow(10000):04d}"
            if session.scalar(select(User.id).where(User.name_key == name.lower())) is None:
                break
        user = User(name=name, name_key=name.lower(), password_hash=None, is_guest=True)
        session.add(user)
        session.flush()
        return _info(user)

    user = await state.db.run(create)
    state.sessions.set_cookie(response, request, user.id)
    return user.to_json()


@router.post("/signout")
async def sign_out(response: Response) -> dict[str, Any]:
    """Forget the session cookie."""
    response.delete_cookie(COOKIE, path="/")
    return {"ok": True}


@router.get("/me")
async def me(
    request: Request, user: Annotated[UserInfo | None, Depends(current_user)]
) -> dict[str, Any]:
    """The signed-in user (with their own e-mail address, if any), or ``{"user": null}``."""
    if user is None:
        return {"user": None}
    email = await request.app.state.db.run(lambda s: user_email(s, user.id))
    return {"user": {**user.to_json(), "email": email}}


class EmailBody(BaseModel):
    """Body of ``POST /api/me/email``: an address for reminders, or ``null`` for none."""

    email: str | None = Field(default=None, max_length=254)


def check_email(address: str) -> str:
    """A plausible e-mail address, or ``ValueError`` saying what is wrong.

    >>> check_email(" ada@example.org ")
    'ada@example.org'
    >>> check_email("ada@")
    Traceback (most recent call last):
    ...
    ValueError: 'ada@' is not an e-mail address (name@domain.tld)
    """
    address = address.strip()
    if not EMAIL_PATTERN.match(address):
        raise ValueError(f"{address!r} is not an e-mail address (name@domain.tld)")
    return address


@router.post("/me/email")
async def set_email(
    body: EmailBody, request: Request, user: Annotated[UserInfo | None, Depends(current_user)]
) -> dict[str, Any]:
    """Give (or with ``null`` remove) the address that turn reminders go to."""
    if user is None:
        raise HTTPException(401, "sign in or play as a guest first")
    try:
        address = check_email(body.email) if body.email else None
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from exc

    def save(session: Session) -> None:
        session.execute(update(User).where(User.id == user.id).values(email=address))

    await request.app.state.db.run(save)
    return {"email": address}
