"""What a route handler uses of the running server, as typed FastAPI dependencies.

The composition root (:func:`otherside.server.app.create_app`) builds each service once, at
start, and keeps it on ``app.state``; a handler names the ones it uses in its signature
(``hub: HubDep``) instead of reaching into ``request.app.state``, so that what it depends on
is read from its signature and checked by mypy. Each dependency is an ``async def`` that
returns what is already there: FastAPI awaits it in the event loop (a plain ``def`` would go
through a worker thread on every request) and calls it once per request however many
dependencies ask for it. They differ only in the attribute they read, so one factory,
:func:`state_dependency`, builds them all.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request

from otherside.server.accounts.limits import Limits, Throttles
from otherside.server.accounts.sessions import Sessions
from otherside.server.accounts.signin import SignInGuard
from otherside.server.clock import Clock
from otherside.server.http.coalesce import Coalesced
from otherside.server.http.finished import FinishedGames
from otherside.server.mail.smtp import Post
from otherside.server.store.db import Database
from otherside.server.tables.hub import TableHub

T = TypeVar("T")

StateDependency = Callable[[Request], Awaitable[T]]
"""A dependency that returns one service kept on ``app.state``, of type ``T``."""


def state_dependency(attribute: str, doc: str) -> StateDependency[Any]:
    """Build the dependency that hands a handler one service kept on ``app.state``.

    ``app.state`` is untyped, so the service's type is told where the dependency is named
    (``clock: StateDependency[Clock] = ...``).

    Args:
        attribute: The name the composition root keeps the service under on ``app.state``.
        doc: What the service is: the dependency's docstring.

    Returns:
        An ``async`` function of the request that returns ``app.state.<attribute>``.
    """

    async def from_state(request: Request) -> Any:
        return getattr(request.app.state, attribute)

    from_state.__name__ = from_state.__qualname__ = attribute
    from_state.__doc__ = doc
    return from_state


database: StateDependency[Database] = state_dependency("db", "The server's database.")
hub: StateDependency[TableHub] = state_dependency(
    "hub", "The hub that finds (and starts) each live table's actor."
)
clock: StateDependency[Clock] = state_dependency(
    "clock", "Where the server's time comes from (a ``ManualClock`` in tests)."
)
limits: StateDependency[Limits] = state_dependency(
    "limits", "The server's limits (bots' thinking cap among them)."
)
throttles: StateDependency[Throttles] = state_dependency(
    "throttles", "The quotas of sign-ups, guests and tables, and the limiter they count in."
)
sessions: StateDependency[Sessions] = state_dependency(
    "sessions", "Session cookies and password hashes."
)
signin: StateDependency[SignInGuard] = state_dependency("signin", "The guard of sign-in attempts.")
post: StateDependency[Post] = state_dependency(
    "post", "The server's mailer (if any) and its public address for links in mail."
)
finished_games: StateDependency[FinishedGames] = state_dependency(
    "finished_games", "Finished games' answers, computed once, and the per-address fetch window."
)
coalesced: StateDependency[Coalesced] = state_dependency(
    "coalesced", "Answers computed once for the callers who ask for them at once."
)

DatabaseDep = Annotated[Database, Depends(database)]
HubDep = Annotated[TableHub, Depends(hub)]
ClockDep = Annotated[Clock, Depends(clock)]
LimitsDep = Annotated[Limits, Depends(limits)]
ThrottlesDep = Annotated[Throttles, Depends(throttles)]
SessionsDep = Annotated[Sessions, Depends(sessions)]
SignInDep = Annotated[SignInGuard, Depends(signin)]
FinishedGamesDep = Annotated[FinishedGames, Depends(finished_games)]
CoalescedDep = Annotated[Coalesced, Depends(coalesced)]
PostDep = Annotated[Post, Depends(post)]
