"""The ``partner`` bot: builds towards its own side of the card, keeps what is already there
as long as its side can still be completed around it, and lifts off what is in the way.

See the package docstring for the decision in words; the constants below are its knobs.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from otherside.bots.rectoverso.completion import Completion, Verdict, culprits
from otherside.bots.rectoverso.sight import (
    Sight,
    believe,
    depth,
    fronts,
    hidden_from,
    in_front,
    other_side,
    possible_places,
    shown,
    sight_of,
    surely_free,
)
from otherside.core.game import Action
from otherside.games.rectoverso.construction import Construction, Placement, View
from otherside.games.rectoverso.notation import DONE, REVEAL, TIMEOUT, TURN, Place, Remove
from otherside.games.rectoverso.pieces import Piece
from otherside.games.rectoverso.solver import Candidate

NOISE_START = 1.0  # random spread added to placement costs at the start of a round
NOISE_PER_SECOND = 0.33  # and its growth per second, so that repeated conflicts shake loose
EXPOSED = 10.0  # cost of a cube of a piece I do not show that the partner would see
TRIES = 12  # placements checked for a completion, best first, before lifting a piece off


class PartnerBot:
    """A build partner that sees only its own side (see the package docstring).

    Args:
        shake: how fast, per second of the round, the random spread added to placement costs
            grows (0: always the cheapest placement, ties broken at random).
    """

    name = "partner"

    def __init__(self, shake: float = NOISE_PER_SECOND) -> None:
        if shake < 0:
            raise ValueError(f"shake must be >= 0, not {shake!r}")
        self.shake = float(shake)

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        for word in (TURN, REVEAL, TIMEOUT):
            if word in legal:
                return word
        sight = sight_of(view, legal)
        if sight is None:
            return legal[0]
        elapsed = float((view.get("clock") or {}).get("elapsed", 0.0))
        return self.decide(sight, legal, rng, elapsed)

    def decide(
        self, sight: Sight, legal: Sequence[Action], rng: random.Random, elapsed: float = 0.0
    ) -> Action:
        """The action for a builder who knows ``sight``, ``elapsed`` seconds into the round."""
        if sight.own == sight.target and not sight.unplaced:
            return DONE
        belief = believe(sight)
        if belief is None:  # no construction shows this view: not a view of a real table
            return _anything_but_done(sight, legal, rng)
        noise = NOISE_START + self.shake * elapsed
        allowed = -1
        if sight.partner_done:
            # Their side matched when they said done: change nothing they see.
            allowed = hidden_from(sight.occupied, other_side(sight.side), sight.card_height)
        places = {a.placement: a for a in legal if isinstance(a, Place)}
        place = _placement(sight, belief, places, allowed, rng, noise)
        if place is not None:
            return place
        removes = [a for a in legal if isinstance(a, Remove)]
        remove = _removal(sight, belief, removes, allowed, rng, noise) if removes else None
        if remove is not None:
            return remove
        if sight.partner_done:
            # Nothing left to do that keeps their side as it was when they said done: the
            # construction cannot match, so end the round now rather than at the time limit.
            return DONE
        return _anything_but_done(sight, legal, rng)


def _placement(
    sight: Sight,
    belief: Construction,
    places: Mapping[Placement, Place],
    allowed: int,
    rng: random.Random,
    noise: float,
) -> Place | None:
    """The best legal placement after which my side can still be completed, if any."""
    shows = set("".join(sight.target))
    partner = other_side(sight.side)
    occupied = sight.occupied

    def cost(option: Candidate) -> float:
        placement = option.placement
        after = occupied | option.mask
        if placement.piece.letter not in shows:
            exposed = sum(1 for c in placement.cells if not _behind(after, c, partner))
            return EXPOSED * exposed + sum(depth(y, sight.side) for _, y, _ in placement.cells)
        # A piece I show: the nearer me the cubes I see, the more room behind them is left.
        return sum(
            depth(y, sight.side)
            for x, y, z in placement.cells
            if shown(sight.target, x, z, sight.side) == placement.piece.letter
            and not _behind(after, (x, y, z), sight.side)
        )

    completion = Completion(belief, sight.target, sight.side, sight.unplaced, allowed, cost)
    if not completion.possible:
        return None
    ranked = []
    for piece, options in completion.options.items():
        mine = piece.letter in shows
        for option in options:
            if option.placement not in places:
                continue
            rank = cost(option) + noise * rng.random()
            ranked.append((not mine, rank, min(z for _, _, z in option.placement.cells), option))
    ranked.sort(key=lambda item: item[:3])
    for *_, option in ranked[:TRIES]:
        if completion.answer(option).verdict is not Verdict.NO:
            return places[option.placement]
    return None


def _behind(occupied: int, cell: tuple[int, int, int], side: str) -> bool:
    """Whether an occupied cell of the same row is nearer ``side`` than ``cell``."""
    return bool(occupied & in_front(cell, side))


def _removal(
    sight: Sight,
    belief: Construction,
    removes: list[Remove],
    allowed: int,
    rng: random.Random,
    noise: float,
) -> Remove | None:
    """The piece to lift off: one whose removal lets my side be completed, else one in the way
    of a wrong row (or resting on one), keeping pieces that stand in rows where I show them."""
    wrong = culprits(belief, sight.target, sight.side)
    direct = set().union(*wrong.values()) if wrong else set()
    under = _resting_on(belief, direct)
    kept = _in_wanted_rows(belief, sight.target, sight.side)
    partner_sees = fronts(sight.occupied, other_side(sight.side))

    def unseen_by_partner(piece: Piece) -> bool:
        # Sure only if no place the piece may be in holds a cube the partner sees.
        return all(not mask & partner_sees for _, mask in possible_places(sight, piece))

    def key(action: Remove) -> tuple:
        piece = action.piece
        after = belief.remove(piece)
        unplaced = (*sight.unplaced, piece)
        completion = Completion(after, sight.target, sight.side, unplaced, allowed)
        stuck = completion.answer().verdict is Verdict.NO
        sees = not unseen_by_partner(piece)
        return (
            stuck,
            sees and not stuck,
            piece not in direct,
            piece not in under,
            sees,
            (piece in kept) + noise * rng.random() / 4,
        )

    # Only lifts that cannot be refused: what rests on a piece may be hidden.
    removes = [a for a in removes if surely_free(sight, a.piece)]
    if sight.partner_done:
        removes = [a for a in removes if unseen_by_partner(a.piece)]
    scored = [(key(a), a) for a in removes]
    if not scored:
        return None
    best, remove = min(scored, key=lambda item: item[0])
    if sight.partner_done and best[0] and best[2] and best[3]:
        return None  # nothing that helps
    return remove


def _resting_on(construction: Construction, pieces: set[Piece]) -> set[Piece]:
    """The pieces that rest, directly or through others, on any of ``pieces``."""
    cells = construction.cells
    reached = set(pieces)
    frontier = list(pieces)
    while frontier:
        placement = construction.placement_of(frontier.pop())
        for x, y, z in placement.cells if placement else ():
            piece = cells.get((x, y, z + 1))
            if piece is not None and piece not in reached:
                reached.add(piece)
                frontier.append(piece)
    return reached - pieces


def _in_wanted_rows(construction: Construction, target: View, side: str) -> set[Piece]:
    """The pieces with a cube in a row where ``target`` shows that piece (seen or not)."""
    return {
        piece
        for (x, _, z), piece in construction.cells.items()
        if shown(target, x, z, side) == piece.letter
    }


def _anything_but_done(sight: Sight, legal: Sequence[Action], rng: random.Random) -> Action:
    # Not a lift that something may rest on: the table would refuse it.
    moves = [
        a
        for a in legal
        if a != DONE and not (isinstance(a, Remove) and not surely_free(sight, a.piece))
    ]
    return rng.choice(moves) if moves else legal[0]
