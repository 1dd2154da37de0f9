"""How wrong passwords are throttled, after OWASP's Authentication Cheat Sheet ("Login
Throttling", "Account Lockout") and its device-cookie scheme.

Every attempt reserves its slots *before* the password is checked, in one transaction (all or
none, see :mod:`~otherside.server.accounts.limiter`); an attempt refused is never checked:

- per (name, address): ``signin_failures_per_name_address`` wrong passwords, then that address
  waits for the rest of the window (the guesser's own pause, nobody else's);
- per address: ``signin_failures_per_address`` wrong passwords for any names (spraying);
- per name, from everywhere: past ``signin_failures_per_name`` wrong passwords the account
  slows down instead of locking — each further attempt must come 1, 2, 4 … seconds (up to
  ``signin_slowdown_max``) after the previous one, which bounds guesses from many addresses
  without letting them lock the owner out. The slowdown never touches the owner's sessions (a
  signed-in browser keeps playing), and a browser that signed in to the account before (it
  holds a signed "known" cookie naming the account) is not slowed at all.

A right password gives back the slots it reserved and forgives that address's earlier typos for
the name; the name's count of failures from elsewhere stays.
"""

from __future__ import annotations

from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy.orm import Session
from starlette.requests import Request
from starlette.responses import Response

from otherside.i18n import N_
from otherside.server.accounts.limiter import (
    Slot,
    TooMany,
    claim,
    open_gate,
    stored_key,
    take,
    window_end,
)
from otherside.server.accounts.limits import Throttles

KNOWN_COOKIE = "otherside_known"
KNOWN_DAYS = 365
KNOWN_NAMES = 5  # accounts one browser is remembered for


class SignInGuard:
    """Reserves a sign-in attempt's slots and remembers browsers that signed in."""

    def __init__(self, throttles: Throttles, secret: str) -> None:
        self.throttles = throttles
        self.serializer = URLSafeTimedSerializer(secret, salt="otherside-known-browser")

    def known_names(self, request: Request) -> list[str]:
        """The accounts (name keys) this browser signed in to before (forged cookies: none)."""
        cookie = request.cookies.get(KNOWN_COOKIE)
        if not cookie:
            return []
        try:
            data = self.serializer.loads(cookie, max_age=KNOWN_DAYS * 86400)
        except BadSignature:
            return []
        names = data.get("names") if isinstance(data, dict) else None
        return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []

    def remember(self, request: Request, response: Response, name: str) -> None:
        """Mark this browser as one that signed in to ``name``."""
        names = [name, *(n for n in self.known_names(request) if n != name)][:KNOWN_NAMES]
        response.set_cookie(
            KNOWN_COOKIE,
            self.serializer.dumps({"names": names}),
            max_age=KNOWN_DAYS * 86400,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
            path="/api/signin",
        )

    async def reserve(self, name: str, address: str, known: bool) -> list[Slot]:
        """The slots of one attempt to sign in to ``name`` from ``address``, or
        :class:`TooMany` (HTTP 429, nothing counted). ``known``: the browser signed in to
        ``name`` before, so the name's slowdown does not apply."""
        limiter = self.throttles.limiter
        now = limiter.now()
        throttles = self.throttles
        # A flood from one address is refused from memory once its count is full.
        limiter.refuse_known_full(
            [
                (throttles.signin_address, address),
                (throttles.signin_name_address, _name_at(name, address)),
            ],
            now,
        )
        await limiter.sweep(now)
        try:
            return await limiter.db.run(lambda s: self._attempt(s, name, address, known, now))
        except TooMany as refused:
            limiter.remember(refused)
            raise

    def _attempt(
        self, session: Session, name: str, address: str, known: bool, now: float
    ) -> list[Slot]:
        throttles = self.throttles
        limits = throttles.limits
        slots = [
            claim(session, throttles.signin_address, address, now),
            claim(session, throttles.signin_name_address, _name_at(name, address), now),
        ]
        if known:
            return slots
        counted = take(
            session, stored_key(throttles.signin_name.rule, name), None, limits.signin_window, now
        )
        assert counted is not None  # take without a limit always counts
        beyond = counted.hits - limits.signin_failures_per_name
        if beyond > 0:
            delay = min(limits.signin_slowdown_max, 2.0 ** min(beyond - 1, 30))
            gate = stored_key("signin-name-gate", name)
            if not open_gate(session, gate, delay, now):
                raise TooMany(N_("sign-in attempts for this name"), window_end(session, gate) - now)
        return [*slots, counted]

    async def succeeded(self, slots: list[Slot], name: str, address: str) -> None:
        """A right password: its slots back, this address's typos for ``name`` forgiven."""
        limiter = self.throttles.limiter
        await limiter.release(*slots)
        await limiter.forget(self.throttles.signin_name_address, _name_at(name, address))


def _name_at(name: str, address: str) -> str:
    """Who is counted under ``signin_name_address``: one name from one address."""
    return f"{name}\n{address}"
