"""The bot protocol and the registry of bots by game and name."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from otherside.core.game import Action


class Bot(Protocol):
    """Anything that picks a legal action from a view.

    Attributes:
        name: the registry name (``random``, ``greedy`` …) shown in tables and summaries.
    """

    name: str

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """Return one of ``legal``. ``view`` is ``game.view(state, player)``; nothing else."""
        ...


BotFactory = Callable[..., Bot]
_REGISTRY: dict[str, dict[str, BotFactory]] = {}
_ALIASES: dict[str, dict[str, str]] = {}


def register_bot(game: str, name: str, *aliases: str) -> Callable[[BotFactory], BotFactory]:
    """Class or function decorator: make ``factory(**options)`` available as ``name``."""

    def decorate(factory: BotFactory) -> BotFactory:
        _REGISTRY.setdefault(game, {})[name] = factory
        for alias in aliases:
            _ALIASES.setdefault(game, {})[alias] = name
        return factory

    return decorate


def _load(game: str) -> None:
    if game not in _REGISTRY:
        try:
            importlib.import_module(f"otherside.bots.{game}")
        except ModuleNotFoundError as exc:
            if exc.name != f"otherside.bots.{game}":
                raise
            if importlib.util.find_spec(f"otherside.games.{game}") is None:
                raise ValueError(f"no bots for game {game!r}") from exc
    # The random baseline plays every game, including one whose own bots are not written yet.
    _REGISTRY.setdefault(game, {}).setdefault("random", RandomBot)


def bot_names(game: str) -> list[str]:
    """The bot names (and aliases) available for ``game``, registry order."""
    _load(game)
    return [*_REGISTRY.get(game, {}), *_ALIASES.get(game, {})]


def make_bot(game: str, name: str, **options: Any) -> Bot:
    """A new bot of ``game`` called ``name`` (or an alias such as ``best``).

    Raises:
        ValueError: for an unknown name, listing the known ones; for an option the bot does not
            take, listing the ones it does.
    """
    _load(game)
    real = _ALIASES.get(game, {}).get(name, name)
    factory = _REGISTRY.get(game, {}).get(real)
    if factory is None:
        known = ", ".join(bot_names(game))
        raise ValueError(f"unknown {game} bot {name!r}; known: {known}")
    params = inspect.signature(factory).parameters
    if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        unknown = sorted(set(options) - set(params))
        if unknown:
            takes = ", ".join(params) or "none"
            raise ValueError(
                f"{game} bot {name!r} has no option {', '.join(unknown)}; its options: {takes}"
            )
    return factory(**options)


class RandomBot:
    """Picks uniformly among the legal actions: the baseline for every game."""

    name = "random"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        return rng.choice(list(legal))
