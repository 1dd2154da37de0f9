"""The Recto Verso :class:`~otherside.core.Game`: new games, replays, views (R17), redeals."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from otherside.core.errors import BadRecord
from otherside.core.records import check_record_header
from otherside.core.rng import make_rng
from otherside.games.rectoverso.cards import (
    CARD_SOURCES,
    DIFFICULTY_ORDER,
    generated_cards,
    standard_card,
    standard_cards,
)
from otherside.games.rectoverso.construction import Construction
from otherside.games.rectoverso.flow import (
    NAME,
    SECONDS_PER_ACTION,
    Clock,
    RectoVersoState,
    token_sets,
)
from otherside.games.rectoverso.lookalike import lookalike
from otherside.games.rectoverso.notation import parse_placement
from otherside.games.rectoverso.pieces import pieces_of

OPTIONS = ("difficulty", "cards", "deck")


class RectoVersoGame:
    """Recto Verso for 2 (cooperative levels, R16) or 3–6 players (rounds, R12–R15).

    Args:
        clock: a callable returning seconds (``time.monotonic`` at a real table); ``None`` for
            the simulated clock on which every action takes ``seconds_per_action`` seconds.
        seconds_per_action: the simulated clock's pace.
    """

    name = NAME
    player_counts: tuple[int, ...] = (2, 3, 4, 5, 6)

    def __init__(
        self, clock: Clock | None = None, seconds_per_action: float = SECONDS_PER_ACTION
    ) -> None:
        self.clock = clock
        self.seconds_per_action = float(seconds_per_action)

    def new_state(
        self, players: int, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> RectoVersoState:
        """A new game. Options: ``difficulty`` (``easy`` or ``hard``, R2; default easy),
        ``cards`` (``standard``, the default, or ``generated``: 32 new cards of the difficulty
        made from the game's seed, R11) and ``deck`` (standard card numbers to draw in that
        order; default: every card of the difficulty, shuffled).

        Raises:
            ValueError: for a player count outside 2–6 or a bad option, naming it.
        """
        if players not in self.player_counts:
            raise ValueError(f"Recto Verso is for 2 to 6 players, not {players!r}")
        options = dict(options or {})
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise ValueError(f"unknown option {unknown[0]!r}; options: {', '.join(OPTIONS)}")
        difficulty = options.get("difficulty", "easy")
        if difficulty not in DIFFICULTY_ORDER:
            raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTY_ORDER)}")
        source = options.get("cards", "standard")
        if source not in CARD_SOURCES:
            raise ValueError(f"cards must be one of {', '.join(CARD_SOURCES)}, not {source!r}")
        generated = source == "generated"
        if generated and "deck" in options:
            raise ValueError(
                "option 'deck' names standard cards: leave it out with generated cards"
            )
        if seed is None:
            seed = make_rng(None).randrange(2**63)
        rng = random.Random(seed)
        if "deck" in options:
            deck = tuple(_check_deck(options["deck"], difficulty))
        else:
            cards = generated_cards(seed, difficulty) if generated else standard_cards(difficulty)
            numbers = [c.number for c in cards if c.number is not None]
            rng.shuffle(numbers)
            deck = tuple(numbers)
        tokens = []
        for own in token_sets(players) if players > 2 else [[] for _ in range(players)]:
            rng.shuffle(own)
            tokens.append(tuple(own))
        return RectoVersoState(
            players=players,
            difficulty=difficulty,
            seed=seed,
            fixed_deck=deck if "deck" in options else None,
            generated=generated,
            deck=deck,
            tokens=tuple(tokens),
            turned=tuple(() for _ in range(players)),
            totals=(0,) * players,
            clock=self.clock,
            seconds_per_action=self.seconds_per_action,
        )

    def replay(self, record: Mapping[str, Any]) -> RectoVersoState:
        """The state reached by a record (see :meth:`RectoVersoState.to_record`).

        Raises:
            BadRecord: when the record is malformed or an action does not replay.
        """
        data = check_record_header(record, NAME)
        players, seed = data.get("players"), data.get("seed")
        if not isinstance(players, int) or not isinstance(seed, int):
            raise BadRecord("'players' and 'seed' must be integers")
        actions, by, at = data.get("actions", []), data.get("by", []), data.get("at", [])
        if not (isinstance(actions, list) and isinstance(by, list) and isinstance(at, list)):
            raise BadRecord("'actions', 'by' and 'at' must be lists")
        if not len(actions) == len(by) == len(at):
            raise BadRecord("'actions', 'by' and 'at' must have the same length")
        try:
            state = self.new_state(players, seed=seed, options=data.get("options") or {})
        except ValueError as exc:
            raise BadRecord(str(exc)) from exc
        for index, (text, player, seconds) in enumerate(zip(actions, by, at, strict=True)):
            if not isinstance(text, str) or not isinstance(player, int):
                raise BadRecord("an action is a string and its player an integer", index)
            if not isinstance(seconds, int | float):
                raise BadRecord("'at' holds numbers of seconds", index)
            try:
                state = state.apply_as(player, text, at=float(seconds))
            except ValueError as exc:
                raise BadRecord(str(exc), index) from exc
        if state.clock is not None and state.phase == "build":
            # Resume the round's clock where the record stops.
            state = replace(state, started=state.clock() - state.last_stamp)
        return state

    def view(
        self, state: RectoVersoState, player: int | None, *, whole: bool = False
    ) -> dict[str, Any]:
        """What ``player`` may see (R17); ``None`` is anyone without a seat, now, and with
        ``whole`` anyone once the game is over (a replay: the record, which holds every card,
        is public then), who sees what a seated player not building sees.

        Everyone: the phase, builders, done calls, scores, level, tokens turned and how many are
        face down, cards left, past rounds (each with its card number and final placements),
        the top view, the pieces not yet placed and the clock. A builder also gets their own
        side of the card and their own view of the construction, and never the other side, the
        other view, the card's number or the placements. Seated players not building get the
        card and the construction (R17). Without a seat (``None``), during a round, only what
        both builders see: no card and no construction beyond the top view (a builder's second
        window must not show them); the round in full once it is over (``rounds``).

        Between rounds and once the game is over, ``last`` is the last round's card and the
        building as it stood at the round's end (:func:`_last_round`), for the page's "building
        at the end": its builders their own side again, anyone else both sides (R17); ``None``
        during a round and before the first.
        """
        construction = state.construction
        placed = construction.pieces
        view: dict[str, Any] = {
            "game": NAME,
            "players": state.players,
            "you": player,
            "difficulty": state.difficulty,
            "phase": state.phase,
            "active": state.active,
            "recto": state.recto,
            "verso": state.verso,
            "done": sorted(state.done),
            "scores": list(state.totals),
            "level": state.level if state.cooperative else None,
            "tokens": [
                {"face_down": len(down), "turned": list(up)}
                for down, up in zip(state.tokens, state.turned, strict=True)
            ],
            "cards_left": len(state.deck),
            "rounds": [r.to_json() for r in state.results],
            "unplaced": [p.name for p in pieces_of(state.difficulty) if p not in placed],
            "top": list(construction.top_view()),
            "clock": {"elapsed": state.elapsed(), "limit": state.limit},
            "last": _last_round(state, player),
        }
        card = state.current_card
        if card is None or (player is None and not whole):
            view["card"] = view["construction"] = None
        elif player is not None and player in state.builders:
            side = "front" if player == state.recto else "back"
            own = card.front if side == "front" else card.back
            seen = construction.front_view() if side == "front" else construction.back_view()
            view["card"] = {side: list(own)}
            view["construction"] = {side: list(seen)}
        else:
            view["card"] = card.to_json()
            view["construction"] = {
                "front": list(construction.front_view()),
                "back": list(construction.back_view()),
                "placements": [str(p) for p in construction.placements],
            }
        return view

    def redeal(self, state: RectoVersoState, player: int, rng: random.Random) -> RectoVersoState:
        """Re-draw what ``player`` cannot see: the order of the cards left and of every
        face-down token, and for a builder the other side of the card (any standard card whose
        side they see is the same) and the pieces they cannot see in the construction (a
        :func:`~.lookalike.lookalike` of the same cells, top view and view from their side)."""
        deck = list(state.deck)
        rng.shuffle(deck)
        tokens = []
        for own in state.tokens:
            shuffled = list(own)
            rng.shuffle(shuffled)
            tokens.append(tuple(shuffled))
        card = state.card
        construction = state.construction
        if card is not None and player in state.builders:
            side = "recto" if player == state.recto else "verso"
            seen_from = "front" if side == "recto" else "back"
            construction = lookalike(construction, seen_from, rng)
            seen = state.card_numbered(card).side(side)
            twins = [n for n in [card, *deck] if state.card_numbered(n).side(side) == seen]
            pick = rng.choice(twins)
            if pick != card:
                deck[deck.index(pick)] = card
                card = pick
        return replace(
            state, deck=tuple(deck), tokens=tuple(tokens), card=card, construction=construction
        )


def _last_round(state: RectoVersoState, player: int | None) -> dict[str, Any] | None:
    """The last round's card and the views of its building at the end, ``{"card": {side:
    rows}, "construction": {side: rows}}``, as ``player`` may see them between rounds: a builder
    of that round their own side (``front`` for recto, ``back`` for verso), as they saw it while
    building; anyone else, a seat or not, both sides (R17; a round over is public: ``rounds``
    lists its card number and placements). ``None`` during a round or before the first."""
    if state.phase == "build" or not state.results:
        return None
    result = state.results[-1]
    card = state.card_numbered(result.card)
    built = Construction.of(parse_placement(p) for p in result.placements)
    sides = {
        "front": (card.front, built.front_view()),
        "back": (card.back, built.back_view()),
    }
    if player == result.recto:
        del sides["back"]
    elif player == result.verso:
        del sides["front"]
    return {
        "card": {side: list(rows) for side, (rows, _) in sides.items()},
        "construction": {side: list(view) for side, (_, view) in sides.items()},
    }


def _check_deck(deck: object, difficulty: str) -> list[int]:
    if not isinstance(deck, list | tuple) or not deck:
        raise ValueError("option 'deck' must be a non-empty list of standard card numbers")
    numbers = []
    for number in deck:
        if not isinstance(number, int):
            raise ValueError(f"deck: {number!r} is not a card number")
        card = standard_card(number)
        if card.difficulty != difficulty:
            raise ValueError(f"deck: card {number} is {card.difficulty}, not {difficulty}")
        numbers.append(number)
    return numbers
