"""Fixtures of the server tests: a database on SQLite and on PostgreSQL, a running app, users.

``database_url`` runs each test on a fresh SQLite file and on a fresh PostgreSQL database (made
on the server named by ``OTHERSIDE_TEST_POSTGRES_URL``, dropped afterwards; ``scripts/test``
starts a throwaway server and sets it). ``nim`` is the toy game of ``tests/core/toy.py`` offered
by the server, so that the game-agnostic core is tested apart from any real game.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI
from sqlalchemy import create_engine, make_url, text

from otherside.bots import register_bot
from otherside.bots.base import RandomBot
from otherside.server.accounts.limits import Limits
from otherside.server.accounts.sessions import UserInfo
from otherside.server.app import create_app
from otherside.server.bots.workers import BotRunner
from otherside.server.clock import ManualClock
from otherside.server.store.db import Database, sqlite_url
from otherside.server.store.memory import MemoryTableStore
from otherside.server.tables.adapters import GameAdapter, register_adapter, unregister_adapter
from otherside.server.tables.hub import TableHub
from otherside.server.tables.live import LiveTable
from otherside.server.tables.play import Play
from tests.core.toy import Nim
from tests.server.browsing import SHARED, SHARED_GUARDS, SHARED_LIMITS
from tests.server.cluster_processes import started
from tests.server.processes import Server, free_port

POSTGRES_ENV = "OTHERSIDE_TEST_POSTGRES_URL"
CHEAP_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
GENEROUS = Limits(
    guests_per_address=10**6,
    signups_per_address=10**6,
    tables_per_user=10**6,
    tables_per_address=10**6,
    waiting_tables_per_user=10**6,
    lobby_lists_per_minute=10**6,
    player_pages_per_minute=10**6,
    lesson_moves_per_minute=10**6,
)


def fresh_postgres_database(base: str, template: str | None = None) -> tuple[str, Any]:
    """Create a database on the server of ``base`` (empty, or a copy of the database
    ``template``); its URL and a function dropping it."""
    name = f"otherside_test_{uuid.uuid4().hex[:16]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    copy = f' TEMPLATE "{template}"' if template else ""
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"{copy}'))
    url = make_url(base).set(database=name).render_as_string(hide_password=False)

    def drop() -> None:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()

    return url, drop


@contextmanager
def postgres_database(template: str | None = None) -> Iterator[str]:
    """A fresh PostgreSQL database on the test server (empty, or a copy of ``template``),
    dropped afterwards (or a skip)."""
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set (scripts/test starts a throwaway PostgreSQL)")
    url, drop = fresh_postgres_database(base, template)
    try:
        yield url
    finally:
        drop()


def _migrated(url: str) -> None:
    database = Database(url)
    try:
        database.migrate()
    finally:
        database.close()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated once per test process, for ``database_url`` to copy."""
    path = tmp_path_factory.mktemp("migrated") / "otherside.db"
    _migrated(sqlite_url(path))
    return path


@pytest.fixture(scope="session")
def migrated_postgres() -> Iterator[str]:
    """The name of a PostgreSQL database migrated once per test process, for ``database_url``
    to copy (a copy is made in a fraction of the time the migrations take)."""
    with postgres_database() as url:
        _migrated(url)
        name = make_url(url).database
        assert name is not None
        yield name


def sqlite_only(fixture: str = "database_url") -> pytest.MarkDecorator:
    """Run a test on SQLite alone, where its claim does not depend on the database (the
    reader's words, the payloads a seat is sent, guards that act before any route): on
    PostgreSQL it would take its time again and prove nothing more. ``fixture`` is the
    database fixture the test asks for (``database_url``; ``database`` or ``shared`` in
    tests/security)."""
    return pytest.mark.parametrize(fixture, ["sqlite"], indirect=True)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    """A fresh database with the schema and no rows: a SQLite file, then a PostgreSQL database.

    Each is a copy of one migrated per test process (``migrated_sqlite``, ``migrated_postgres``):
    the migrations are run once, not once per test (an app's start finds them done). Tests of
    migrating make their own databases (``postgres_database()``, a file of their own)."""
    if request.param == "sqlite":
        template: Path = request.getfixturevalue("migrated_sqlite")
        shutil.copyfile(template, tmp_path / "otherside.db")
        yield sqlite_url(tmp_path / "otherside.db")
        return
    with postgres_database(request.getfixturevalue("migrated_postgres")) as url:
        yield url


