"""Bot specs: the one home of ``name`` and ``name:key=value`` (``search:think=2``).

A spec names a registered bot and the numbers its host chose for it. Everything that reads,
writes, checks or shows a spec goes through here — the server's seats, the lobby's choices, the
worker processes that make the bot, the labels people read — so that the spelling, the checks
against the registry (:mod:`otherside.bots.base`) and the fall-back to the ``random`` bot for a
game the registry has no bots for are each written once. Pages get specs already parsed
(:meth:`BotSpec.to_json`, :func:`choices`), never text to split.

``think`` is the one option a server caps: seconds a decision may take. :func:`checked` refuses
a value above the cap and :func:`capped` lowers a stored one to it (a table made before the cap
was lowered).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from otherside.bots.base import Bot, BotInfo, RandomBot, bot_entry, bot_info, bot_names, make_bot

FALLBACK = "random"
THINK = "think"
Value = bool | int | float | str


def _value(text: str) -> Value:
    """An option's value: a boolean, an integer or a number when it reads as one, else text.

    >>> _value("2"), _value("0.5"), _value("true"), _value("fast")
    (2, 0.5, True, 'fast')
    """
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            number: Value = kind(text)
        except ValueError:
            continue
        if number == number:  # not NaN
            return number
    return text


def _text(value: Value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return f"{value:g}" if isinstance(value, float) else str(value)


def _is_number(value: Value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@dataclass(frozen=True)
class BotSpec:
    """A bot by registry name with the options its host chose (sorted by key).

    Attributes:
        name: the registry name (or an alias).
        options: ``(key, value)`` pairs.
    """

    name: str
    options: tuple[tuple[str, Value], ...] = ()

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """The spec written ``text`` (syntax only; :func:`checked` asks the registry). Values
        are booleans, integers or numbers when they read as one (a simulation's
        ``ismcts:iterations=200``), else text.

        >>> BotSpec.parse("search:think=0.5")
        BotSpec(name='search', options=(('think', 0.5),))
        >>> BotSpec.parse("greedy:think")
        Traceback (most recent call last):
        ...
        ValueError: bot 'greedy:think': options are written name:key=value
        """
        name, *pairs = text.strip().split(":")
        options: dict[str, Value] = {}
        for pair in pairs:
            key, eq, value = pair.partition("=")
            if not eq or not key or not value or key in options:
                raise ValueError(f"bot {text!r}: options are written name:key=value")
            options[key] = _value(value)
        if not name:
            raise ValueError(f"bot {text!r}: a bot spec starts with the bot's name, e.g. 'greedy'")
        return cls.of(name, options)

    @classmethod
    def of(cls, name: str, options: Mapping[str, Value] | None = None) -> BotSpec:
        """The spec of ``name`` with ``options``."""
        return cls(name, tuple(sorted((options or {}).items())))

    def __str__(self) -> str:
        """The spec as text, the form stored and sent.

        >>> str(BotSpec.of("search", {"think": 2.0}))
        'search:think=2'
        """
        return ":".join([self.name, *(f"{k}={_text(v)}" for k, v in self.options)])

    def option(self, key: str) -> Value | None:
        """The value of option ``key``, ``None`` if the host did not set it."""
        return dict(self.options).get(key)

    def settings(self) -> str:
        """The options for people (empty without options).

        >>> BotSpec.parse("search:think=0.5").settings()
        '0.5 s a move'
        """
        return ", ".join(f"{v:g} s a move" if k == THINK else f"{k} {v:g}" for k, v in self.options)

    def label(self) -> str:
        """The bot with its settings, as people call it (a menu, a seat taken over).

        >>> BotSpec.parse("search:think=2").label(), BotSpec.parse("partner").label()
        ('Search bot · 2 s a move', 'Bot partner')
        """
        words = "Bot partner" if self.name == "partner" else f"{self.name.capitalize()} bot"
        settings = self.settings()
        return f"{words} · {settings}" if settings else words

    def to_json(self) -> dict[str, Any]:
        """What pages get: the text, the name, the options and the label (nothing to parse)."""
        return {
            "spec": str(self),
            "name": self.name,
            "options": dict(self.options),
            "label": self.label(),
        }


def available(game: str) -> list[str]:
    """The bot names (and aliases) that may play ``game``: the registry's, or ``random`` alone
    for a game the registry has no bots for (every game has legal actions to pick from)."""
    try:
        names = bot_names(game)
    except ValueError:
        names = []
    return names or [FALLBACK]


def infos(game: str) -> list[BotInfo]:
    """The registry's entries for ``game`` (none for a game without bots)."""
    try:
        return bot_info(game)
    except ValueError:
        return []


