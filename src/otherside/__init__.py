"""otherside: exact rules engines, bots and tables for Verso, VERSUS and Recto Verso."""

__version__ = "0.1.0"