@pytest.fixture
def database() -> Iterator[str]:
    """A fresh PostgreSQL database of its own (for real server processes; dropped after)."""
    with postgres_database() as url:
        yield url


@pytest.fixture(scope="module")
def pair() -> Iterator[tuple[str, list[Server]]]:
    """Two server processes on one PostgreSQL database for the whole module
    (:mod:`tests.server.cluster_processes`): a start costs seconds of CPU, and each test makes
    its own tables and looks only at those."""
    with postgres_database() as url:
        servers = started(url, 2)
        try:
            yield url, servers
        finally:
            for server in servers:
                server.kill()


@pytest.fixture
def two(pair: tuple[str, list[Server]]) -> tuple[str, list[Server]]:
    """The module's two processes, both running: a test may kill the first (the second takes
    its tables over; the next test that needs two gets a new first one, so that a hand-over is
    always between exactly two)."""
    database, servers = pair
    if not servers[0].running():
        servers[0].kill()
        (servers[0],) = started(database, 1)
    return pair


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    """The store's :class:`Database` on a fresh database, migrated, without an app."""
    database = Database(database_url)
    await asyncio.to_thread(database.migrate)
    yield database
    database.close()


@pytest.fixture
def browser() -> Any:
    """Chromium, shared by the browser tests that run one after the other in a test process
    (each opens contexts of its own, so nothing of one test's pages reaches another's); closed
    before any other test (:func:`pytest_runtest_teardown`)."""
    return SHARED.get()


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Close the contexts a browser test left open, and the shared Chromium after the last
    browser test of a run of them."""
    if nextitem is None or "browser" not in getattr(nextitem, "fixturenames", ()):
        SHARED.close()
    elif "browser" in getattr(item, "fixturenames", ()):
        SHARED.close_contexts()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of one table server process (SQLite, bots waiting 0.05 s and thinking in
    threads: no pool of bot processes to start) shared by the browser tests of a test process:
    each test makes its own people and tables. A test that needs other settings starts its own."""
    url = sqlite_url(tmp_path_factory.mktemp("browser") / "otherside.db")
    process = Server(
        url, free_port(), "--bot-workers", "0", *SHARED_GUARDS, bot_delay=0.05, limits=SHARED_LIMITS
    )
    try:
        yield process.url
    finally:
        process.kill()


@pytest.fixture(autouse=True, scope="session")
def nim_game() -> Iterator[None]:
    """Offer the toy game ``nim`` (with a random bot) while the tests run."""
    register_bot("nim", "random")(RandomBot)
    register_adapter(GameAdapter(name="nim", title="Nim", load=Nim))
    yield
    unregister_adapter("nim")


@asynccontextmanager
async def running(url: str, **kwargs: Any) -> AsyncIterator[FastAPI]:
    """The app on ``url``, started (migrations, resume) and stopped around the block."""
    kwargs.setdefault("bot_delay", 0.0)
    kwargs.setdefault("bot_workers", 0)  # threads: no process pool to start per test
    # Tests make many guests and tables from one address; the limits have tests of their own.
    kwargs.setdefault("limits", GENEROUS)
    kwargs.setdefault("password_hasher", CHEAP_HASHER)
    app = create_app(url, **kwargs)
    async with app.router.lifespan_context(app):
        yield app


@pytest.fixture
async def app(database_url: str) -> AsyncIterator[FastAPI]:
    async with running(database_url) as started:
        yield started


