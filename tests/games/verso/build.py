"""Build Verso positions for scenario tests, only through the public interface (pile + actions).

``deal(players, hands, rest)`` makes a pile where each player, in turn from the first player,
draws the cards of ``hands`` (every hand the same length), followed by ``rest``. A card is either
``"UP/DOWN"`` or just ``"UP"``, in which case some deck card with that face is picked (never one
used elsewhere in the pile).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from otherside.games import verso
from otherside.games.verso.cards import FACE_CARDS, card_name, orient, parse_card, parse_face


def _complete(cards: Sequence[str]) -> list[str]:
    used = {parse_card(c) >> 1 for c in cards if "/" in c}
    out = []
    for text in cards:
        if "/" in text:
            out.append(text)
            continue
        face = parse_face(text)
        card = next(c for c in FACE_CARDS[face] if c not in used)
        used.add(card)
        out.append(card_name(orient(card, face)))
    return out


def deal(
    players: int,
    hands: Sequence[Sequence[str]],
    rest: Sequence[str] = (),
    first_player: int = 0,
    solo_fillers: Sequence[str] = (),
    **options: Any,
) -> verso.VersoState:
    """The state after every player drew their hand (``draw``, face as given)."""
    rounds = len(hands[0])
    assert all(len(h) == rounds for h in hands), "every hand must have the same length"
    order = [(first_player + k) % players for k in range(players)]
    pile: list[str] = []
    for r in range(rounds):
        for p in order:
            pile.append(hands[p][r])
            if players == 1:
                pile.append(solo_fillers[r])
    pile = _complete([*pile, *rest])
    state = verso.new_game(players, pile=pile, first_player=first_player, **options)
    for _ in range(rounds * players):
        state = state.apply("draw")
    return state


def tableau(state: verso.VersoState, player: int) -> list[str]:
    """The up faces of a tableau, in view order."""
    return [c["up"] for c in verso.view(state, None)["tableaux"][player]["cards"]]


def events(state: verso.VersoState, kind: str) -> list[dict[str, Any]]:
    """The events of the last action of one type."""
    return [e for e in state.events if e["type"] == kind]


def solo_midgame(seed: int, moves: int = 8) -> verso.VersoState:
    """A solo position ``moves`` random actions into the game dealt with ``seed``."""
    rng = random.Random(seed)
    state = verso.new_game(1, seed=seed)
    for _ in range(moves):
        state = state.apply(rng.choice(state.legal_actions()))
    return state
