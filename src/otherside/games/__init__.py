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
    game = _LOADED.get(name)
    if game is None:
        if name not in GAME_NAMES:
            raise ValueError(f"unknown game {name!r}; known games: {', '.join(GAME_NAMES)}")
        game = _LOADED[name] = importlib.import_module(f"otherside.games.{name}").GAME
    return game


# A server asks for its game several times a move: the import machinery is asked once.
_LOADED: dict[str, Game] = {}
