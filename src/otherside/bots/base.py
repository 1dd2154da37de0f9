"""The bot protocol, and the registry of bots by game and name with what the lobby shows of them."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from otherside.games import get_game

V = TypeVar("V", contravariant=True)
A = TypeVar("A")
T = TypeVar("T")


class Bot(Protocol[V, A]):
    """Anything that picks a legal action (of type ``A``) from a view (of type ``V``).

    Attributes:
        name: the registry name (``random``, ``greedy`` …) shown in tables and summaries.
    """

    name: str

    def choose(self, view: V, legal: Sequence[A], rng: random.Random) -> A:
        """Return one of ``legal``. ``view`` is ``game.view(state, player)``; nothing else."""
        ...


BotFactory = Callable[..., Bot[Any, Any]]


@dataclass(frozen=True)
class BotInfo:
    """What a lobby shows of a bot.

    Attributes:
        name: the registry name.
        description: one line: how it plays.
        strength: a short measured figure (``benchmarks/``), e.g. "solo mean 46.8 VP".
        players: the player counts at which it is offered: at each of them it plays differently
            from every other bot offered there.
        aliases: other names that make the same bot (``best``).
    """

    name: str
    description: str
    strength: str
    players: tuple[int, ...]
    aliases: tuple[str, ...] = ()


_REGISTRY: dict[str, dict[str, BotFactory]] = {}
_ALIASES: dict[str, dict[str, str]] = {}
_INFO: dict[str, dict[str, tuple[str, str, tuple[int, ...] | None, tuple[str, ...]]]] = {}


def register_bot(
    game: str,
    name: str,
    *aliases: str,
    description: str = "",
    strength: str = "",
    players: Sequence[int] | None = None,
) -> Callable[[BotFactory], BotFactory]:
    """Class or function decorator: make ``factory(**options)`` available as ``name``.

    Args:
        game: the game's name.
        name: the bot's name; ``aliases`` make the same bot.
        description: one line for the lobby (default: the first line of the factory's docstring).
        strength: a measured figure for the lobby.
        players: the player counts at which the lobby offers it (default: every count of the
            game). ``make_bot`` makes it at any count.
    """

    def decorate(factory: BotFactory) -> BotFactory:
        _REGISTRY.setdefault(game, {})[name] = factory
        for alias in aliases:
            _ALIASES.setdefault(game, {})[alias] = name
        doc = (factory.__doc__ or "").strip().splitlines()
        _INFO.setdefault(game, {})[name] = (
            description or (doc[0] if doc else name),
            strength,
            tuple(players) if players is not None else None,
            aliases,
        )
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
    if "random" not in _REGISTRY.get(game, {}):
        register_bot(game, "random")(RandomBot)


def bot_names(game: str) -> list[str]:
    """The bot names (and aliases) available for ``game``, registry order."""
    _load(game)
    return [*_REGISTRY.get(game, {}), *_ALIASES.get(game, {})]


def bot_info(game: str) -> list[BotInfo]:
    """What the lobby shows of each bot of ``game`` (names, not aliases), registry order."""
    _load(game)
    try:
        every = tuple(get_game(game).player_counts)
    except ValueError:  # a game the registry knows only by its bots (tests' toy games)
        every = ()
    return [
        BotInfo(name, description, strength, players or every, aliases)
        for name, (description, strength, players, aliases) in _INFO.get(game, {}).items()
    ]


def make_bot(game: str, name: str, **options: Any) -> Bot[Any, Any]:
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

    def choose(self, view: object, legal: Sequence[T], rng: random.Random) -> T:
        return rng.choice(list(legal))
