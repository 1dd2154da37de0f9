"""Post-game analysis of Recto Verso: for a card the partners did not complete, the solver's
construction (:func:`~otherside.games.rectoverso.solver.solve`) seen from both sides, so that
each partner sees how their side could have been built.

Pure: the server runs :func:`solution` in its bot workers, once the game is over.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from otherside.games.rectoverso.cards import Card
from otherside.games.rectoverso.solver import solve


def solution(card: Mapping[str, Any]) -> dict[str, Any]:
    """The solver's construction for ``card`` (as :meth:`Card.to_json` writes it): its
    ``placements`` in the rules' notation and its ``front``, ``back`` and ``top`` views;
    ``placements`` is ``None`` when no construction matches the card.

    >>> from otherside.games.rectoverso.cards import standard_card
    >>> found = solution(standard_card(1).to_json())
    >>> found["front"] == list(standard_card(1).front), len(found["placements"]) > 0
    (True, True)
    """
    seen = Card(
        str(card["difficulty"]),
        tuple(card["front"]),
        tuple(card["back"]),
        card.get("number"),
    )
    built = solve(seen)
    if built is None:
        return {"placements": None, "front": list(seen.front), "back": list(seen.back), "top": []}
    return {
        "placements": [str(p) for p in built.placements],
        "front": list(built.front_view()),
        "back": list(built.back_view()),
        "top": list(built.top_view()),
    }
