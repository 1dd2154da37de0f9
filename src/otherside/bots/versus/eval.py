"""The VERSUS evaluation shared by the ``greedy`` and ``search`` bots.

A position is scored for one player, in points of S14:

* **locked material** — the score as it stands (stones on targets never change again);
* **loose stones** — each unlocked stone is worth its value to its controller, weighted by how
  close it stands to the nearest free target (one step away it is nearly a point in hand; far
  away it is mostly a stone the opponent may still steal). A stone counts for its controller
  and against the other player, so stealing a stone counts twice, as it should.

Threats (stones the enemy VERSUS could pull next ply) are left to the search, which sees them.

Finished positions score ``±WIN`` plus the final difference, so a sure win beats any material.
"""

from __future__ import annotations

from otherside.games.versus.hex import DISTANCE
from otherside.games.versus.rules import Position

WIN = 1000.0
"""Value of a won game (before the final score difference is added)."""

PROXIMITY = (1.0, 0.6, 0.42, 0.32, 0.26, 0.22, 0.2, 0.18, 0.17, 0.16, 0.15)
"""Weight of a loose stone's value by its distance to the nearest free target."""

CONTROL_FLOOR = 0.15
"""Weight of a loose stone when every target is far or taken (it may still be useful)."""


def terminal_value(position: Position, player: int) -> float:
    """The value of a finished position for ``player``: ±WIN plus the score difference."""
    scores = position.scores()
    diff = scores[player] - scores[1 - player]
    if diff > 0:
        return WIN + diff
    if diff < 0:
        return -WIN + diff
    return 0.0


def evaluate(position: Position, player: int) -> float:
    """Static value of ``position`` for ``player`` (positive: good for ``player``)."""
    if position.end_reason is not None:
        return terminal_value(position, player)
    ed = position.edition
    board, is_target, values, owners = position.board, ed.is_target, ed.values, position.owners
    free = [t for t in ed.targets if not board[t]]
    mine = theirs = 0.0
    for k, cell in enumerate(position.cells):
        owner = owners[k]
        if is_target[cell]:
            if owner == player:
                mine += values[k][owner]
            else:
                theirs += values[k][owner]
            continue
        row = DISTANCE[cell]
        nearest = min([row[t] for t in free]) if free else len(PROXIMITY) - 1
        weight = PROXIMITY[nearest] if nearest < len(PROXIMITY) else CONTROL_FLOOR
        if owner == player:
            mine += values[k][owner] * weight
        else:
            theirs += values[k][owner] * weight
    return mine - theirs
