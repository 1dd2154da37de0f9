"""Who a table websocket signs in: the session cookie's user, or, when the socket was opened
with ``Authorization: Bearer <token>`` (a program), the API token's account — and whether
they still are, asked before each message (a sign-out or a revoked token stops the acting)."""

from __future__ import annotations

from fastapi import WebSocket

from otherside.server.accounts.addresses import client_key
from otherside.server.accounts.limiter import TooMany
from otherside.server.accounts.sessions import COOKIE, UserInfo, user_of_cookie
from otherside.server.accounts.tokens import bearer_token
from otherside.server.http.errors import Told
from otherside.server.http.tokens import require_scope, resolve_bearer, token_still_valid
from otherside.server.live.admission import CLOSE_SIGNED_OUT

CLOSE_FORBIDDEN = 4403
CLOSE_TOO_MANY = 4429


class SocketSigner:
    """The user of one websocket, by cookie or by token (see the module)."""

    def __init__(self, socket: WebSocket, token: str | None, user: UserInfo | None) -> None:
        self.socket = socket
        self.token = token
        self._user = user

    async def user(self) -> UserInfo | None:
        """The socket's user now (``None``: nobody, or signed out / revoked since)."""
        state = self.socket.app.state
        if self.token is None:
            return await user_of_cookie(state, self.socket.cookies.get(COOKIE))
        return self._user if await token_still_valid(state, self.token) else None


async def socket_signer(socket: WebSocket) -> SocketSigner | None:
    """The signer of an accepted ``socket``; ``None`` once the socket is closed because its
    token signs nobody in (4401), lacks the ``play`` scope (4403) or is over its limits
    (4429), each with the refusal's code as the reason."""
    token = bearer_token(socket.headers.get("authorization"))
    if token is None:
        return SocketSigner(socket, None, None)
    try:
        found = await resolve_bearer(socket.app.state, token, client_key(socket))
        require_scope(found, "play")
    except Told as refused:
        code = CLOSE_SIGNED_OUT if refused.status == 401 else CLOSE_FORBIDDEN
        await socket.close(code, refused.code)
        return None
    except TooMany:
        await socket.close(CLOSE_TOO_MANY, "too_many")
        return None
    return SocketSigner(socket, token, found.user)
