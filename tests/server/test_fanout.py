"""The ``view`` frames a move sends are built from plain data for speed: each is exactly what
the documented :class:`ViewMessage` model would have written, for every game, seated or not.
Run on the hub with the store in memory."""

from __future__ import annotations

import json
import random

import pytest

from otherside.core.simultaneous import actors, legal_actions_of
from otherside.server.live.protocol import ViewMessage
from otherside.server.tables import seating
from otherside.server.tables.hub import TableHub
from otherside.server.tables.play import Play
from tests.server.conftest import ADA, BOB, Recorder


@pytest.mark.parametrize("game", ["verso", "versus", "rectoverso"])
async def test_each_view_frame_is_the_view_message_the_model_writes(
    hub: TableHub, game: str
) -> None:
    table = (await seating.create(hub, ADA, game, 2, {})).id
    await hub.ask(table, seating.Join(BOB))
    watchers = [Recorder(ADA), Recorder(BOB), Recorder(None)]
    for watcher in watchers:
        await hub.attach(table, watcher)
    await hub.ask(table, seating.Start(ADA))
    live = (await hub.actor(table)).live
    rng = random.Random(7)
    for _ in range(6):
        assert live.state is not None
        if live.state.is_over:
            break
        seat = actors(live.state)[0]
        user = ADA if live.info.seats[seat].user_id == ADA.id else BOB
        action = rng.choice(legal_actions_of(live.state, seat))
        await hub.ask(table, Play(user, live.info.version, str(action)))
    views = [t for w in watchers for t in w.texts if t.startswith('{"type":"view"')]
    assert len(views) >= 3 * 2
    for text in views:
        parsed = ViewMessage.model_validate_json(text)
        assert parsed.model_dump_json() == text
    seen = {json.loads(t)["seat"] for t in views}
    assert seen == {0, 1, None}
    # A spectator is offered no action; a seated player whose turn it is is.
    assert all(json.loads(t)["legal"] == [] for t in watchers[2].texts if '"type":"view"' in t)
    assert any(json.loads(t)["legal"] for w in watchers[:2] for t in w.texts if '"view"' in t)
