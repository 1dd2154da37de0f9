"""The solo ``expectimax`` search told hidden faces: what each hidden face is worth.

No player sees the back of the top card or the backs of their own tableau (V19). Telling them to
the best solo bot's search, game by game on the same piles, measures what each is worth
(``benchmarks/verso_solo_information.py``). These are measurements, not players: no seat can ask
for them, and nothing that plays imports this module.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from otherside.bots.match import Step
from otherside.bots.verso.expectimax import Chances, ExpectimaxBot, Lookahead, Outcome
from otherside.bots.verso.value import ValueNet
from otherside.games.verso.actions import VersoAction
from otherside.games.verso.cards import DOWN
from otherside.games.verso.fast import Move, World
from otherside.games.verso.schema import TableauView, VersoView
from otherside.games.verso.state import SOLO_TURNS, VersoState, card_json


class TopSeen(Lookahead):
    """The two-ply expectimax of a player who sees the back of the top card (the oriented card
    ``top``): a flip's face and what the opponent's card does after a series are known, not
    chance events."""

    def __init__(self, net: ValueNet, chances: Chances, top: int) -> None:
        super().__init__(net, chances)
        self.top = top

    def top_chances(self, world: World) -> tuple[Outcome, list[float]]:
        turns = SOLO_TURNS[self.top]  # what the opponent's card turns if it is this one
        told = [float(t == (turns if turns >= 0 else 3)) for t in range(4)]
        return [(1.0, DOWN[self.top])], told


class InformedExpectimax(ExpectimaxBot):
    """The expectimax bot told hidden faces of the game it plays.

    It follows the game through :meth:`follow` (the match loop's ``on_step``) and reads the
    state it is told about: the top card's back when ``top``, its tableau's backs when
    ``tableau``.
    """

    name = "informed"

    def __init__(self, net: ValueNet, state: VersoState, top: bool, tableau: bool) -> None:
        super().__init__(net)
        self.state, self.top, self.tableau = state, top, tableau

    def follow(self, step: Step[VersoState]) -> None:
        self.state = step.after

    def choose(
        self, view: VersoView, legal: Sequence[VersoAction], rng: random.Random
    ) -> VersoAction:
        if self.tableau:  # every card of the tableau as if it had been turned up once
            mine = view["tableaux"][0]
            told: TableauView = {
                "cards": [card_json(oc, True) for oc in self.state.tableau(0)],
                "score": mine["score"],
                "square": mine["square"],
            }
            view = view.copy()
            view["tableaux"] = [told, *view["tableaux"][1:]]
        return super().choose(view, legal, rng)

    def values(
        self, view: VersoView, world: World, moves: Sequence[Move], rng: random.Random
    ) -> Sequence[float]:
        chances = Chances(view, world.known)
        top = self.state.top
        if self.top and top is not None:
            return TopSeen(self.net, chances, top).values(world, moves)
        return Lookahead(self.net, chances).values(world, moves)
