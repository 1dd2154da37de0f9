"""Recto Verso (placeholder during development)."""
