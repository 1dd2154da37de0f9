"""What a player may see (V19), and re-drawing what they may not.

In Verso every seat sees the same thing: all tableaux (up faces), scores, square flags, the pile
size and its top face, the discards, and any face that was ever turned up. Hidden from everyone:
down faces never shown, and the pile below its top card.
"""

from __future__ import annotations

import random
from typing import Any, cast

from otherside.core.errors import BadRecord
from otherside.games.verso.cards import (
    CARD_OF_FACES,
    DECK,
    FACE_CARDS,
    UP,
    face_name,
    orient,
    parse_face,
)
from otherside.games.verso.schema import CardView, OutcomeView, VersoView
from otherside.games.verso.solo import rating
from otherside.games.verso.state import (
    EMPTY_TABLEAU,
    PHASE_NAMES,
    Table,
    VersoState,
    card_json,
    seat_neighbours,
)


def view(state: VersoState, player: int | None) -> VersoView:
    """The public view of V19 as JSON-ready data (``player`` None for a spectator).

    Everything in Verso is public (V19), so every player's view of a state is the same but for
    ``player``: that part is made once per state, and each view is a new dict over it (its
    nested lists and dicts are shared between the views of one state: read them, don't change
    them in place)."""
    shared = state.shared_view
    if shared is None:
        shared = state.shared_view = dict(_shared_view(state))
    return cast(VersoView, {**shared, "player": player})


def _shared_view(state: VersoState) -> VersoView:
    top = state.top
    outcome: OutcomeView | None = None
    if state.outcome is not None:
        scores, winners = state.outcome.scores, state.outcome.winners
        outcome = {"scores": list(scores), "winners": list(winners), "reason": state.outcome.reason}
    return {
        "game": "verso",
        "players": state.players,
        "player": None,
        "solo": state.solo,
        "version": state.version,
        "options": state.table.options(),
        "current_player": state.current_player,
        "phase": PHASE_NAMES[state.phase],
        "final_order": list(state.final_order),
        "pile_size": state.pile_size,
        "top": face_name(UP[top]) if top is not None else None,
        "draw_legal": any(str(a) == "draw" for a in state.legal_actions()),
        "tableaux": [
            {
                "cards": [card_json(oc, state.is_shown(oc)) for oc in state.tableau(p)],
                "score": state.score_list[p],
                "square": state.has_square(p),
            }
            for p in range(state.players)
        ],
        "scores": list(state.score_list),
        "discards": [card_json(oc, state.is_shown(oc)) for oc in state.discard_pile()],
        "events": state.events,
        "outcome": outcome,
        "rating": rating(state.score_list[0]) if outcome and state.solo else None,
    }


def faces_of(card: CardView) -> tuple[int, int | None]:
    """The up face of a card of a view, and its down face if it was ever shown."""
    down = card["down"]
    return parse_face(card["up"]), parse_face(down) if down else None


def shown_cards(view_data: VersoView) -> int:
    """The deck cards a view shows whole (both faces), as bits: ``known >> card & 1``."""
    known = 0
    for cards in [*(t["cards"] for t in view_data["tableaux"]), view_data["discards"]]:
        for card in cards:
            up, down = faces_of(card)
            if down is not None:
                known |= 1 << CARD_OF_FACES[(up, down)]
    return known


class _Sampler:
    """Draws concrete cards for faces whose other side is unknown, all cards distinct."""

    def __init__(self, known: set[int], rng: random.Random) -> None:
        self.free = [c for c in range(len(DECK)) if c not in known]
        self.rng = rng

    def assign(self, up_faces: list[int]) -> list[int]:
        """Oriented cards showing each face of ``up_faces``, distinct, chosen at random.

        A bipartite matching of faces to free cards (augmenting paths over shuffled candidates):
        with six players every card is in play, so a greedy draw can paint itself into a corner.
        """
        free = set(self.free)
        candidates = []
        for face in up_faces:
            options = [c for c in FACE_CARDS[face] if c in free]
            self.rng.shuffle(options)
            candidates.append(options)
        owner: dict[int, int] = {}  # card -> index of the face it shows

        def augment(i: int, visited: set[int]) -> bool:
            for card in candidates[i]:
                if card in visited:
                    continue
                visited.add(card)
                if card not in owner or augment(owner[card], visited):
                    owner[card] = i
                    return True
            return False

        order = list(range(len(up_faces)))
        self.rng.shuffle(order)
        for i in order:
            if not augment(i, set()):
                raise ValueError("no set of deck cards is consistent with these faces")
        chosen = [0] * len(up_faces)
        for card, i in owner.items():
            chosen[i] = orient(card, up_faces[i])
        self.free = sorted(free - set(owner))
        return chosen

    def rest(self, count: int) -> list[int]:
        """``count`` further unseen cards with random faces up."""
        cards = self.rng.sample(self.free, count)
        taken = set(cards)
        self.free = [c for c in self.free if c not in taken]
        return [c * 2 + self.rng.randrange(2) for c in cards]


