"""The players of ``load_tables.py``: pairs of guests playing random legal Verso actions over
websockets, each pair at one table after another, in client processes of their own (with
``bot_every`` k, every k-th pair is one guest against the random bot).

A player behaves as the table page does: when its socket drops it reconnects after 0.5 s, then
doubling up to 8 s, asks for ``sync`` and carries on from the view it gets. A connection refused
moves the pair to the next server at once (as a load balancer tries its next upstream within the
same request); it waits only when every server has refused. A move is
*acknowledged* when its player receives a view of its version (or a later one); each
acknowledged ``(table, version, action)`` is reported, so that the caller can check it against
the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import random
import signal
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from multiprocessing.process import BaseProcess
from multiprocessing.sharedctypes import Synchronized
from typing import Any

import httpx
import websockets

from otherside.testing.servers import shared_tls

SILENCE = 10.0  # seconds without a message on a socket before it is given up as dead
# The table page's reconnection (web/js/core/constants.js): a socket that was open is tried
# again at once, at a moment within the spread; a failed try waits, longer after each.
RETRY_SPREAD, FIRST_RETRY, LAST_RETRY = 0.1, 0.5, 8.0
KEEP_ALIVE = httpx.Limits(keepalive_expiry=3.0)


@dataclass
class Window:
    """The run's times, ``time.monotonic()`` (one clock for every process of a machine): the
    pairs arrive from ``start`` (set by the parent once every client process is ready: under
    load their imports take seconds); moves are measured for ``duration`` seconds from
    ``measure_from`` — once every table plays (``begin``, set by the parent), or ``warmup``
    seconds after the start at the latest — and players stop at ``deadline``."""

    start: Synchronized[float]
    begin: Synchronized[float]
    warmup: float
    duration: float
    # Seconds added to the duration while it runs (the chaos benchmark's faults take longer
    # than planned: a database restart under load).
    extra: Synchronized[float] | None = None

    @property
    def measure_from(self) -> float:
        return self.begin.value or self.start.value + self.warmup

    @property
    def deadline(self) -> float:
        return self.measure_from + self.duration + (self.extra.value if self.extra else 0.0)

    def open(self) -> bool:
        return self.measure_from <= time.monotonic() <= self.deadline


@dataclass
class Tally:
    """What one client process saw."""

    latencies: list[float] = field(default_factory=list)  # ms, action -> its player's view
    moves: int = 0  # acknowledged within the window
    acknowledged: list[tuple[str, int, str]] = field(default_factory=list)  # the whole run
    games: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    reconnects: int = 0
    # Per pair, the first acknowledged move after the kill (monotonic), once there was one.
    back_after_kill: dict[int, float] = field(default_factory=dict)
    playing_at_kill: list[int] = field(default_factory=list)  # pairs in a game at the kill
    # Per pair cut off by the kill, when one of its players could act again (monotonic): the
    # first view with legal actions on a connection opened after the kill. What follows it is
    # the player's own thinking, which ``back_after_kill`` counts too.
    served_after_kill: dict[int, float] = field(default_factory=dict)
    # Per pair, when each of its moves was acknowledged (monotonic), with ``keep_times``.
    ack_times: dict[int, list[float]] = field(default_factory=dict)
    # Per pair, with ``keep_times``, its last step in words (what a frozen table waited for).
    last_step: dict[int, str] = field(default_factory=dict)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


@dataclass
class Seen:
    """A view that acknowledges a pending action: its table, the move's version, the action,
    the milliseconds from sending it, and when (monotonic)."""

    table: str
    version: int
    action: str
    ms: float
    at: float


class Route:
    """The servers a pair may reach, its own first; a refused connection moves it on."""

    def __init__(self, bases: list[str], home: int) -> None:
        self.bases = bases
        self.index = home % len(bases)

    @property
    def base(self) -> str:
        return self.bases[self.index]

    def socket_url(self, table_id: str) -> str:
        return self.base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"

    def next(self, failed: str) -> None:
        """Move on from ``failed``, unless another of the pair's connections already did (both
        seats refused at once flipped the route twice, back to the dead server)."""
        if self.base == failed:
            self.index = (self.index + 1) % len(self.bases)


class Pair:
    """Two guests at one table after another until the window closes."""

    def __init__(
        self,
        slot: int,
        route: Route,
        tally: Tally,
        window: Window,
        think: float,
        kill_at: Synchronized[float],
        playing: Synchronized[int],
        bot: str | None = None,
        keep_times: bool = False,
    ) -> None:
        self.slot = slot
        self.bot = bot  # the guest's seat given to this bot: one player, the bot on the server
        self.keep_times = keep_times
        self.playing = playing
        self.started = False
        self.route = route
        self.tally = tally
        self.window = window
        self.think = think
        self.kill_at = kill_at
        self.rng = random.Random(slot)
        self.in_game = False

    def step(self, words: str) -> None:
        if self.keep_times:
            self.tally.last_step[self.slot] = f"{time.monotonic():.1f} {words}"

    def acknowledged(self, seen: Seen) -> None:
        now = seen.at
        self.tally.acknowledged.append((seen.table, seen.version, seen.action))
        if self.window.measure_from <= now <= self.window.deadline:
            self.tally.moves += 1
            self.tally.latencies.append(seen.ms)
        killed = self.kill_at.value
        if killed and now > killed and self.slot not in self.tally.back_after_kill:
            self.tally.back_after_kill[self.slot] = now
        if self.keep_times:
            self.tally.ack_times.setdefault(self.slot, []).append(now)

    async def lobby(self, client: httpx.AsyncClient, path: str, body: Any = None) -> Any:
        """POST to the lobby; a refused connection tries the next server, after a pause."""
        retry = FIRST_RETRY
        while True:
            base = self.route.base
            try:
                answer = await client.post(base + path, json=body)
            except httpx.TransportError as exc:
                self.tally.error(f"lobby {type(exc).__name__}")
                self.step(f"lobby {path}: {type(exc).__name__}")
                self.route.next(base)
                await asyncio.sleep(retry)
                retry = min(2 * retry, LAST_RETRY)
                continue
            if answer.is_error:
                self.step(f"lobby {path}: HTTP {answer.status_code} {answer.text[:80]}")
                raise LobbyError(f"HTTP {answer.status_code} {path.rsplit('/', 1)[-1]}")
            return answer.json()

    async def run(self) -> None:
        async with (
            # A browser drops an idle connection before the server does (its keep-alive is 5 s),
            # rather than reuse one the server is closing.
            httpx.AsyncClient(timeout=30, limits=KEEP_ALIVE, verify=shared_tls()) as host,
            httpx.AsyncClient(timeout=30, limits=KEEP_ALIVE, verify=shared_tls()) as guest,
        ):
            players = (host,) if self.bot else (host, guest)
            for client in players:
                await self.lobby(client, "/api/guest")
            cookies = [f"otherside_session={c.cookies.get('otherside_session')}" for c in players]
            while time.monotonic() < self.window.deadline:
                try:
                    made = await self.lobby(host, "/api/tables", {"game": "verso", "players": 2})
                    if self.bot:
                        await self.lobby(host, f"/api/tables/{made['id']}/bots", {"bot": self.bot})
                    else:
                        await self.lobby(guest, f"/api/tables/{made['id']}/join", {})
                    await self.lobby(host, f"/api/tables/{made['id']}/start")
                except LobbyError as exc:
                    self.tally.error(str(exc))
                    await asyncio.sleep(1.0)
                    continue
                if not self.started:
                    self.started = True
                    with self.playing.get_lock():
                        self.playing.value += 1
                self.in_game = True
                ended = await asyncio.gather(*(self.seat(c, made["id"]) for c in cookies))
                self.in_game = False
                self.tally.games += all(ended)

    async def seat(self, cookie: str, table_id: str) -> bool:
        """Play one seat until the game ends (True) or the window closes (False)."""
        pending: tuple[int, str, float] | None = None  # version sent at, action, perf time
        # A view past the pending action's version, not yet sure to be its move: a view of
        # another process's move (a catch-up) can come just before the action's refusal.
        seen: Seen | None = None
        retry = FIRST_RETRY
        connected_before = False
        refused: set[str] = set()  # the servers that refused since the last connection

        async def act(ws: Any, version: int, legal: list[str]) -> None:
            nonlocal pending
            if self.think:
                await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
            action = self.rng.choice(legal)
            pending = (version, action, time.perf_counter())
            await ws.send(json.dumps({"type": "action", "version": version, "action": action}))

        while time.monotonic() < self.window.deadline:
            base = self.route.base
            try:
                ws = await websockets.connect(
                    self.route.socket_url(table_id),
                    additional_headers={"Cookie": cookie},
                    origin=websockets.Origin(self.route.base),
                    max_size=2**20,
                    compression=None,
                    open_timeout=5,
                )
            except (OSError, TimeoutError, websockets.InvalidHandshake) as exc:
                # Refused or never answered: that server is down, try the next one at once, as
                # a load balancer tries its next upstream within the same request; wait only
                # once every server has refused.
                self.tally.error(f"connect {type(exc).__name__}")
                self.step(f"table {table_id}: connect {type(exc).__name__}")
                refused.add(base)
                self.route.next(base)
                if self.route.base not in refused:
                    continue
                refused.clear()
                await asyncio.sleep(retry)
                retry = min(2 * retry, LAST_RETRY)
                continue
            retry = FIRST_RETRY
            refused.clear()
            again, connected_before = connected_before, True
            killed = self.kill_at.value
            reopened = again and bool(killed) and time.monotonic() > killed
            thinking: asyncio.Task[None] | None = None
            try:
                async with ws:
                    if again:
                        self.tally.reconnects += 1
                        await ws.send('{"type": "sync"}')
                    last = -1  # a new connection's first view is news even at the same version
                    while True:
                        message = json.loads(await asyncio.wait_for(ws.recv(), SILENCE))
                        kind = message["type"]
                        if kind == "error":
                            self.tally.error(message.get("code", "error"))
                            self.step(f"table {table_id}: error {message.get('code')}")
                            # The action was refused, not played: the view before the refusal
                            # was somebody else's move, and so is any later one.
                            pending = seen = None
                            last -= 1  # the view that follows a refusal is to be acted on
                            continue
                        if kind != "view" or message["version"] <= last:
                            continue
                        version = last = message["version"]
                        if reopened and message["legal"]:
                            self.tally.served_after_kill.setdefault(self.slot, time.monotonic())
                        self.step(
                            f"table {table_id}: view {version}, legal {len(message['legal'])}"
                        )
                        if seen is not None:  # no refusal came after it
                            self.acknowledged(seen)
                            seen = None
                        if pending is not None and version > pending[0]:
                            ms = 1000 * (time.perf_counter() - pending[2])
                            seen = Seen(table_id, pending[0] + 1, pending[1], ms, time.monotonic())
                            pending = None
                        if message["view"].get("outcome") is not None:
                            if seen is not None:
                                self.acknowledged(seen)
                            return True
                        if time.monotonic() > self.window.deadline:
                            if seen is not None:
                                self.acknowledged(seen)
                            return False
                        if thinking is not None:  # a newer view: think again from it
                            thinking.cancel()
                            thinking = None
                        if message["legal"] and self.think:
                            # The page keeps listening while its player thinks: a socket that
                            # drops meanwhile is reconnected at once, not after the thought.
                            thinking = asyncio.create_task(act(ws, version, message["legal"]))
                            thinking.add_done_callback(_quiet)
                        elif message["legal"]:
                            await act(ws, version, message["legal"])
            except TimeoutError:
                self.tally.error(f"no message for {SILENCE:.0f} s")
                self.step(f"table {table_id}: no message for {SILENCE:.0f} s")
            except websockets.ConnectionClosed as exc:
                if seen is not None:  # taken as the move's: no refusal can come any more
                    self.acknowledged(seen)
                    seen = None
                # Dropped: reconnect to the same server first, as the page does.
                code = exc.rcvd.code if exc.rcvd else None
                self.step(f"table {table_id}: closed ({code})")
            finally:
                if thinking is not None:
                    thinking.cancel()
            await asyncio.sleep(self.rng.uniform(0, RETRY_SPREAD))
        return False


def _quiet(thought: asyncio.Task[None]) -> None:
    """A thought whose move could not be sent (its socket dropped): the drop is what counts,
    and the receiving loop sees it."""
    if not thought.cancelled():
        thought.exception()


class LobbyError(Exception):
    """A lobby request refused by a live server."""


async def client_loop(
    bases: list[str],
    slots: list[int],
    window: Window,
    think: float,
    ramp: float,
    progress: Synchronized[int],
    kill_at: Synchronized[float],
    ready: Synchronized[int],
    playing: Synchronized[int],
    bot_every: int = 0,
    keep_times: bool = False,
) -> Tally:
    tally = Tally()
    with ready.get_lock():
        ready.value += 1
    while not window.start.value:
        await asyncio.sleep(0.05)
    pairs = [
        Pair(
            slot,
            Route(bases, slot),
            tally,
            window,
            think,
            kill_at,
            playing,
            bot="random" if bot_every and slot % bot_every == bot_every - 1 else None,
            keep_times=keep_times,
        )
        for slot in slots
    ]
    tasks = []
    for index, one in enumerate(pairs):
        tasks.append(asyncio.create_task(_after(ramp * index / max(len(pairs), 1), one.run())))
    noted_kill = False
    while time.monotonic() < window.deadline:
        await asyncio.sleep(0.25)
        progress.value = tally.moves
        if kill_at.value and not noted_kill:
            noted_kill = True
            tally.playing_at_kill = [one.slot for one in pairs if one.in_game]
    # Each player stops at its next view after the deadline.
    await asyncio.wait(tasks, timeout=5 + 2 * think)
    for task in tasks:
        task.cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for result in results:
        if isinstance(result, Exception) and not isinstance(result, asyncio.CancelledError):
            tally.error(f"pair {type(result).__name__}")
    return tally


async def _after(delay: float, work: Any) -> None:
    await asyncio.sleep(delay)
    await work


@dataclass
class Crowd:
    """The client processes of a run, started and ready, and what they share with the caller:
    the run's ``window`` (set its ``start`` to let the pairs in), the ``results`` queue (a
    :class:`Tally` dict from each process at the end), the tables playing so far, each
    process's acknowledged moves so far, and the time of a kill (set by the caller)."""

    processes: list[BaseProcess]
    window: Window
    results: Any
    playing: Synchronized[int]
    progress: list[Synchronized[int]]
    kill_at: Synchronized[float]


