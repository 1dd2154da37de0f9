"""Elo ratings: the pure formula and the rated games."""