def client(app: FastAPI) -> httpx.AsyncClient:
    """An HTTP client of ``app`` with its own cookie jar (one per person)."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")


async def guest(app: FastAPI) -> tuple[httpx.AsyncClient, dict[str, Any]]:
    """A new guest: their client (signed in) and their user JSON."""
    http = client(app)
    response = await http.post("/api/guest")
    response.raise_for_status()
    return http, response.json()


class Recorder:
    """A connection that keeps every message sent to it (parsed) and its exact text."""

    def __init__(self, user: Any, language: str = "en") -> None:
        self.user = user
        self.language = language
        self.texts: list[str] = []

    def deliver(self, text: str) -> None:
        self.texts.append(text)

    @property
    def messages(self) -> list[dict[str, Any]]:
        return [json.loads(t) for t in self.texts]

    def last(self, kind: str) -> dict[str, Any]:
        marker = f'"type":"{kind}"'
        return json.loads(next(t for t in reversed(self.texts) if t.startswith("{" + marker)))

    def clear(self) -> None:
        self.texts.clear()


ADA = UserInfo(1, "Ada", False)
BOB = UserInfo(2, "Bob", False)
"""Two accounts for the tests that run tables without an app (a hub or the seat rules alone)."""


@pytest.fixture
async def hub() -> AsyncIterator[TableHub]:
    """A hub with its store in memory: no app, no database, time from a ``ManualClock``, bots
    thinking in threads; whole games in milliseconds. (With an app: :func:`hub_of`.)"""
    runner = BotRunner(workers=0)
    made = TableHub(None, runner, ManualClock(), store=MemoryTableStore())
    try:
        yield made
    finally:
        await made.close()
        await runner.close()


def hub_of(app: FastAPI) -> TableHub:
    hub: TableHub = app.state.hub
    return hub


def user_info(data: dict[str, Any]) -> UserInfo:
    """The :class:`UserInfo` of a user's JSON."""
    return UserInfo(data["id"], data["name"], data["guest"])


@dataclass
class Player:
    """A person in a test: their HTTP client, who they are, and a recorder for table messages."""

    http: httpx.AsyncClient
    user: UserInfo

    def recorder(self) -> Recorder:
        return Recorder(self.user)


async def registered(app: FastAPI, *names: str) -> list[Player]:
    """Signed-up (not guest) players with these names, each signed in."""
    found = []
    for name in names:
        http = client(app)
        made = await http.post("/api/signup", json={"name": name, "password": "secret-" + name})
        assert made.status_code == 200, made.text
        found.append(Player(http, user_info(made.json())))
    return found


@dataclass
class Mailbox:
    """A real SMTP server on loopback (aiosmtpd) and the messages it received."""

    url: str
    messages: list[Any]


