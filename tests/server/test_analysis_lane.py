"""The analysis lane of the bot workers yields to live games, an analysis row is claimed by one
process at a time (SQLite and PostgreSQL), and a Recto Verso card not completed gets the
solver's construction, checked by building it."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from otherside.bots.analysis import assess
from otherside.core.game import State
from otherside.games import get_game
from otherside.games.rectoverso.cards import matches, standard_card
from otherside.games.rectoverso.construction import Construction
from otherside.games.rectoverso.notation import parse_placement
from otherside.server.analysis import plans, rows
from otherside.server.bots.workers import BotRunner, ProcessWorker
from otherside.server.clock import ManualClock
from otherside.server.store.db import Database
from otherside.server.store.models import GameTable, User
from otherside.server.store.records import MoveRow


async def test_a_live_decision_does_not_wait_behind_analyses() -> None:
    runner = BotRunner(workers=2, think_cap=5)
    state = get_game("versus").new_state(2, seed=3)
    view = get_game("versus").view(state, None)
    played = str(state.legal_actions()[0])
    legal = list(state.legal_actions())
    finished: list[str] = []

    async def analyse(label: str, table: str) -> None:
        # A long budget: the search runs its whole second.
        await runner.assess(table, ("assess", "versus", view, played, 1.0, 64), 1.0)
        finished.append(label)

    async def live() -> None:
        player_view = get_game("versus").view(state, 0)
        assert await runner.choose("live", "versus", "search:think=0.1", player_view, legal, 1)
        finished.append("live")

    try:
        # Every worker process started first: a start-up is not what is measured here.
        await asyncio.gather(*(w.warm() for w in runner.workers if isinstance(w, ProcessWorker)))
        jobs = [asyncio.create_task(analyse(f"a{i}", f"t{i % 2}")) for i in range(3)]
        await asyncio.sleep(0.1)
        jobs.append(asyncio.create_task(live()))
        await asyncio.gather(*jobs)
    finally:
        await runner.close()
    # One search worker is kept for live games: the live decision, asked last, comes first,
    # and the analyses went one at a time.
    assert finished[0] == "live" and sorted(finished[1:]) == ["a0", "a1", "a2"]
    assert runner.fallbacks == 0


def _finished_table(db: Database) -> None:
    def add(session: Any) -> None:
        session.add(User(id=1, name="host", name_key="host"))
        session.flush()
        session.add(GameTable(id="t1", game="versus", players=2, owner_id=1, status="over"))

    db.transaction(add)


def test_an_analysis_is_claimed_once_and_taken_over_when_abandoned(database_url: str) -> None:
    db = Database(database_url)
    try:
        db.migrate()
        _finished_table(db)
        clock = ManualClock()
        first, mine = db.transaction(lambda s: rows.ask(s, "t1", "versus", 10, "a", clock.now()))
        assert mine and first.status == "running" and first.total == 10
        again, mine = db.transaction(lambda s: rows.ask(s, "t1", "versus", 10, "b", clock.now()))
        assert not mine and again.owner == "a"
        db.transaction(lambda s: rows.progress(s, "t1", "b", 7, clock.now()))  # not b's
        db.transaction(lambda s: rows.progress(s, "t1", "a", 3, clock.now()))
        assert db.transaction(lambda s: rows.read(s, "t1")).done == 3  # type: ignore[union-attr]
        clock.advance(rows.STALE - timedelta(seconds=1))
        _, mine = db.transaction(lambda s: rows.ask(s, "t1", "versus", 10, "b", clock.now()))
        assert not mine  # a is still working
        clock.advance(seconds=2)
        taken, mine = db.transaction(lambda s: rows.ask(s, "t1", "versus", 10, "b", clock.now()))
        assert mine and taken.owner == "b" and taken.done == 0
        # a's late answers no longer count; b's do.
        db.transaction(lambda s: rows.finish(s, "t1", "a", "done", {"plies": []}, clock.now()))
        assert db.transaction(lambda s: rows.read(s, "t1")).status == "running"  # type: ignore[union-attr]
        db.transaction(lambda s: rows.finish(s, "t1", "b", "failed", None, clock.now()))
        clock.advance(seconds=1)
        retried, mine = db.transaction(lambda s: rows.ask(s, "t1", "versus", 10, "a", clock.now()))
        assert mine and retried.status == "running" and retried.owner == "a"
    finally:
        db.close()


def _rectoverso_game_without_a_match() -> list[tuple[MoveRow | None, State]]:
    """A 2-player Recto Verso game whose partners say ``done`` at once every round: no card is
    completed and the game ends when the cards run out."""
    state = get_game("rectoverso").new_state(2, seed=1)
    at = datetime(2026, 1, 1, tzinfo=UTC)
    states: list[tuple[MoveRow | None, State]] = [(None, state)]
    while not state.is_over:
        seat = state.current_player
        action = "reveal" if "reveal" in map(str, state.legal_actions()) else "done"
        state = state.apply(action)
        states.append((MoveRow(seat, action, at), state))
    return states


def test_a_recto_verso_card_not_completed_gets_the_solvers_construction() -> None:
    states = _rectoverso_game_without_a_match()
    work = plans.plan("rectoverso", states, get_game("rectoverso").view, plans.Budget())
    final = states[-1][1]
    assert len(work.jobs) == len(final.results) > 0
    answers = [assess(*job[1:]) for job in work.jobs]
    cards = work.combine(answers)["cards"]
    for entry, result in zip(cards, final.results, strict=True):
        card = standard_card(result.card)
        assert entry["card"] == result.card and entry["built"] == []
        # Rebuilt piece by piece, supported at every step, the solution shows the card.
        left = [parse_placement(p) for p in entry["solution"]["placements"]]
        built = Construction()
        while left:
            placeable = next(p for p in left if built.check_place(p) is None)
            built = built.place(placeable)
            left.remove(placeable)
        assert matches(built, card)
        assert entry["solution"]["front"] == list(card.front)
        assert entry["solution"]["back"] == list(card.back)