def start_crowd(
    bases: list[str],
    tables: int,
    clients: int,
    think: float,
    warmup: float,
    duration: float,
    extendable: bool = False,
    **options: Any,
) -> Crowd:
    """``clients`` processes playing ``tables`` pairs between them against ``bases`` (the pairs
    arrive over a ramp once the window starts), returned once every process is ready (under
    load their imports take seconds). ``extendable``: the window's duration may be lengthened
    while it runs (:attr:`Window.extra`); ``options`` go to :func:`client_main`."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    extra = context.Value("d", 0.0) if extendable else None
    window = Window(context.Value("d", 0.0), context.Value("d", 0.0), warmup, duration, extra)
    ready, playing = context.Value("q", 0), context.Value("q", 0)
    progress = [context.Value("q", 0) for _ in range(clients)]
    kill_at = context.Value("d", 0.0)
    ramp = min(warmup / 2, 0.02 * tables)
    processes = [
        context.Process(
            target=client_main,
            args=(
                bases,
                list(range(k, tables, clients)),
                window,
                think,
                ramp,
                progress[k],
                kill_at,
                ready,
                playing,
                results,
            ),
            kwargs=options,
            daemon=True,
        )
        for k in range(clients)
    ]
    for process in processes:
        process.start()
    while ready.value < len(processes):
        if not all(process.is_alive() for process in processes):
            for process in processes:
                process.terminate()
            raise SystemExit("a client process died on starting")
        time.sleep(0.05)
    return Crowd(processes, window, results, playing, progress, kill_at)


def client_main(
    bases: list[str],
    slots: list[int],
    window: Window,
    think: float,
    ramp: float,
    progress: Synchronized[int],
    kill_at: Synchronized[float],
    ready: Synchronized[int],
    playing: Synchronized[int],
    results: Any,
    bot_every: int = 0,
    keep_times: bool = False,
) -> None:
    """One client process: its share of the pairs on its own event loop (uvloop if present)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us
    runner: Callable[[Any], Tally] = asyncio.run
    with contextlib.suppress(ImportError):
        import uvloop

        runner = uvloop.run
    tally = runner(
        client_loop(
            bases,
            slots,
            window,
            think,
            ramp,
            progress,
            kill_at,
            ready,
            playing,
            bot_every,
            keep_times,
        )
    )
    results.put(asdict(tally))