class _Collect:
    def __init__(self, box: list[Any]) -> None:
        self.box = box

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        from email import message_from_bytes, policy

        self.box.append(message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"


@contextmanager
def smtp_server() -> Iterator[Mailbox]:
    """An SMTP server on loopback (aiosmtpd) for the block, collecting what it is sent."""
    from aiosmtpd.controller import Controller

    from tests.server.processes import free_port

    messages: list[Any] = []
    port = free_port()
    controller = Controller(_Collect(messages), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield Mailbox(f"smtp://127.0.0.1:{port}", messages)
    finally:
        controller.stop()


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    """An SMTP server started for the test (:func:`smtp_server`)."""
    with smtp_server() as box:
        yield box


PUBLIC_URL = "http://games.example"


@asynccontextmanager
async def reminding(
    database_url: str, mailbox: Mailbox, clock: ManualClock
) -> AsyncIterator[tuple[FastAPI, Player, Player]]:
    """An app that mails turn reminders to ``mailbox`` (their links to :data:`PUBLIC_URL`),
    its time from ``clock`` and its scheduler run by the test (``app.state.scheduler``); Ada
    and Bob signed up, Bob with an e-mail address he confirmed by the link mailed to it (the
    mailbox is empty again)."""
    async with running(
        database_url, clock=clock, run_scheduler=False, smtp_url=mailbox.url, public_url=PUBLIC_URL
    ) as app:
        ada, bob = await registered(app, "Ada", "Bob")
        mailed = await bob.http.post("/api/me/email", json={"email": "bob@example.org"})
        assert mailed.status_code == 200 and mailed.json()["sent"], mailed.text
        confirmed = await bob.http.post(
            "/api/email/confirm", json={"token": link_token(mailbox.messages.pop())}
        )
        assert confirmed.status_code == 200, confirmed.text
        assert mailbox.messages == []
        yield app, ada, bob


def link_token(mail: Any) -> str:
    """The token of the confirmation link in ``mail`` (``…/confirm-email#TOKEN``)."""
    found = re.search(r"/confirm-email#([A-Za-z0-9_-]+)", mail.get_content())
    assert found is not None, mail.get_content()
    return found.group(1)


async def people(app: FastAPI, count: int) -> list[Player]:
    """``count`` signed-in guests."""
    found = []
    for _ in range(count):
        http, data = await guest(app)
        found.append(Player(http, user_info(data)))
    return found


async def table_with(
    app: FastAPI,
    humans: list[Player],
    bots: int = 0,
    game: str = "verso",
    options: dict[str, Any] | None = None,
    start: bool = True,
    pace: dict[str, Any] | None = None,
) -> str:
    """A table of ``game`` with ``humans`` (the first is the host) and ``bots`` random bots, at
    ``pace`` (the game's usual one if ``None``)."""
    host = humans[0].http
    made = await host.post(
        "/api/tables",
        json={
            "game": game,
            "players": len(humans) + bots,
            "options": options or {},
            **({} if pace is None else {"pace": pace}),
        },
    )
    assert made.status_code == 201, made.text
    table_id: str = made.json()["id"]
    for person in humans[1:]:
        joined = await person.http.post(f"/api/tables/{table_id}/join", json={})
        assert joined.status_code == 200, joined.text
    if bots:
        filled = await host.post(f"/api/tables/{table_id}/bots", json={"bot": "random"})
        assert filled.status_code == 200, filled.text
    if start:
        started = await host.post(f"/api/tables/{table_id}/start")
        assert started.status_code == 200, started.text
    return table_id


async def watched(
    app: FastAPI, table_id: str, players: list[Player]
) -> tuple[TableHub, LiveTable, list[Recorder]]:
    """Each player, then a spectator, watching ``table_id``: the hub, the table, their
    recorders (the spectator's last)."""
    hub = hub_of(app)
    conns = [p.recorder() for p in players] + [Recorder(None)]
    live = None
    for conn in conns:
        live = await hub.attach(table_id, conn)
    assert live is not None
    return hub, live, conns


async def play_out(hub: TableHub, table_id: str, player: UserInfo) -> LiveTable:
    """Play ``table_id`` to its end: ``player`` (the only human) their first legal action
    each turn, the bots theirs; the table, over."""
    live = await hub.live(table_id)
    while live.state is not None and not live.state.is_over:
        await settle(hub, table_id)
        if live.state.is_over:
            break
        action = str(live.state.legal_actions()[0])
        await hub.ask(table_id, Play(player, live.info.version, action))
    await settle(hub, table_id)
    return live


async def settle(hub: TableHub, table_id: str, timeout: float = 20.0) -> None:
    """Wait until no bot of ``table_id`` is thinking (its game over or a human to move)."""
    while True:
        live = hub.loaded(table_id)
        if live is None or live.bot_task is None:
            return
        done, _ = await asyncio.wait([live.bot_task], timeout=timeout)
        if not done:
            raise TimeoutError(f"bots of table {table_id} still playing after {timeout}s")


async def eventually(holds: Callable[[], bool], within: float = 30.0) -> None:
    """Wait until ``holds()``: a change another connection brings (a notification heard, its
    catch-up done). Looked at every 20 ms, so a pass takes as long as the change; ``within``
    seconds is what a loaded machine may take (the suite keeps both cores busy).

    Raises:
        AssertionError: it still does not hold after ``within`` seconds.
    """
    deadline = asyncio.get_running_loop().time() + within
    while not holds():
        assert asyncio.get_running_loop().time() < deadline, f"not so within {within:g} s"
        await asyncio.sleep(0.02)
