"""Recto Verso bots: ``partner`` (alias ``best``), a build partner for the cooperative levels
and the rounds of 3–6 players, who sees only its own side.

What it uses (R17): from the view, its own side of the card, its own view of the construction,
the top view, the unplaced pieces, who has said done, and the clock's ``elapsed``; from the
legal actions, which placed pieces are on top of some column (it lifts only those that nothing
can rest on wherever the hidden cubes are). Nothing else: not the other side, the
partner's view, the placements, the card's number, nor anything from an earlier decision (a
fresh bot may decide every action). :mod:`.sight` turns this into geometry: as no cube floats
(R5), every column is solid up to the top view's cube, so the occupied cells are known exactly;
each colour is one piece, so the top view and its own view say which piece holds the cubes they
show; an arrangement of the placed pieces that fills the occupied cells and agrees with all of
that stands in for the cubes it cannot see.

How it decides, one action at a time:

1. Between rounds, ``turn`` or ``reveal`` when it is the active player; ``timeout`` when that is
   all that is left.
2. ``done`` when its own view is its side of the card and every piece is placed, and only then
   (but see 6).
3. Otherwise it asks :mod:`.completion` whether the unplaced pieces can still finish its own side
   around what is on the site, placements only (an exact search on one side, like the card
   solver's, within a node budget). If so, it places a piece: pieces its side shows first, each
   as near its own side as it can (leaving the depth behind to the partner); pieces its side
   does not show only after those, and then where cubes already hide them from the partner if
   it can, since they are most likely the partner's. Among the cheapest few legal placements it
   takes the first after which its side can still be finished.
4. If not (the partner's pieces, or its own, are in the way), it lifts a piece off: one after
   whose removal its side can be finished and that the partner does not see, if there is one;
   else the piece in the way in a row of its view that is wrong (showing another colour,
   something where the card shows nothing, no room in front for the piece to come), or one
   resting on it; it keeps pieces that stand in a row where its side shows them.
5. Costs get a random spread that grows with the round's elapsed seconds (``shake``), so that
   two partners who keep undoing each other's placement of a piece both shown from their sides
   try other placements until one suits both.
6. Once the partner has said done, it changes nothing the partner sees: new cubes only where
   cubes already hide them from the partner, lifts only of pieces the partner cannot see. If its
   side cannot be finished that way the construction cannot match, and it says ``done`` at once
   so the table moves on instead of waiting for the time limit.

Every decision takes a few milliseconds (``benchmarks/rectoverso_partners.py`` measures them).
"""

from __future__ import annotations

from otherside.bots.base import register_bot
from otherside.bots.rectoverso.partner import PartnerBot

register_bot(
    "rectoverso",
    "partner",
    "best",
    description="Builds towards its own side from what it sees, and works round its partner.",
    strength="two partners match 90% of cards within 120 s, median 13 s",
    quick=True,
)(PartnerBot)

__all__ = ["PartnerBot"]
