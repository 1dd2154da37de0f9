"""Elo ratings: the pure formula and the rated games.

Concern → module:

- an Elo update (a duel, a table of several as pairs) → :mod:`.elo`
- which games are rated, the places a result gives, writing the new ratings when a rated game
  ends (called by :mod:`otherside.server.store.tables`), leaderboards and histories →
  :mod:`.rated`
"""
