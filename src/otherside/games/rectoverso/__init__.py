"""Recto Verso: two partners build, from the two sides of a card, one building of wooden pieces.

Rules: ``rules/rectoverso.md`` (R1–R17). This docstring is the short spec of the engine.

Pieces and site (R1–R6, :mod:`.pieces`, :mod:`.construction`). Eleven pieces named by colour:
black ``k``, white ``w``, grey ``a``, brown ``n`` (cubes); green ``g``, pink ``p``, violet ``v``,
orange ``o`` (bars of 2); yellow ``y`` (bar of 3); blue ``b`` (L of 3); red ``r`` (L of 4, hard
only, R2). Orientations are the 24 rotations of space, deduplicated: 1, 3, 3, 12 and 24 for
cube, bars of 2 and 3, L-3 and L-4 (an L turned over is its mirror image). Cells are
``x,y,z``: x = 0…3 left to right for the front partner, y = 0…3 front to back, z = 0… up. A
placement stays in the 4 x 4 footprint on free cells (R4) and no cube stands above an empty
cell (R5), *at every moment*: a piece is placed only where it is supported and removed only if
nothing rests on it. A finished construction uses every piece of the difficulty (R6).

Views (R7–R9). A view is a tuple of strings, one per level from the top level down, one
character per column, ``.`` empty. Front view: x = 0 on the left, the cube nearest the front.
Back view: mirrored, x = 3 on the left, the cube nearest the back. **Decision:** a view has as
many levels as the construction is tall (highest occupied level + 1); a column shows a cube in
one view exactly when it does in the other, so both views of a card have the same height and
the card says how tall the building is. On one line the levels are joined by ``/``
(``..y./kbyo``). Top view: four rows from the back row (y = 3) to the front row (y = 0), each
four space-separated cells ``<letter><z>`` (colour and level of the highest cube) or ``.``.

Cards (R10, R11, :mod:`.cards`, :mod:`.solver`). A construction matches a card when it is legal,
uses every piece and shows the card's two views; any such construction counts. The generator
places the pieces in a random order, each uniformly among its legal placements within 4 levels
(**decision**), and rejects equal views, a view of fewer than 4 colours, a building lower than 2
levels. The standard set, 1–32 easy and 33–64 hard, is generated from seed 2021 and ships in
``data/standard_cards.json``. The solver finds a matching construction, counts them, proves
there is none, and gives hints.

Notation. Placement ``yellow 0,0,0 1,0,0 2,0,0`` (cells sorted). Actions: ``place <placement>``,
``remove <piece>``, ``done``, and the table's ``turn`` (the active player turns a token and the
card is revealed, R13), ``reveal`` (next card, 2 players, R16) and ``timeout`` (R14).

Game flow (:mod:`.flow`). 3–6 players: each holds a token of every other player (two each at 3
players), shuffled face down (R12). The active player, ``turn``: their next token names the
partner; the active player builds recto (front view), the partner verso (back view); the next
card of the shuffled standard deck of the difficulty is revealed and its clock starts (R13).
Score by time (R14, a table in :data:`.flow.SCORE_TABLE`); after 120 s only ``timeout`` is left.
The next active player is the next seat (R15); the game ends when every token is turned.
2 players (R16): the partners take turns (**decision**: the rulebook does not say who reveals or
who builds which side): player 0 reveals the first card and builds recto, player 1 verso; after
every round the other partner reveals and builds recto. Seven levels with limits 90, 75, 60, 45,
30, 20, 15 s; a card built in time clears a level; the game ends at level 7 (**builder king**)
or when the 32 cards of the difficulty are used up (**decision**: the rulebook lets you retry
for ever). Each player's score is the number of levels cleared.

Real time in a turn-based contract (**decision**). Both builders act at will:
``state.apply_as(player, action)`` is the real-time entry point. ``current_player`` is the
serialisation used by ``apply`` and the match loop: the active player between rounds; during a
round the recto partner until they say ``done``, then the verso partner. A partner who said
``done`` makes no further move that round; the round ends when both have. The clock is injected
(:class:`.game.RectoVersoGame` ``clock=``, a callable returning seconds); without one, every
action takes ``seconds_per_action`` simulated seconds. Each action is stamped with its seconds
into the round. Legal actions depend on the clock only in that, once the limit has passed, the
only legal action is ``timeout``.

Record: ``{"game": "rectoverso", "players", "seed", "options": {"difficulty", ["deck"]},
"actions": [notation…], "by": [seat…], "at": [seconds into the round…]}``.

View (R17, :meth:`.game.RectoVersoGame.view`): public table data (phase, builders, done calls,
scores, level, tokens, cards left, past rounds with their card numbers and final placements),
the top view, the unplaced pieces and the clock for everyone; a builder gets only their own side
of the card (``card.front`` or ``card.back``) and their own view of the construction, never the
card number or the placements; seated players who are not building see the whole card and
construction (R17).

Spectators (**decision**). R17 speaks of the players at the table; online anyone may watch, and
a builder can watch their own table from a second, signed-out window. So ``view(state, None)``
is what *both* builders see, and nothing more, while a round is played: the public table data,
the top view (R9, which both partners see from above), the unplaced pieces and the clock; no
card, no side view, no placement. Once the round is over it is shown whole (its card number and
final placements in ``rounds``): a delay of one round, as broadcasts of live games delay them.
Between rounds ``last`` draws it for the page: the last round's card and the front and back
views of its building at the end, both sides for anyone but that round's builders, who get
their own side again (what they saw while building).

What a builder may try is a function of what they see, too. By R5 every column is solid from
the ground to its top, so the top view tells which cells are taken, and the placements listed
to a builder are exactly the legal ones; the removals listed are those of every piece on top of
some column (only those can be lifted), and one that something rests on is refused, as a hand
would feel it, with no more than that. A refusal never names the piece in the way nor lists
anything computed from the hidden construction (``legal_actions()``, the turn-based
serialisation the engine's own loops use, leaves those refusable removals out). ``redeal``
re-draws the order of the cards left and of the face-down tokens and, for a builder, the other
side of the card among the standard cards with the same seen side and the pieces they cannot
see in the construction (:mod:`.lookalike`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from otherside.games.rectoverso.cards import Card, generate, matches, standard_card
from otherside.games.rectoverso.construction import Construction, Placement
from otherside.games.rectoverso.flow import RectoVersoState
from otherside.games.rectoverso.game import RectoVersoGame
from otherside.games.rectoverso.pieces import PIECES, Piece
from otherside.games.rectoverso.solver import Solver, count_solutions, hint, solve

GAME = RectoVersoGame()


def new_game(players: int, *, seed: int | None = None, difficulty: str = "easy") -> RectoVersoState:
    """A new game of ``players`` (2: cooperative levels) at ``difficulty``, simulated clock."""
    return GAME.new_state(players, seed=seed, options={"difficulty": difficulty})


def replay(record: Mapping[str, Any]) -> RectoVersoState:
    """The state reached by a game record."""
    return GAME.replay(record)


def view(state: RectoVersoState, player: int | None) -> dict[str, Any]:
    """What ``player`` may see (R17)."""
    return GAME.view(state, player)


__all__ = [
    "GAME",
    "PIECES",
    "Card",
    "Construction",
    "Piece",
    "Placement",
    "RectoVersoGame",
    "RectoVersoState",
    "Solver",
    "count_solutions",
    "generate",
    "hint",
    "matches",
    "new_game",
    "replay",
    "solve",
    "standard_card",
    "view",
]
