"""Post-game analysis by the bots, for every game that has it: one decision of a finished game
weighed against the game's strongest bot (:func:`assess`).

What a game's analysis holds is its own (:mod:`otherside.bots.versus.analysis` for VERSUS);
this module is the one door the server's bot workers go through, as :mod:`otherside.bots.spec`
is for decisions.
"""

from __future__ import annotations

from typing import Any

from otherside.bots.rectoverso import analysis as rectoverso_analysis
from otherside.bots.verso import analysis as verso_analysis
from otherside.bots.versus import analysis as versus_analysis

ANALYSED_GAMES = ("versus", "verso", "rectoverso")
"""The games whose finished games the bots analyse."""


def assess(game: str, *job: Any) -> Any:
    """One decision or card of a finished ``game`` weighed by the game's bots; ``job`` is the
    game's own:

    - VERSUS ``(view, played, think, depth)``: ``played`` weighed in the position of ``view``
      by the search bot (:class:`otherside.bots.versus.analysis.Assessment`);
    - Verso ``(view, played, think, _)``: ``played`` weighed from its seat's view by drawn
      positions (:class:`otherside.bots.verso.analysis.VersoAssessment`);
    - Recto Verso ``(card,)``: the solver's construction for a card not completed.

    Raises:
        ValueError: the game has no analysis, or the job cannot be done.
    """
    if game == "versus":
        view, played, think, depth = job
        return versus_analysis.assess(view, played, think, depth)
    if game == "verso":
        view, played, think, _ = job
        return verso_analysis.assess(view, played, think)
    if game == "rectoverso":
        (card,) = job
        return rectoverso_analysis.solution(card)
    raise ValueError(f"the bots do not analyse {game!r} games")
