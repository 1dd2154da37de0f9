"""How fast one table socket may send messages: a token bucket per socket.

Every message costs the server some work before it is refused or acted on (read, parsed,
checked, answered), and a socket could send them as fast as its link allowed: thirty sockets
of one address sending ``ping`` (13,600 a second) made a player's move elsewhere take a second
instead of seven milliseconds. A socket may send ``burst`` messages at once and ``per_second``
on average; past that it is closed with 4429. A page — a move, a chat line, a ping every few
seconds, a ``sync`` when it reconnects — and a program playing as fast as it can against a
person stay far below; thirty sockets at the limit cost the others a few milliseconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from otherside.i18n import N_

CLOSE_TOO_FAST = 4429
TOO_FAST = N_("too many messages at once; reconnect")


class MessageRate:
    """The messages one socket may still send (see the module).

    Args:
        per_second: messages a second, on average.
        burst: messages at once.
        monotonic: seconds from a steady clock (tests give their own).
    """

    def __init__(
        self,
        per_second: float,
        burst: int,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_second = per_second
        self.burst = burst
        self.monotonic = monotonic
        self.tokens = float(burst)
        self.at = monotonic()

    def allow(self) -> bool:
        """Take one message's token: ``False`` if the socket has none left.

        >>> now = [0.0]
        >>> rate = MessageRate(2, 3, lambda: now[0])
        >>> [rate.allow() for _ in range(4)]
        [True, True, True, False]
        >>> now[0] = 1.0
        >>> [rate.allow() for _ in range(3)]
        [True, True, False]
        """
        now = self.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.per_second)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
