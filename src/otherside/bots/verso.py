"""The Verso bots: ``random``, ``greedy``, ``ismcts``, the solo planner ``planner`` and ``best``.

``greedy`` looks one action ahead and scores the tableau it would leave with a hand-tuned
potential (:mod:`otherside.bots.verso_eval`); for ``flip`` it averages over the exact candidates
for the top card's hidden face (the V3 deck minus every card already seen). ``ismcts`` is
information-set Monte Carlo tree search (:mod:`otherside.bots.ismcts`) over positions drawn from
the view with :func:`otherside.games.verso.determinize`, with the greedy policy in its rollouts.
``planner`` (:mod:`otherside.bots.verso_solo`) is the solo specialist; ``best`` is an alias of
``planner``, the strongest solo bot measured (see ``benchmarks/verso_bots.py``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from otherside.bots.base import RandomBot, register_bot
from otherside.bots.verso_eval import Weights, choose_greedy, read_view
from otherside.core.game import Action


@register_bot("verso", "random")
class VersoRandomBot(RandomBot):
    """Uniform among the legal actions (the baseline)."""


@register_bot("verso", "greedy")
class GreedyBot:
    """One-action lookahead with a tableau potential and the exact hidden-face candidates."""

    name = "greedy"

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights or Weights()

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        seen = read_view(view)
        return choose_greedy(seen, legal, self.weights)
