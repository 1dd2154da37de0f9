"""What a route handler uses of the running server, as typed FastAPI dependencies.

The composition root (:func:`otherside.server.app.create_app`) builds each service once, at
start, and keeps it on ``app.state``; a handler names the ones it uses in its signature
(``hub: HubDep``) instead of reaching into ``request.app.state``, so that what it depends on
is read from its signature and checked by mypy. Each dependency is an ``async def`` that
returns what is already there: FastAPI awaits it in the event loop (a plain ``def`` would go
through a worker thread on every request) and calls it once per request however many
dependencies ask for it.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from otherside.server.accounts.limits import Limits, Throttles
from otherside.server.accounts.sessions import Sessions
from otherside.server.accounts.signin import SignInGuard
from otherside.server.clock import Clock
from otherside.server.http.finished import FinishedGames
from otherside.server.store.db import Database
from otherside.server.tables.hub import TableHub


async def database(request: Request) -> Database:
    """The server's database."""
    found: Database = request.app.state.db
    return found


async def hub(request: Request) -> TableHub:
    """The hub that finds (and starts) each live table's actor."""
    found: TableHub = request.app.state.hub
    return found


async def clock(request: Request) -> Clock:
    """Where the server's time comes from (a ``ManualClock`` in tests)."""
    found: Clock = request.app.state.clock
    return found


async def limits(request: Request) -> Limits:
    """The server's limits (bots' thinking cap among them)."""
    found: Limits = request.app.state.limits
    return found


async def throttles(request: Request) -> Throttles:
    """The quotas of sign-ups, guests and tables, and the limiter they count in."""
    found: Throttles = request.app.state.throttles
    return found


async def sessions(request: Request) -> Sessions:
    """Session cookies and password hashes."""
    found: Sessions = request.app.state.sessions
    return found


async def signin(request: Request) -> SignInGuard:
    """The guard of sign-in attempts."""
    found: SignInGuard = request.app.state.signin
    return found


async def finished_games(request: Request) -> FinishedGames:
    """Finished games' answers, computed once, and the per-address fetch window."""
    found: FinishedGames = request.app.state.finished_games
    return found


DatabaseDep = Annotated[Database, Depends(database)]
HubDep = Annotated[TableHub, Depends(hub)]
ClockDep = Annotated[Clock, Depends(clock)]
LimitsDep = Annotated[Limits, Depends(limits)]
ThrottlesDep = Annotated[Throttles, Depends(throttles)]
SessionsDep = Annotated[Sessions, Depends(sessions)]
SignInDep = Annotated[SignInGuard, Depends(signin)]
FinishedGamesDep = Annotated[FinishedGames, Depends(finished_games)]
