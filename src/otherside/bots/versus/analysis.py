"""Post-game analysis of a VERSUS game by the ``search`` bot, the way lichess judges a game.

The position before each ply is searched once with a small fixed budget (:func:`assess`):
that gives the engine's ply and its value, and the played ply is valued by the same search to
the same depth. Values become the *expected result* of the first player (Blue) in [-1, 1] (1 a
sure win, 0 even or a draw, -1 a sure loss) by :func:`expected_result`. A ply's evaluation is
the value after it; its judgement comes from the drop in expected result, for the player who
made it, from the engine's ply to the played one (:func:`judgement`, with lichess's thresholds
on its winning chances, which share this scale). Both values come from one search horizon, so
a ply is not judged by the parity of two different searches.

Pure: the server runs :func:`assess` in its bot workers and combines the answers with
:func:`annotate`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from otherside.bots.versus.eval import WIN
from otherside.bots.versus.search import AlphaBeta
from otherside.games.versus import Ply, parse_action, position_from_view
from otherside.games.versus.notation import ply_of_code

JUDGEMENTS: tuple[tuple[float, str], ...] = (
    (0.3, "blunder"),
    (0.2, "mistake"),
    (0.1, "inaccuracy"),
)
"""The smallest drop in expected result (for the player who moved) of each judgement, worst
first: lichess's thresholds on its winning chances in [-1, 1] (``Advice`` in lila's analyse
module)."""

SCALE = 4.0
"""Points of evaluation (S14 segments) that make an expected result of tanh(1) ≈ 0.76: four
points ahead in locked or near-locked material is most of a won game."""

SURE = WIN / 2
"""Search values beyond this are a forced end found by the search, not material."""


def expected_result(value: float) -> float:
    """The expected result in [-1, 1] of a search value in points (lichess maps centipawns to
    winning chances with a logistic curve; tanh is the same curve on [-1, 1]).

    >>> expected_result(0.0), expected_result(WIN + 3), expected_result(-WIN)
    (0.0, 1.0, -1.0)
    >>> round(expected_result(4.0), 2)
    0.76
    """
    if value >= SURE:
        return 1.0
    if value <= -SURE:
        return -1.0
    return math.tanh(value / SCALE)


def judgement(drop: float) -> str | None:
    """The judgement of a ply that lost ``drop`` expected result for its player.

    >>> judgement(0.05), judgement(0.15), judgement(0.25), judgement(0.9)
    (None, 'inaccuracy', 'mistake', 'blunder')
    """
    for threshold, name in JUDGEMENTS:
        if drop >= threshold:
            return name
    return None


@dataclass(frozen=True)
class Assessment:
    """One ply weighed against the engine: the engine's ply in the position before it, and
    the first player's expected result in [-1, 1] after the engine's ply and after the ply
    played, both searched to the same depth (so that the two compare fairly)."""

    best: str
    best_value: float
    played_value: float


def assess(view: Mapping[str, Any], played: str, think: float, depth: int) -> Assessment:
    """Weigh ``played`` in the position of ``view`` (before it): a search of at most ``depth``
    plies and ``think`` seconds finds the engine's ply and its value; the played ply is then
    searched to the depth the engine's ply reached.

    The search runs without contempt: a draw is worth 0 to both players, as the result is.

    Raises:
        ValueError: the game is over in ``view`` or ``played`` is not a legal ply there.
    """
    position = position_from_view(view)
    if position.end_reason is not None:
        raise ValueError("the game is over in this position: there is no ply to weigh")
    action = parse_action(played)
    moves = position.moves()
    if not isinstance(action, Ply) or action.code not in moves:
        raise ValueError(f"{played!r} is not a legal ply in this position")
    searcher = AlphaBeta(contempt=0.0)
    best = searcher.best_move(position, think, depth)
    reached = max(1, searcher.depth_reached)
    best_value = searcher.value_of(position, best, reached)
    played_value = (
        best_value if action.code == best else searcher.value_of(position, action.code, reached)
    )
    sign = 1.0 if position.to_move == 0 else -1.0
    return Assessment(
        str(ply_of_code(best)),
        expected_result(sign * best_value),
        expected_result(sign * played_value),
    )


@dataclass(frozen=True)
class PlayedPly:
    """A ply of the game: its number among the game's actions (1 for the first action), its
    notation and the seat that played it."""

    number: int
    played: str
    seat: int


def annotate(ply: PlayedPly, weighed: Assessment) -> dict[str, Any]:
    """The analysis of one ply: ``ply``, ``seat``, ``played``, ``best`` (the engine's ply in the
    position before it), ``eval`` (the first player's expected result after it), ``drop`` (the
    expected result its player lost against the engine's ply) and ``judgement``."""
    sign = 1.0 if ply.seat == 0 else -1.0
    drop = max(0.0, sign * (weighed.best_value - weighed.played_value))
    return {
        "ply": ply.number,
        "seat": ply.seat,
        "played": ply.played,
        "best": weighed.best,
        "eval": round(weighed.played_value, 4),
        "drop": round(drop, 4),
        "judgement": judgement(drop),
    }
