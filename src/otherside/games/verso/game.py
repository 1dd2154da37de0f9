"""New games, replays and the :class:`VersoGame` object of the core contract (V4–V6)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from otherside.core.errors import BadNotation, BadRecord, IllegalAction
from otherside.core.game import Game
from otherside.core.records import check_record_header
from otherside.core.rng import make_rng
from otherside.games.verso.cards import DECK, parse_card
from otherside.games.verso.state import Table, VersoState, seat_neighbours
from otherside.games.verso.view import redeal, view

CARDS_PER_PLAYER = 15
SOLO_PILE = 35
MAX_PLAYERS = 6
OPTION_NAMES = ("allow_duplicate_keep", "first_player")


def pile_size(players: int) -> int:
    """V4: 15 cards per player (all 90 with 6 players), 35 cards solo."""
    return SOLO_PILE if players == 1 else CARDS_PER_PLAYER * players


def deal(players: int, rng: random.Random) -> tuple[int, ...]:
    """V4: a random pile of the right size, each card with a random face up."""
    cards = rng.sample(range(len(DECK)), pile_size(players))
    return tuple(card * 2 + rng.randrange(2) for card in cards)


def _check_players(players: object) -> int:
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= MAX_PLAYERS:
        raise ValueError(
            f"players must be an integer from 1 to {MAX_PLAYERS} (V4), not {players!r}"
        )
    return players


def _parse_pile(pile: Sequence[str], players: int) -> tuple[int, ...]:
    cards: list[int] = []
    seen: dict[int, str] = {}
    for index, text in enumerate(pile):
        if not isinstance(text, str):
            raise BadNotation(repr(text), f"pile card {index} must be a string such as 'B3/g4'")
        oc = parse_card(text)
        if oc >> 1 in seen:
            raise BadNotation(text, f"pile card {index} is the same card as {seen[oc >> 1]!r} (V3)")
        seen[oc >> 1] = text
        cards.append(oc)
    if not cards:
        raise BadNotation("[]", "the pile must hold at least one card")
    if players > 1 and len(cards) < players:
        raise BadNotation(
            str(len(cards)), f"a pile for {players} players needs at least {players} cards"
        )
    return tuple(cards)


def new_game(
    players: int,
    *,
    pile: Sequence[str] | None = None,
    seed: int | random.Random | None = None,
    first_player: int = 0,
    allow_duplicate_keep: bool = False,
) -> VersoState:
    """Start a game of Verso.

    Args:
        players: 1 (solo, V16) to 6.
        pile: the pile, top card first, in card notation (``"B3/g4"``: up face first). When it is
            given, ``seed`` is not used; any length is accepted (V4's sizes are for dealt piles).
        seed: a seed or ``random.Random`` for dealing the pile (V4).
        first_player: the seat that plays first (V6).
        allow_duplicate_keep: the variant of V8 where ``draw`` stays legal on a duplicate.

    Raises:
        ValueError (``BadNotation`` for a bad pile card): the game cannot be set up.

    >>> state = new_game(2, pile=["B3/g4", "o*/G1", "g2/B1"])
    >>> [str(a) for a in state.legal_actions()]
    ['draw', 'flip']
    """
    players = _check_players(players)
    if not isinstance(first_player, int) or not 0 <= first_player < players:
        raise ValueError(
            f"first_player must be a seat from 0 to {players - 1}, not {first_player!r}"
        )
    cards = _parse_pile(pile, players) if pile is not None else deal(players, make_rng(seed))
    table = Table(
        players, cards, bool(allow_duplicate_keep), first_player, seat_neighbours(players)
    )
    return VersoState.start(table)


def replay(record: Mapping[str, Any]) -> VersoState:
    """The state reached by a game record (see the spec's "Notation").

    Raises:
        BadRecord: the record is malformed or an action is illegal (naming its index).
    """
    data = check_record_header(record, "verso")
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise BadRecord("'options' must be an object")
    unknown = sorted(set(options) - set(OPTION_NAMES))
    if unknown:
        raise BadRecord(f"unknown options {unknown}; known: {list(OPTION_NAMES)}")
    pile = data.get("pile")
    actions = data.get("actions", [])
    if not isinstance(pile, list):
        raise BadRecord("'pile' must be a list of cards such as 'B3/g4', top first")
    if not isinstance(actions, list):
        raise BadRecord("'actions' must be a list of action notations")
    try:
        state = new_game(
            _check_players(data.get("players")),
            pile=pile,
            first_player=options.get("first_player", 0),
            allow_duplicate_keep=options.get("allow_duplicate_keep", False),
        )
    except ValueError as exc:
        raise BadRecord(str(exc)) from exc
    for index, text in enumerate(actions):
        if not isinstance(text, str):
            raise BadRecord(f"{text!r} is not an action notation", index)
        try:
            state = state.apply(text)
        except (BadNotation, IllegalAction) as exc:
            raise BadRecord(str(exc), index) from exc
    return state


class VersoGame:
    """Verso as a :class:`otherside.core.Game`."""

    name = "verso"
    player_counts: tuple[int, ...] = (1, 2, 3, 4, 5, 6)

    def new_state(
        self, players: int, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> VersoState:
        options = dict(options or {})
        unknown = sorted(set(options) - set(OPTION_NAMES))
        if unknown:
            raise ValueError(f"unknown Verso options {unknown}; known: {list(OPTION_NAMES)}")
        return new_game(players, seed=seed, **options)

    def replay(self, record: Mapping[str, Any]) -> VersoState:
        return replay(record)

    def view(self, state: VersoState, player: int | None) -> dict[str, Any]:
        """:func:`~otherside.games.verso.view.view` as the contract's plain JSON dict (a shallow
        copy: the typed :class:`~otherside.games.verso.schema.VersoView` is the same data)."""
        return _json(view(state, player))

    def redeal(self, state: VersoState, player: int, rng: random.Random) -> VersoState:
        return redeal(state, player, rng)


def _json(data: Mapping[str, Any]) -> dict[str, Any]:
    return dict(data)


GAME: Game[VersoState] = VersoGame()
