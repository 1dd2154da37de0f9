"""Post-game analysis by the bots, for every game that has it: one decision of a finished game
weighed against the game's strongest bot (:func:`assess`).

What a game's analysis holds is its own (:mod:`otherside.bots.versus.analysis` for VERSUS);
this module is the one door the server's bot workers go through, as :mod:`otherside.bots.spec`
is for decisions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from otherside.bots.verso import analysis as verso_analysis
from otherside.bots.versus import analysis as versus_analysis

ANALYSED_GAMES = ("versus", "verso")
"""The games whose finished games the bots analyse."""


def assess(game: str, view: Mapping[str, Any], played: str, think: float, depth: int) -> Any:
    """``played`` weighed in the position of ``view`` (before it) by ``game``'s strongest bot,
    searching at most ``think`` seconds and ``depth`` plies: the game's assessment (for
    VERSUS, :class:`otherside.bots.versus.analysis.Assessment`; for Verso, which draws
    positions from the seat's view rather than searching plies,
    :class:`otherside.bots.verso.analysis.VersoAssessment`).

    Raises:
        ValueError: the game has no analysis, or ``played`` cannot be weighed there.
    """
    if game == "versus":
        return versus_analysis.assess(view, played, think, depth)
    if game == "verso":
        return verso_analysis.assess(view, played, think)
    raise ValueError(f"the bots do not analyse {game!r} games")
