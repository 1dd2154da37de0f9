"""Post-game analysis by the bots (issue 35): asked for once a game is over, computed once by
the bots in the bot workers' analysis lane, kept in the database and read by every process.

- :mod:`.rows` — the ``analyses`` rows: asking, claiming, progress, the result.
- :mod:`.plans` — what each game's analysis weighs (the game replayed into jobs) and how the
  answers become its analysis.
- :mod:`.analyst` — runs the jobs of one analysis through the bot workers.
"""
