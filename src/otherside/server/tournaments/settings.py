"""An event's settings as the host gives them, checked: every bad value is refused with its
own code (:mod:`.refusals`) before anything is written; the options and pace are checked as a
table of the event's size takes them (the lobby's own rules,
:mod:`~otherside.server.tables.seat_rules`). The event's ``open_to`` is its tables' ``bot_accounts``
option: an event open to people and bots cannot also turn that option off."""

from __future__ import annotations

from typing import Any

from otherside.server.tables import seat_rules
from otherside.server.tables.adapters import BOT_ACCOUNTS, available_adapters, get_adapter
from otherside.server.tournaments.records import PARTNERSHIP_GAMES, Settings
from otherside.server.tournaments.refusals import EventRefused

KINDS = ("swiss", "round-robin")
KIND_NAMES = {"swiss": "Swiss", "round-robin": "round-robin"}  # an unnamed event's name
OPEN_TO = ("people", "bots", "both")
MOST_ROUNDS = 20
MOST_ENTRANTS = 64
NAME_LENGTH = 80
GROUP_GAMES = {"verso": (3, 6)}  # games whose tables take three or more: their sizes


def sizes(game: str, group_size: int) -> tuple[int, int]:
    """The smallest and largest table of an event of ``game`` at ``group_size``."""
    return (2, 2) if group_size == 2 else (GROUP_GAMES[game][0], group_size)


def checked(
    *,
    name: str | None,
    game: str,
    kind: str,
    rounds: int | None,
    group_size: int | None,
    max_entrants: int,
    options: dict[str, Any] | None,
    pace: dict[str, Any] | None,
    rated: bool,
    open_to: str,
) -> Settings:
    """The settings of a new event, or :class:`EventRefused` saying what is wrong."""
    try:
        adapter = get_adapter(game)
    except ValueError:
        offered = ", ".join(a.name for a in available_adapters())
        raise EventRefused("bad_game", game=game, games=offered) from None
    if kind not in KINDS:
        raise EventRefused("bad_kind", kind=kind)
    least, most = GROUP_GAMES.get(game, (2, 2))
    size = group_size if group_size is not None else 2
    allowed = {2} | set(range(least, most + 1)) if game not in PARTNERSHIP_GAMES else {2}
    if size not in allowed:
        raise EventRefused(
            "bad_group_size", game=adapter.title, least=min(allowed), most=max(allowed), size=size
        )
    if kind == "round-robin":
        if size != 2:
            raise EventRefused("round_robin_groups", size=size)
        if rounds is not None:
            raise EventRefused("rounds_of_round_robin")
    elif rounds is None or not 1 <= rounds <= MOST_ROUNDS:
        raise EventRefused("bad_rounds", most=MOST_ROUNDS, rounds=rounds)
    fewest = sizes(game, size)[0]
    if not fewest <= max_entrants <= MOST_ENTRANTS:
        raise EventRefused("bad_max_entrants", least=fewest, most=MOST_ENTRANTS, given=max_entrants)
    if open_to not in OPEN_TO:
        raise EventRefused("bad_open_to", open_to=open_to)
    # Who may enter decides who sits together (a table's ``bot_accounts``, for the event):
    # people who enter an event open to both have agreed to meet programs.
    if open_to == "both" and (options or {}).get(BOT_ACCOUNTS) is False:
        raise EventRefused("bot_accounts_open_to")
    title = (name if name is not None else f"{adapter.title} {KIND_NAMES[kind]}").strip()
    if not 1 <= len(title) <= NAME_LENGTH:
        raise EventRefused("bad_name", most=NAME_LENGTH)
    # A table of the event's size takes these options and this pace (``bad_request`` if not).
    _, chosen = seat_rules.new_table(game, size, options, pace)
    return Settings(
        name=title,
        game=game,
        kind=kind,
        rounds=rounds,
        group_size=size,
        max_entrants=max_entrants,
        options=dict(options or {}),
        pace=chosen.to_json(),
        rated=rated,
        open_to=open_to,
    )
