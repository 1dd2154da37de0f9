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
class BotOption:
    """A number a host may set for a bot (``search``'s think budget), declared with the bot.

    Attributes:
        name: the factory's keyword (``think``).
        low: the least value.
        high: the largest value (a server may cap a ``think`` lower, see
            :mod:`otherside.bots.spec`).
        choices: the values the pages offer.
        default: the factory's value when the host says nothing.
        unit: what the number counts (``s``: seconds a move).
    """

    name: str
    low: float
    high: float
    choices: tuple[float, ...]
    default: float
    unit: str = "s"


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
        options: the numbers a host may set (:class:`BotOption`).
        quick: every decision takes milliseconds (``random``, ``greedy``): a server runs it in
            a lane of its own, never behind a long search.
    """

    name: str
    description: str
    strength: str
    players: tuple[int, ...]
    aliases: tuple[str, ...] = ()
    options: tuple[BotOption, ...] = ()
    quick: bool = False


@dataclass(frozen=True)
class _Entry:
    """One bot's registry entry: how to make it and what is shown of it."""

    factory: BotFactory
    description: str
    strength: str
    players: tuple[int, ...] | None
    aliases: tuple[str, ...]
    options: tuple[BotOption, ...]
    quick: bool


_REGISTRY: dict[str, dict[str, _Entry]] = {}
_ALIASES: dict[str, dict[str, str]] = {}


def register_bot(
    game: str,
    name: str,
    *aliases: str,
    description: str = "",
    strength: str = "",
    players: Sequence[int] | None = None,
    options: Sequence[BotOption] = (),
    quick: bool = False,
) -> Callable[[BotFactory], BotFactory]:
    """Class or function decorator: make ``factory(**options)`` available as ``name``.

    Args:
        game: the game's name.
        name: the bot's name; ``aliases`` make the same bot.
        description: one line for the lobby (default: the first line of the factory's docstring).
        strength: a measured figure for the lobby.
        players: the player counts at which the lobby offers it (default: every count of the
            game). ``make_bot`` makes it at any count.
        options: the numbers a host may set for it at a table (the factory may take more).
        quick: every decision takes milliseconds, whatever the position.
    """

    def decorate(factory: BotFactory) -> BotFactory:
        doc = (factory.__doc__ or "").strip().splitlines()
        _REGISTRY.setdefault(game, {})[name] = _Entry(
            factory,
            description or (doc[0] if doc else name),
            strength,
            tuple(players) if players is not None else None,
            aliases,
            tuple(options),
            quick,
        )
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
    if "random" not in _REGISTRY.get(game, {}):
        register_bot(game, "random", quick=True)(RandomBot)


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
        BotInfo(name, e.description, e.strength, e.players or every, e.aliases, e.options, e.quick)
        for name, e in _REGISTRY.get(game, {}).items()
    ]


def bot_entry(game: str, name: str) -> BotInfo | None:
    """What the registry holds of bot ``name`` (or an alias) of ``game``; ``None`` if unknown."""
    _load(game)
    real = _ALIASES.get(game, {}).get(name, name)
    return next((i for i in bot_info(game) if i.name == real), None)


def make_bot(game: str, name: str, **options: Any) -> Bot[Any, Any]:
    """A new bot of ``game`` called ``name`` (or an alias such as ``best``).

    Raises:
        ValueError: for an unknown name, listing the known ones; for an option the bot does not
            take, listing the ones it does.
    """
    _load(game)
    real = _ALIASES.get(game, {}).get(name, name)
    entry = _REGISTRY.get(game, {}).get(real)
    if entry is None:
        known = ", ".join(bot_names(game))
        raise ValueError(f"unknown {game} bot {name!r}; known: {known}")
    factory = entry.factory
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
