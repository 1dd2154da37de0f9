"""The words of a table socket's close frame, in the reader's language.

A close frame's reason holds at most 123 bytes of UTF-8 (RFC 6455, 5.5): a longer translation
is cut at a character boundary and ends with "…". The close code stays the machine's answer.
"""

from __future__ import annotations

from typing import Any

from otherside.i18n import N_, say

MOST_BYTES = 123
TOO_SLOW = N_("too far behind; reconnect")
CROSS_ORIGIN = N_("cross-origin connection refused")
BUSY = N_("the server is busy; try again shortly")
SIGNED_OUT = N_("signed out")
TOO_MANY = N_(
    "too many connections from your address (at most {most}); close other tabs or try again later"
)
FULL = N_("the server is full; try again later")


def close_reason(language: str, template: str, /, **params: Any) -> str:
    """``template`` said in ``language``, short enough for a close frame.

    >>> close_reason("de", SIGNED_OUT)
    'abgemeldet'
    >>> len(close_reason("en", "x" * 200).encode())
    123
    """
    return fit(say(language, template, **params))


def fit(text: str) -> str:
    """``text`` cut to a close frame's 123 bytes."""
    data = text.encode()
    if len(data) <= MOST_BYTES:
        return text
    return data[: MOST_BYTES - 3].decode(errors="ignore") + "…"