def _entry(game: str, name: str) -> BotInfo | None:
    try:
        return bot_entry(game, name)
    except ValueError:
        return None


def is_quick(game: str, spec: BotSpec) -> bool:
    """Whether every decision of this bot takes milliseconds (the registry says so)."""
    entry = _entry(game, spec.name)
    return entry.quick if entry is not None else spec.name == FALLBACK


def checked(game: str, text: str, think_cap: float | None = None) -> BotSpec:
    """The spec ``text`` for a seat of ``game``, checked against the registry: a known bot,
    options it declares, values in their range and ``think`` no more than ``think_cap``.

    Raises:
        ValueError: naming what is wrong and what is allowed.
    """
    spec = BotSpec.parse(text)
    known = available(game)
    if spec.name not in known:
        raise ValueError(f"unknown {game} bot {spec.name!r}; known: {', '.join(known)}")
    entry = _entry(game, spec.name)
    allowed = {o.name: o for o in (entry.options if entry is not None else ())}
    for key, value in spec.options:
        option = allowed.get(key)
        if option is None:
            takes = ", ".join(allowed) or "none"
            raise ValueError(f"{game} bot {spec.name!r} has no option {key!r}; options: {takes}")
        if not _is_number(value):
            raise ValueError(f"bot {text!r}: its options are written name:key=number")
        assert isinstance(value, int | float)
        high = option.high
        if key == THINK and think_cap is not None:
            high = max(option.low, min(high, think_cap))
        if not option.low <= value <= high:
            capped_by = " (this server's cap)" if high < option.high else ""
            raise ValueError(
                f"{spec.name}'s {key} must be from {option.low:g} to {high:g} "
                f"{option.unit}{capped_by}"
            )
    return spec


def capped(game: str, spec: BotSpec, think_cap: float) -> BotSpec:
    """``spec`` with its ``think`` (set or default) lowered to ``think_cap`` if above it."""
    entry = _entry(game, spec.name)
    think = next((o for o in (entry.options if entry else ()) if o.name == THINK), None)
    if think is None:
        return spec
    value = spec.option(THINK)
    if value is None or not _is_number(value):
        value = think.default
    assert isinstance(value, int | float)
    if value <= think_cap:
        return spec
    return BotSpec.of(spec.name, {**dict(spec.options), THINK: max(think_cap, think.low)})


def make(game: str, spec: BotSpec) -> Bot[Any, Any]:
    """A new bot for ``spec``: the registry's, or the game-agnostic random bot for a game
    without bots of its own.

    Raises:
        ValueError: an unknown bot or option (see :func:`otherside.bots.make_bot`).
    """
    try:
        return make_bot(game, spec.name, **dict(spec.options))
    except ValueError:
        if spec.name != FALLBACK or _entry(game, FALLBACK) is not None:
            raise
        return RandomBot()


def choices(
    game: str, counts: Sequence[int], think_cap: float | None = None
) -> list[dict[str, Any]]:
    """What pages offer for a bot seat of ``game``: each bot (not its aliases) once per usual
    value of its options (those within ``think_cap``), with the player counts it is offered at
    and its description (``counts`` for bots the registry does not know)."""
    entries = infos(game)
    offered: list[tuple[BotInfo | None, str]] = [(i, i.name) for i in entries] or [
        (None, name) for name in available(game)
    ]
    found: list[dict[str, Any]] = []
    for info, name in offered:
        players = list(info.players) if info is not None else list(counts)
        description = info.description if info is not None else ""
        specs = [BotSpec.of(name)]
        for option in info.options if info is not None else ():
            values = [
                v
                for v in option.choices
                if option.name != THINK or think_cap is None or v <= think_cap
            ]
            specs = [BotSpec.of(name, {option.name: v}) for v in values] or specs
        for spec in specs:
            found.append({**spec.to_json(), "players": players, "description": description})
    return found
