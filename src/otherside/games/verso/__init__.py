"""Verso: a card game of double-sided cards for 1–6 players (rules: ``shared/rules/verso.md``).

Rules summary (rule ids of the spec):

- V1–V3 cards: 90 double-sided cards (``data/deck.json``); the two faces differ in colour,
  one is worth 1 VP and the other 3 VP, their values are cyclic neighbours; stars are 1-VP faces.
- V4–V6 setup: 15 cards per player (35 solo) dealt at random with random faces up; the first
  player is a parameter; play goes clockwise (seat i+1 after seat i).
- V7 a turn is ``draw`` (take the top card as it shows) or ``flip`` (turn it, then take it), or
  V10–V11 banking a ``series``: neighbours turn their highest card of that colour (a star only if
  alone), the banker scores the printed VP and discards the two highest cards of the series.
- V8 no two cards of the same colour and value (nor two stars of a colour) in a tableau: the
  card just gained is discarded. **Decision**: ``draw`` of a duplicating top face is illegal
  (``flip`` instead); option ``allow_duplicate_keep`` makes it legal (the card is discarded).
- V12 a square (3+ cards of every colour) scores 7 at once, again only after it was broken.
- V13–V15 the game ends when the pile is empty; from the next player on, each may bank one last
  series (no neighbour turns) or ``pass``; players with no series are skipped.
- V16–V18 solo: after each turn a simulated opponent takes the top card and may make you turn
  your highest card of its down face's colour; rating bands in :mod:`~.solo`.

Notation: faces ``B3`` / ``g4`` / ``o*`` (upper case 3 VP); cards ``UP/DOWN``; actions ``draw``,
``flip``, ``series blue 3 *4 5`` (values increasing, the star as ``*value``), ``pass``. A record is
``{"game": "verso", "players": N, "options": {...}, "pile": [...top first], "actions": [...]}``.

A view (V19, :func:`view`) holds every tableau (up faces; a down face only once it was shown),
scores, square flags, pile size, top face, discards, the events of the last action, and the
outcome; never a down face that was not shown nor the pile below its top. Its keys, and those of
the events, are typed in :mod:`~.schema` (:class:`VersoView`, :data:`VersoEvent`).

Search uses one fast representation beside the engine, :mod:`~.fast` (a position on bare
integers that changes in place, with the engine's rule tables), tested against the engine.

>>> state = new_game(players=3, seed=7)
>>> state = state.apply("flip")
>>> state.current_player, state.scores, state.is_over
(1, (0, 0, 0), False)
"""

from otherside.games.verso.actions import VersoAction, parse_action
from otherside.games.verso.cards import DECK, card_name, face_name, parse_card, parse_face
from otherside.games.verso.game import GAME, VersoGame, deal, new_game, pile_size, replay
from otherside.games.verso.schema import VersoEvent, VersoView
from otherside.games.verso.solo import DESIGNERS_BEST, RATING_BANDS, rating
from otherside.games.verso.state import VersoState
from otherside.games.verso.view import determinize, redeal, view

__all__ = [
    "DECK",
    "DESIGNERS_BEST",
    "GAME",
    "RATING_BANDS",
    "VersoAction",
    "VersoEvent",
    "VersoGame",
    "VersoState",
    "VersoView",
    "card_name",
    "deal",
    "determinize",
    "face_name",
    "new_game",
    "parse_action",
    "parse_card",
    "parse_face",
    "pile_size",
    "rating",
    "redeal",
    "replay",
    "view",
]
