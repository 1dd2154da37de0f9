"""What the browser tests share: Debian's Chromium, how Playwright starts it, where screenshots
go (and when they are taken), and the limits of the one table server process they share
(``tests/server/conftest.py`` starts both once per test process, as the fixtures ``browser``
and ``server``)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest

from otherside.testing.servers import LIFTED_LIMITS

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(os.environ.get("OTHERSIDE_SCREENSHOTS", "/tmp/otherside-screens"))
# Screenshots are for a person to look at and prove nothing: a run takes them only when asked
# (OTHERSIDE_SCREENSHOTS set, to the folder they go to). Each costs a second or more on a loaded
# machine (a whole page at twice the pixels, ten), a sixth of the browser tests' time.
TAKE_SHOTS = "OTHERSIDE_SCREENSHOTS" in os.environ
# The browser tests play with a click sending the move at once, as a player who switched "Confirm
# each move" off does (a guest's choice, kept in the browser; test_browser_versus_confirm
# tests the confirmation, in contexts without this script: ``browser.plain_context``).
MOVES_AT_ONCE = """try {
  const key = "otherside.confirm-moves";
  if (localStorage.getItem(key) === null) localStorage.setItem(key, "off");
} catch (refused) {}"""
AWAY_SECONDS = 8.0
"""How long a Recto Verso partner must be gone before the shared server lets a bot play on for
them: short enough to wait for in a test, long enough that a click comes before it."""
SHARED_LIMITS = (
    *LIFTED_LIMITS,
    # Every browser module signs up its people and opens its tables on the one shared server,
    # all from 127.0.0.1: the per-address and per-account caps (tested on their own) are lifted.
    "signups_per_address=1000000",
    "waiting_tables_per_user=1000000",
    "signin_failures_per_address=1000000",
    f"away_seconds={AWAY_SECONDS:g}",
)
SHARED_GUARDS = (
    # Every page at a table fetches its history, all from 127.0.0.1: the 30 a minute an address
    # may fetch (tested on its own) ran out in a quick run, and a record asked for after the
    # game was refused 429.
    "--guard",
    "replays_per_minute=1000000",
)


def shoot(page: Any, name: str, settle_ms: int = 0, **options: Any) -> None:
    """Save a screenshot of ``page`` as ``name`` (``.png`` added if it has no suffix) under
    :data:`SHOTS`, when screenshots are asked for (:data:`TAKE_SHOTS`); ``settle_ms`` first
    lets the page's animations end, ``options`` go to Playwright's ``screenshot``."""
    if not TAKE_SHOTS:
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    if settle_ms:
        page.wait_for_timeout(settle_ms)
    path = SHOTS / name
    page.screenshot(path=str(path if path.suffix else path.with_suffix(".png")), **options)


def shot_and_fit(page: Any, name: str) -> None:
    """Save a whole-page screenshot ``name``.png under :data:`SHOTS` (to look at, when asked:
    :func:`shoot`) and fail if the page is wider than its screen."""
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, name, full_page=True)
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{name}: {width} px wide on a {inner} px screen"


@contextmanager
def chromium() -> Iterator[Any]:
    """Chromium started by Playwright (or a skip), its ``new_context`` adding
    :data:`MOVES_AT_ONCE` and its ``plain_context`` the browser's own; closed afterwards."""
    if not shutil.which(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium; scripts/test does it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        plain = launched.new_context

        def new_context(**options: Any) -> Any:
            context = plain(**options)
            context.add_init_script(MOVES_AT_ONCE)
            return context

        launched.new_context = new_context
        launched.plain_context = plain
        try:
            yield launched
        finally:
            launched.close()


class SharedChromium:
    """One Chromium for consecutive browser tests, started by the first and closed by
    :meth:`close` before any other test runs: while Playwright's synchronous API is open its
    event loop counts as running, and an asyncio test beside it could not start its own."""

    def __init__(self) -> None:
        self._stack: ExitStack | None = None
        self._launched: Any = None

    def get(self) -> Any:
        """The running Chromium, started if it is not."""
        if self._launched is None:
            stack = ExitStack()
            self._launched = stack.enter_context(chromium())
            self._stack = stack
        return self._launched

    def close_contexts(self) -> None:
        """Close every context the tests left open (and their pages): an open page goes on
        drawing what its websocket brings (a game of bots, a lobby), slowing down the tests
        that come after it."""
        if self._launched is not None:
            for context in list(self._launched.contexts):
                context.close()

    def close(self) -> None:
        """Close Chromium (with every context the tests left open), if it runs."""
        stack, self._stack, self._launched = self._stack, None, None
        if stack is not None:
            stack.close()


SHARED = SharedChromium()
"""The Chromium of this test process (the ``browser`` fixture)."""