def redeal(state: VersoState, player: int, rng: random.Random) -> VersoState:
    """A state that nobody can tell apart from ``state``: every unseen face re-drawn.

    Cards that reached the top of the pile keep their public face; unshown ones get another
    deck card with that face; the pile below the top gets other unseen cards. The same actions
    are replayed on the new pile, so the new state has a record of its own.
    """
    pile = state.table.pile
    reached = min(state.pos + 1, len(pile))
    known = {oc >> 1 for oc in pile[:reached] if state.is_shown(oc)}
    sampler = _Sampler(known, rng)
    hidden_idx = [i for i in range(reached) if not state.is_shown(pile[i])]
    faces = sampler.assign([UP[pile[i]] for i in hidden_idx])
    new_pile = list(pile)
    for i, oc in zip(hidden_idx, faces, strict=True):
        new_pile[i] = oc
    new_pile[reached:] = sampler.rest(len(pile) - reached)
    table = Table(
        state.players,
        tuple(new_pile),
        state.table.allow_duplicate_keep,
        state.table.first_player,
        state.table.neighbours,
    )
    new = VersoState.start(table)
    for action in state.actions_played():
        new = new.apply(action)
    return new


def determinize(view_data: VersoView, rng: random.Random) -> VersoState:
    """A concrete position consistent with a view, hidden faces and pile drawn at random.

    For bots (information-set search): the result has the view's tableaux, scores, square flags,
    phase and player to move, and a pile of the view's size whose top shows the view's top face.
    It has no history, so its record does not replay the real game.

    Raises:
        BadRecord: ``view_data`` is not a Verso view.
    """
    try:
        players = view_data["players"]
        groups = [t["cards"] for t in view_data["tableaux"]] + [view_data["discards"]]
        top = view_data["top"]
        pile_size = view_data["pile_size"]
        phase = PHASE_NAMES.index(view_data["phase"])
    except (KeyError, TypeError, ValueError) as exc:
        raise BadRecord(f"not a Verso view: {exc}") from exc
    known: set[int] = set()
    shown = 0
    placed: list[list[int]] = []  # per group, oriented cards (-1 until drawn)
    unknown: list[tuple[int, int, int]] = []  # (group, index, up face)
    for g, cards in enumerate(groups):
        row = []
        for i, entry in enumerate(cards):
            up, down = faces_of(entry)
            if down is None:
                unknown.append((g, i, up))
                row.append(-1)
                continue
            card = CARD_OF_FACES[(up, down)]
            known.add(card)
            shown |= 1 << card
            row.append(orient(card, up))
        placed.append(row)
    sampler = _Sampler(known, rng)
    need = [face for _, _, face in unknown] + ([parse_face(top)] if top is not None else [])
    drawn = sampler.assign(need)
    for (g, i, _), oc in zip(unknown, drawn, strict=False):
        placed[g][i] = oc
    pile = [drawn[-1], *sampler.rest(pile_size - 1)] if top is not None else []
    options = view_data.get("options", {})
    table = Table(
        players,
        tuple(pile),
        bool(options.get("allow_duplicate_keep", False)),
        int(options.get("first_player", 0)),
        seat_neighbours(players),
    )
    state = VersoState.start(table)
    tabs = [list(EMPTY_TABLEAU) for _ in range(players)]
    masks = [0] * (3 * players)
    for owner in range(players):
        for oc in placed[owner]:
            slot = UP[oc] % 21
            tabs[owner][slot] = oc
            masks[owner * 3 + slot // 7] |= 1 << (slot % 7)
    discard_node: tuple[int, Any] | None = None
    for oc in placed[players]:
        discard_node = (oc, discard_node)
    # Built in place: this state is new and not yet shared with anyone.
    state.tableaux = tuple(tuple(t) for t in tabs)
    state.masks = tuple(masks)
    state.score_list = tuple(view_data["scores"])
    state.squares = sum(1 << p for p, t in enumerate(view_data["tableaux"]) if t["square"])
    state.shown = shown
    state.discards = discard_node
    state.phase = phase
    current = view_data["current_player"]
    state.turn = current if current is not None else -1
    state.final_order = tuple(view_data.get("final_order", ()))
    return state
