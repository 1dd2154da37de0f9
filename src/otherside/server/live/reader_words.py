"""A table's pace and its bots in the reader's words, for the API and the websocket.

The wire keeps the machine fields (``pace``, a seat's ``bot`` spec) and adds beside them words
for people (``pace_text``, ``bot_label``, a bot seat's ``name``: see
:func:`~otherside.server.live.wire.seat_names`). Those words are said here in
the reader's language through the same catalog messages as the pages' ``web/js/core/words.js``
(``paceWords``, ``botWords``), so that a program or a page that shows the server's words reads
what the pages would have said. Numbers are written as the reader's locale writes them.

>>> pace_words(Pace(), "de")
'Live · 10 Min. + 5 s pro Zug'
>>> bot_words("search:think=0.5", "fr")
'Bot chercheur · 0,5 s par coup'
>>> numbered_words("greedy", 2, "en")
'Greedy bot 2'
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from babel.numbers import format_decimal

from otherside.bots.spec import THINK, BotSpec
from otherside.i18n import N_, Nn_, say, translations
from otherside.server.tables.pace import Pace

# The registry's bots by what they are (words.js: BOT_NAMES); another bot is "{name} bot".
BOT_NAMES = {
    "ismcts": N_("Tree-search bot"),
    "expectimax": N_("Look-ahead bot"),
    "partner": N_("Bot partner"),
    "random": N_("Random bot"),
    "greedy": N_("Greedy bot"),
    "expert": N_("Expert bot"),
    "best": N_("Best bot"),
    "search": N_("Search bot"),
    "alphabeta": N_("Alpha-beta bot"),
}
OTHER_BOT = N_("{name} bot")
THINK_WORDS = N_("{seconds} s a move")
ROUNDS = N_("Timed rounds — no player clock")
TURN = Nn_("Turn-based · {count} day a move", "Turn-based · {count} days a move")
LIVE = N_("Live · {minutes} min + {seconds} s a move")
LIVE_NO_INCREMENT = N_("Live · {minutes} min for the game")


# Babel formats a number in tens of microseconds, and every table message says its pace: the
# few paces, bots and languages in use are said once each.
@lru_cache(maxsize=1024)
def number(value: float, language: str) -> str:
    """``value`` as ``language`` writes a number (``0,5`` in German).

    >>> number(0.5, "de"), number(10.0, "en"), number(1.25, "nl")
    ('0,5', '10', '1,25')
    """
    return format_decimal(value, locale=language)


@lru_cache(maxsize=1024)
def pace_words(pace: Pace, language: str) -> str:
    """The pace ``pace`` for people in ``language`` (the lobby's and the table's words).

    >>> pace_words(Pace(kind="turn", days=1), "nl"), pace_words(Pace(kind="rounds"), "en")
    ('Beurt voor beurt · 1 dag per zet', 'Timed rounds — no player clock')
    """
    if pace.kind == "rounds":
        return say(language, ROUNDS)
    if pace.kind == "turn":
        # The plural form is chosen by the whole days; a fraction (1.5 days) reads as many.
        whole = int(pace.days) if pace.days == int(pace.days) else 2
        form = translations(language).ngettext(*TURN, whole)
        return form.format(count=number(pace.days, language))
    minutes = number(pace.minutes, language)
    if pace.increment:
        return say(language, LIVE, minutes=minutes, seconds=number(pace.increment, language))
    return say(language, LIVE_NO_INCREMENT, minutes=minutes)


def _name(spec: BotSpec, language: str) -> str:
    if spec.name in BOT_NAMES:
        return say(language, BOT_NAMES[spec.name])
    return say(language, OTHER_BOT, name=spec.name.capitalize())


def _settings(spec: BotSpec, language: str) -> list[str]:
    said = []
    for key, value in spec.options:
        shown = number(value, language) if isinstance(value, int | float) else str(value)
        said.append(say(language, THINK_WORDS, seconds=shown) if key == THINK else f"{key} {shown}")
    return said


@lru_cache(maxsize=1024)
def bot_words(spec: str, language: str) -> str:
    """The bot ``spec`` with its settings for people in ``language`` (a seat's
    ``bot_label``, a bot choice's ``label``).

    >>> bot_words("partner", "de"), bot_words("greedy", "nl")
    ('Bot-Partner', 'Gretige bot')
    """
    parsed = BotSpec.parse(spec)
    return " · ".join([_name(parsed, language), *_settings(parsed, language)])


@lru_cache(maxsize=1024)
def numbered_words(spec: str, number: int, language: str) -> str:
    """The bot ``spec`` as the ``number``-th (from 1) of a table's bots said alike, in
    ``language``: the number follows the bot's name, before its settings.

    >>> numbered_words("search:think=2", 1, "de")
    'Such-Bot 1 · 2 s pro Zug'
    """
    parsed = BotSpec.parse(spec)
    return " · ".join([f"{_name(parsed, language)} {number}", *_settings(parsed, language)])


def choices_said(game: dict[str, Any], language: str) -> dict[str, Any]:
    """A game's description for the lobby (``GameAdapter.to_json``) with each bot choice's
    ``label`` in ``language`` (its ``spec`` and options unchanged)."""
    choices = [
        {**choice, "label": bot_words(choice["spec"], language)}
        for choice in game.get("bot_choices", [])
    ]
    return {**game, "bot_choices": choices}
