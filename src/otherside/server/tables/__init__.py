"""Live tables and what they run: play, clocks and deadlines, forfeits, bot turns, chat,
seats."""
