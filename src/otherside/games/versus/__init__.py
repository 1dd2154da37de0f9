"""VERSUS: two players pull each other's stones onto six target cells with a magnetic piece.

Short spec (rule ids of ``rules/versus.md``):

* **Board (S1).** 91 hex cells, axial ``(q, r)`` with ``|q|, |r|, |q + r| ≤ 5``; six directions
  (+1,0), (−1,0), (0,+1), (0,−1), (+1,−1), (−1,+1). Geometry: :mod:`.hex`.
* **Targets (S2)**, **start (S6)**, **stone values (S4)**, **pull distance (S10)**, the
  **tug-of-war count (S11)** and the **quiet limit (S13.4)** are *decisions*, kept as data in
  :class:`.setup.VersusOptions` (the default is the project's edition; every field can change).
* **Players (S3).** Seat 0 Blue (moves first, home edge r = −5), seat 1 Brown (r = +5).
* **A turn (S7–S9).** Move one stone you control one cell onto an empty cell, or your VERSUS
  any distance in a straight line over empty cells, crossing but never stopping on a target.
  A stone on a target is locked: it never moves again but still blocks.
* **Attraction (S10, S11).** After a VERSUS move, the first piece met on each of the six lines
  from it, if an opposing unlocked stone not already adjacent, is pulled next to the VERSUS and
  flipped to the mover's colour (locked if it lands on a target). After 2 plies in a row that
  attracted a stone, the player whose colour is not its majority colour cannot attract it.
* **End (S12, S13).** After a ply: all targets filled; the player to move has no legal move; the
  trailing player cannot catch the leader; or 100 plies in a row without a lock. Also: resign,
  or a draw offer accepted (see :mod:`.state` for the offer protocol). **Score (S14):** each
  stone on a target scores its controller's segments; highest total wins, equal is a draw.

Notation (:mod:`.notation`): a cell ``q:r``; a ply ``<from>><to>`` (``2:-5>2:-1``); platform
actions ``resign``, ``offer-draw``, ``accept-draw``, ``decline-draw``. A record is
``{"game": "versus", "options": {…}, "plies": [...]}``.

A view (:func:`view`) is the whole table: the options, both VERSUS, every stone (cell, blue
segments ``b``, owner, locked, S11 count), scores, the S13.4 counter, the last action, any
pending draw offer and the outcome. :func:`position_from_view` gives bots the position back.

Performance: the rules run on :class:`.rules.Position` (tuples of ints, ply codes, precomputed
ray tables); :meth:`VersusState.legal_plies` lists board plies without platform actions.
"""

from otherside.games.versus.notation import PlatformAction, Ply, parse_action, parse_cell
from otherside.games.versus.rules import Position
from otherside.games.versus.setup import BadOptions, StoneSetup, VersusOptions
from otherside.games.versus.state import (
    GAME,
    VersusGame,
    VersusState,
    new_game,
    position_from_view,
    replay,
    view,
)

__all__ = [
    "GAME",
    "BadOptions",
    "PlatformAction",
    "Ply",
    "Position",
    "StoneSetup",
    "VersusGame",
    "VersusOptions",
    "VersusState",
    "new_game",
    "parse_action",
    "parse_cell",
    "position_from_view",
    "replay",
    "view",
]
