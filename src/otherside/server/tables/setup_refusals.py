"""A table's setup refused, in the reader's language: a bad game, player count, option, pace
or bot spec.

The checks stay where each thing is written — :class:`~otherside.server.tables.pace.Pace`, the
adapters' options, :mod:`otherside.bots.spec` (which the terminal uses too) — and refuse with
an English ``ValueError``. Here, at the adapter boundary, each of those sentences is matched (as
:mod:`.refusals` matches the engines') to a stable ``problem`` and a catalog message with its
fields: a refusal ``bad_request`` (the table's game, players, options, pace)
or ``bad_bot`` carries ``{"problem": …, fields…}`` as its ``params`` and is said in the reader's
language. ``tests/server/test_setup_refusals.py`` checks that every refusal those checks give
is known; one no pattern knows still says its English ``reason`` (problem ``other``).
"""

from __future__ import annotations

import re
from typing import Any

from otherside.i18n import N_
from otherside.server.tables.refusals import first_match

OTHER = "other"
VALUE = r"(?P<value>.+)"
NAME = r"'(?P<{}>[^']*)'"

# problem -> (the English sentence of the check, the catalog's words with its groups)
PROBLEMS: dict[str, tuple[str, str]] = {
    # The game and its players (adapters.get_adapter, seat_rules.new_table).
    "no_game": (
        rf"unknown game {NAME.format('game')}; this server offers: (?P<games>.*)",
        N_("no game '{game}' on this server; it offers: {games}"),
    ),
    "player_count": (
        r"(?P<title>.+) is for (?P<counts>[\d, ]+) players, not (?P<wanted>-?\d+)",
        N_("{title} is for {counts} players, not {wanted}"),
    ),
    # The table's options (adapters.GameAdapter.clean_options, OptionSpec.clean).
    "unknown_option": (
        rf"unknown option {NAME.format('option')} for (?P<game>\w+); options: (?P<known>.*)",
        N_("{game} has no option '{option}'; its options: {known}"),
    ),
    "option_choice": (
        rf"option {NAME.format('option')} must be one of (?P<choices>.*), not {VALUE}",
        N_("the option '{option}' is one of {choices}, not {value}"),
    ),
    "option_bool": (
        rf"option {NAME.format('option')} must be true or false, not {VALUE}",
        N_("the option '{option}' is true or false, not {value}"),
    ),
    "option_seat": (
        rf"option {NAME.format('option')} must be 'random' or a seat from 0 to (?P<last>\d+), "
        rf"not {VALUE}",
        N_("the option '{option}' is 'random' or a seat from 0 to {last}, not {value}"),
    ),
    # The pace (tables/pace.py: Pace.parse).
    "pace_shape": (
        r"pace must be an object such as .*",
        N_('the pace is a JSON object, for example {{"kind": "live", "minutes": 10}}'),
    ),
    "pace_rounds_only": (
        r"pace: this game is timed by its rounds, players have no clock",
        N_("this game is timed by its rounds: its players have no clock"),
    ),
    "pace_not_rounds": (
        r"pace: only a game timed by its rounds has the pace 'rounds'",
        N_("only a game timed by its rounds has the pace 'rounds'"),
    ),
    "pace_rounds_alone": (
        r"pace: rounds take no other setting",
        N_("the pace 'rounds' takes no other setting"),
    ),
    "pace_kind": (
        rf"pace: kind must be 'live' or 'turn', not {VALUE}",
        N_("the pace's kind is 'live' or 'turn', not {value}"),
    ),
    "pace_setting": (
        rf"pace: (?P<kind>\w+) has no {NAME.format('setting')}; it takes (?P<known>.*)",
        N_("the pace '{kind}' has no setting '{setting}'; it takes {known}"),
    ),
    "pace_range": (
        rf"pace: (?P<setting>\w+) must be a number from (?P<low>[\d.]+) to (?P<high>[\d.]+), "
        rf"not {VALUE}",
        N_("the pace's {setting} is a number from {low} to {high}, not {value}"),
    ),
    "pace_reminder": (
        r"pace: the reminder \((?P<remind>[\d.]+) days\) must come before the end "
        r"\((?P<days>[\d.]+) days\)",
        N_("the reminder ({remind} days) must come before the end of the turn ({days} days)"),
    ),
    # A bot spec (bots/spec.py: BotSpec.parse, checked).
    "bot_syntax": (
        rf"bot {NAME.format('bot')}: options are written name:key=value",
        N_("bot '{bot}': its options are written name:key=value"),
    ),
    "bot_unnamed": (
        rf"bot {NAME.format('bot')}: a bot spec starts with the bot's name, e.g. 'greedy'",
        N_("bot '{bot}': a bot is named first, for example 'greedy'"),
    ),
    "bot_unknown": (
        rf"unknown (?P<game>\w+) bot {NAME.format('bot')}; known: (?P<known>.*)",
        N_("{game} has no bot '{bot}'; its bots: {known}"),
    ),
    "bot_option": (
        rf"(?P<game>\w+) bot {NAME.format('bot')} has no option {NAME.format('option')}; "
        r"options: (?P<known>.*)",
        N_("the {game} bot '{bot}' has no option '{option}'; its options: {known}"),
    ),
    "bot_number": (
        rf"bot {NAME.format('bot')}: its options are written name:key=number",
        N_("bot '{bot}': its options are written name:key=number"),
    ),
    "bot_range_capped": (
        r"(?P<bot>\w+)'s (?P<option>\w+) must be from (?P<low>[\d.]+) to (?P<high>[\d.]+) "
        r"(?P<unit>\w+) \(this server's cap\)",
        N_("the {bot} bot's {option} is from {low} to {high} {unit} (this server's cap)"),
    ),
    "bot_range": (
        r"(?P<bot>\w+)'s (?P<option>\w+) must be from (?P<low>[\d.]+) to (?P<high>[\d.]+) "
        r"(?P<unit>\w+)",
        N_("the {bot} bot's {option} is from {low} to {high} {unit}"),
    ),
}
_PATTERNS = [(re.compile(pattern), problem) for problem, (pattern, _words) in PROBLEMS.items()]


def problem(exc: ValueError) -> dict[str, Any]:
    """The params of a setup refusal for the check's ``exc``: its ``problem`` and fields.

    >>> problem(ValueError("pace: minutes must be a number from 0.25 to 180, not 0"))
    {'problem': 'pace_range', 'setting': 'minutes', 'low': '0.25', 'high': '180', 'value': '0'}
    >>> problem(ValueError("the moon is made of cheese"))
    {'problem': 'other', 'reason': 'the moon is made of cheese'}
    """
    reason = str(exc)
    found = first_match(_PATTERNS, reason)
    if found is None:
        return {"problem": OTHER, "reason": reason}
    name, match = found
    return {"problem": name, **match.groupdict()}


def template(params: dict[str, Any]) -> str:
    """The catalog message saying a setup refusal with ``params`` (from :func:`problem`)."""
    known = PROBLEMS.get(str(params.get("problem")))
    return known[1] if known is not None else "{reason}"
