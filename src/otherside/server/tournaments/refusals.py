"""Why an event refuses a request: :class:`EventRefused`, a stable code with its parameters
and an English template (a catalog message); the HTTP routes answer it with its status.
Nothing changed when it is raised."""

from __future__ import annotations

from typing import Any

from otherside.i18n import N_
from otherside.server.tables import setup_refusals

# code -> (HTTP status, the English template of its words)
CODES: dict[str, tuple[int, str]] = {
    "no_event": (404, N_("no event '{event}'")),
    "bad_game": (422, N_("no game '{game}' on this server; it offers: {games}")),
    "bad_kind": (422, N_("an event is 'swiss' or 'round-robin', not '{kind}'")),
    "round_robin_groups": (
        422,
        N_("a round-robin is for tables of two; tables of {size} play a Swiss event"),
    ),
    "bad_rounds": (422, N_("a Swiss event has 1 to {most} rounds, not {rounds}")),
    "rounds_of_round_robin": (
        422,
        N_("a round-robin's rounds follow from its entrants: leave 'rounds' out"),
    ),
    "bad_group_size": (422, N_("{game} tables hold {least} to {most} players here, not {size}")),
    "bad_max_entrants": (422, N_("an event takes {least} to {most} entrants, not {given}")),
    "bad_open_to": (422, N_("an event is open to 'people', 'bots' or 'both', not '{open_to}'")),
    "bad_name": (422, N_("an event's name has 1 to {most} characters")),
    "guests_cannot_enter": (403, N_("sign up to host or enter an event (guests cannot)")),
    "not_host": (403, N_("only the event's host ({host}) may do this")),
    "event_started": (409, N_("the event has started: entrants cannot change now")),
    "already_entered": (409, N_("you have already entered this event")),
    "not_entered": (409, N_("you have not entered this event")),
    "event_full": (409, N_("the event is full ({most} entrants)")),
    "closed_to_people": (409, N_("this event is for bots only")),
    "closed_to_bots": (409, N_("this event is for people only")),
    "bot_accounts_open_to": (
        422,
        N_("an event open to people and bots seats them together: 'bot_accounts' cannot be off"),
    ),
    "too_few_entrants": (409, N_("the event needs at least {least} entrants to start")),
    "bad_bot": (422, "{reason}"),  # said by its params' problem (tables/setup_refusals.py)
    "too_many_events": (
        429,
        N_("you already host {most} events not yet started: start one first"),
    ),
    "too_many_bot_events": (
        429,
        N_("you already run {most} events of built-in bots only: wait until one ends"),
    ),
}


class EventRefused(Exception):
    """A request an event refuses: ``code`` (one of :data:`CODES`) and ``params``."""

    def __init__(self, code: str, **params: Any) -> None:
        if code not in CODES:
            raise ValueError(f"unknown event refusal {code!r}")
        self.code = code
        self.params = params
        super().__init__(self.template.format(**params))

    @property
    def status(self) -> int:
        """The HTTP status that answers it."""
        return CODES[self.code][0]

    @property
    def template(self) -> str:
        """The English template of its words."""
        if self.code == "bad_bot":
            return setup_refusals.template(self.params)
        return CODES[self.code][1]
