"""How a game ended, in words: a forfeit's reason written into its outcome
(:func:`forfeit_outcome`), and every outcome's words for every reader's language.

An outcome keeps its English ``reason`` (the engines' words, a forfeit's, a stopped game's, as
stored). The pages get beside it ``words``: ``{"template", "params"}``, a catalog message and its
fields, which they say in the reader's language (``reasonWords`` in ``web/js/core/words.js``).
The engines stay free of the server: their reasons are matched here, at the adapter boundary.
"""

from __future__ import annotations

import re
from typing import Any

from otherside.i18n import N_
from otherside.server.store.records import TableInfo
from otherside.server.tables.refusals import match_template

# The engines' reasons (games/*: Outcome.reason), and the catalog's words for each.
ENGINE: list[tuple[re.Pattern[str], str]] = [
    (re.compile(pattern), template)
    for pattern, template in [
        (r"pile empty", N_("the pile is empty")),
        (r"all targets filled \(S13\.1\)", N_("every target holds a stone (S13.1)")),
        (r"no legal move \(S13\.2\)", N_("the player to move had no legal move (S13.2)")),
        (
            r"the leader is out of reach \(S13\.3\)",
            N_("the leader can no longer be caught (S13.3)"),
        ),
        (
            r"(?P<count>\d+) plies in a row without a lock \(S13\.4\)",
            N_("{count} plies in a row without a stone locked (S13.4)"),
        ),
        (r"draw agreed", N_("both players agreed to a draw")),
        (r"Blue resigned", N_("Blue resigned")),
        (r"Brown resigned", N_("Brown resigned")),
        (r"level 7 cleared: builder king", N_("level 7 cleared: builder king")),
        (r"every token is turned \(R15\)", N_("every token is turned (R15)")),
        (r"no card left \(1 level cleared\)", N_("no card left (1 level cleared)")),
        (
            r"no card left \((?P<count>\d+) levels cleared\)",
            N_("no card left ({count} levels cleared)"),
        ),
    ]
]
FORFEIT_WORDS = {
    "resigned": "resigned",
    "timeout": "ran out of time",
    "left": "left the game",
    "away": "was away; a bot plays on",
}
# A forfeit (outcome["forfeit"]["reason"]): the English the server writes after the name
# (FORFEIT_WORDS, by forfeit_outcome), and the catalog's words.
FORFEIT = {
    "resigned": ("resigned", N_("{name} resigned")),
    "timeout": ("ran out of time", N_("{name} ran out of time")),
    "left": ("left the game", N_("{name} left the game")),
    "away": ("was away; a bot plays on", N_("{name} was away; a bot plays on")),
}
# A game ended without a result (outcome["aborted"], tables/bot_tables.py).
STOPPED = N_("stopped by its host")
MOVE_LIMIT = re.compile(r"ended after (?P<moves>\d+) moves, the limit of a game with bots only")
MOVE_LIMIT_WORDS = N_("ended after {moves} moves, the limit of a game with bots only")


def words(outcome: dict[str, Any]) -> dict[str, Any] | None:
    """The catalog's words for ``outcome``'s reason, ``None`` for a reason none fits (the
    English stays the words).

    >>> words({"reason": "Ada ran out of time", "forfeit": {"seat": 0, "reason": "timeout"}})
    {'template': '{name} ran out of time', 'params': {'name': 'Ada'}}
    >>> words({"reason": "40 plies in a row without a lock (S13.4)"})["params"]
    {'count': '40'}
    """
    reason = str(outcome.get("reason") or "")
    forfeit = outcome.get("forfeit")
    if isinstance(forfeit, dict) and forfeit.get("reason") in FORFEIT:
        english, template = FORFEIT[forfeit["reason"]]
        if reason.endswith(f" {english}"):
            return {"template": template, "params": {"name": reason[: -len(english) - 1]}}
    if outcome.get("aborted"):
        if reason == STOPPED:
            return {"template": STOPPED, "params": {}}
        match = MOVE_LIMIT.fullmatch(reason)
        if match:
            return {"template": MOVE_LIMIT_WORDS, "params": match.groupdict()}
    known = match_template(ENGINE, reason)
    return None if known is None else {"template": known[0], "params": known[1]}


def with_words(outcome: dict[str, Any] | None) -> dict[str, Any] | None:
    """``outcome`` with its ``words`` (a new dict; ``None`` stays ``None``)."""
    if not outcome:
        return outcome
    said = words(outcome)
    return {**outcome, "words": said} if said else dict(outcome)


def forfeit_outcome(
    outcome: dict[str, Any], info: TableInfo, seat: int, reason: str
) -> dict[str, Any]:
    """``outcome`` of a game that ended because ``seat`` forfeited (``reason``: resigned,
    timeout, left), with the reason in words and as data."""
    name = info.seats[seat].user_name or f"Seat {seat + 1}"
    said = f"{name} {FORFEIT_WORDS.get(reason, reason)}"
    return {**outcome, "reason": said, "forfeit": {"seat": seat, "reason": reason}}
