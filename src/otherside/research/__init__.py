"""Measurements that are not players.

- :mod:`~otherside.research.verso_solver`: the clairvoyant solver of solo Verso, the exact best
  score of a pile knowing every face, and a line of play reaching it: the ceiling the solo bots
  are measured against.
- :mod:`~otherside.research.verso_stats`: the simulator's Verso observers (squares per game,
  the ceiling of each solo pile, where the points of a solo game come from next to the
  clairvoyant's line).
- :mod:`~otherside.research.verso_training`: TD(0) self-play that learns the ``expectimax`` bot's
  value tables (``otherside verso train-value``).
- :mod:`~otherside.research.verso_informed`: the ``expectimax`` search told hidden faces, to
  measure what each is worth (``benchmarks/verso_solo_information.py``).

Research may import bots; no bot, no play command of the CLI and nothing of the server imports
research (``tests/test_layers.py``).
"""
