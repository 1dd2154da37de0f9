"""The ``expectimax`` search told the top card's back (a measurement, not a player)."""

from __future__ import annotations

import random

import pytest

from otherside.bots.verso.expectimax import Chances, Lookahead
from otherside.bots.verso.expert import ExpertBot, distinct_actions
from otherside.bots.verso.value import default_net
from otherside.games import verso
from otherside.games.verso.cards import CARD_OF_FACES, orient, parse_face
from otherside.games.verso.fast import DRAW_MOVE
from otherside.research.verso_informed import TopSeen
from tests.games.verso.build import solo_midgame


def _showing(up: int, down: int) -> int:
    """The oriented card with face ``up`` up and ``down`` down."""
    return orient(CARD_OF_FACES[(up, down)], up)


@pytest.mark.parametrize("seed", [21, 22, 23, 24])
def test_expectimax_values_average_what_a_player_who_saw_the_top_would_get(seed: int) -> None:
    """Told the top's back (a measurement), each move's value is exact for that card; the honest
    value of every move is the average of those over the backs it may hide."""
    state = solo_midgame(seed, 10)
    view = verso.view(state, 0)
    world = ExpertBot._world(view, random.Random(1))
    actions, moves = distinct_actions(world, state.legal_actions())
    chances = Chances(view, world.known)
    honest = Lookahead(default_net(), chances).values(world, moves)
    top = parse_face(view["top"])
    expected = [0.0] * len(moves)
    for p, back in chances.flips(top):
        told = TopSeen(default_net(), chances, _showing(top, back)).values(world, moves)
        expected = [e + p * v for e, v in zip(expected, told, strict=True)]
    assert honest == pytest.approx(expected, abs=1e-6)
    # told the real card, a flip is a draw of its back
    real = state.top
    assert real is not None
    told = TopSeen(default_net(), chances, real).values(world, moves)
    turned = world.copy()
    turned.pile = (*world.pile[: world.pos], real ^ 1, *world.pile[world.pos + 1 :])
    as_drawn = TopSeen(default_net(), chances, real ^ 1).values(turned, [DRAW_MOVE])
    assert told[[str(a) for a in actions].index("flip")] == pytest.approx(as_drawn[0])
