"""The games. Each subpackage exposes ``GAME`` (a :class:`otherside.core.Game`) and its own
functions (``new_game``, ``replay``, ``view``). Games import only ``otherside.core``."""

from __future__ import annotations

import importlib

from otherside.core.game import Game

GAME_NAMES = ("verso", "versus", "rectoverso")


def get_game(name: str) -> Game:
    """The game called ``name`` (``verso``, ``versus`` or ``rectoverso``).

    Raises:
        ValueError: for an unknown name, listing the known ones.
    """
    if name not in GAME_NAMES:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(GAME_NAMES)}")
    module = importlib.import_module(f"otherside.games.{name}")
    game: Game = module.GAME
    return game
