"""The Verso bots: ``random``, ``greedy`` and ``ismcts`` at every table, and for solo games
``expert`` and ``expectimax`` (alias ``best``).

- ``greedy`` (:mod:`~otherside.bots.verso.greedy`) looks one action ahead and scores the tableau
  it would leave with a tuned potential; for ``flip`` it averages over the exact candidates for
  the top card's hidden face (the V3 deck minus every card already seen).
- ``ismcts`` (:mod:`~otherside.bots.verso.ismcts`) is information-set Monte Carlo tree search
  (:mod:`otherside.bots.ismcts`) over positions drawn from the view: its tree tries the few best
  actions by the greedy ranking at its own turns and expects the greedy choice from the other
  players, its rollouts play greedy, and it plays for the margin over the best other player.
- ``expert`` (:mod:`~otherside.bots.verso.expert`) is flat Monte Carlo on the fast model of
  Verso (:mod:`otherside.games.verso.fast`): every distinct action in hundreds of sampled worlds.
- ``expectimax`` (:mod:`~otherside.bots.verso.expectimax`) values every action exactly over the
  chance events of the next two plies, with a value learned by self-play
  (:mod:`~otherside.bots.verso.value`) below them. ``best`` is the strongest bot measured.

The solo bots are offered at solo tables only (:func:`otherside.bots.bot_info`): seated at a
table of several players anyway (``make_bot`` makes them at any count) they play as ``ismcts``,
so ``best`` is the strongest measured bot at every table. The strengths below are the figures of
``benchmarks/verso_bots.py`` and ``benchmarks/verso_tables.py`` (README, "Measured figures").

Every bot sees only the view and the legal actions; randomness comes from the injected rng.
"""

from __future__ import annotations

from otherside.bots.base import RandomBot, register_bot
from otherside.bots.verso.expectimax import ExpectimaxBot
from otherside.bots.verso.expert import ExpertBot
from otherside.bots.verso.greedy import GreedyBot
from otherside.bots.verso.ismcts import IsmctsBot

SOLO = (1,)
TABLES = (2, 3, 4, 5, 6)

register_bot(
    "verso",
    "random",
    description="Picks uniformly among the legal actions.",
    strength="the baseline; solo mean 18.9 VP",
    quick=True,
)(RandomBot)
register_bot(
    "verso",
    "greedy",
    description="One action ahead: points now plus a tuned potential of the tableau left.",
    strength="solo mean 40.4 VP",
    quick=True,
)(GreedyBot)
register_bot(
    "verso",
    "ismcts",
    description="Information-set tree search with greedy rollouts, playing for the margin.",
    strength="wins 55% against 3 greedy",
    players=TABLES,
)(IsmctsBot)
register_bot(
    "verso",
    "expert",
    description="Solo: flat Monte Carlo, every distinct action in 250 sampled worlds.",
    strength="solo mean 46.9 VP",
    players=SOLO,
)(ExpertBot)
register_bot(
    "verso",
    "expectimax",
    "best",
    description="Solo: exact expectation over the next two plies on a value learned by self-play.",
    strength="solo mean 46.8 VP",
    players=SOLO,
)(ExpectimaxBot)

__all__ = ["ExpectimaxBot", "ExpertBot", "GreedyBot", "IsmctsBot"]
