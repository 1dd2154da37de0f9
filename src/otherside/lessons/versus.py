"""The VERSUS lessons: moving (S7, S8), locking (S9), attraction (S10), the end and the score
(S13, S14) and the no-progress rule (S13.4), each on a position made for it. The learner plays
Blue (seat 0), who moves first."""

from __future__ import annotations

from typing import Any

from otherside.games.versus import GAME, Ply, parse_cell, view
from otherside.games.versus.hex import DISTANCE
from otherside.games.versus.state import VersusState
from otherside.i18n import N_
from otherside.lessons import Lesson, Step

BLUE = 0


def _stone(cell: str, b: int, owner: str) -> dict[str, Any]:
    return {"cell": cell, "b": b, "owner": owner}


def _record(
    stones: list[dict[str, Any]] | None = None,
    versus: tuple[str, str] = ("2:-5", "-2:5"),
    plies: tuple[str, ...] = (),
) -> dict[str, Any]:
    options: dict[str, Any] = {"versus": list(versus)}
    if stones is not None:
        options["stones"] = stones
    return {"game": "versus", "options": options, "plies": list(plies)}


def _blue_locked(state: VersusState) -> int:
    return sum(1 for s in view(state, BLUE)["stones"] if s["locked"] and s["owner"] == BLUE)


def _moved_the_versus(before: VersusState, action: Ply) -> bool:
    return action.origin == parse_cell(view(before, BLUE)["versus"][BLUE])


def moved_a_stone(before: VersusState, action: Any, after: VersusState) -> bool:
    """A stone moved (not the VERSUS)."""
    return isinstance(action, Ply) and not _moved_the_versus(before, action)


def versus_went_far(before: VersusState, action: Any, after: VersusState) -> bool:
    """The VERSUS moved two cells or more."""
    return (
        isinstance(action, Ply)
        and _moved_the_versus(before, action)
        and DISTANCE[action.origin][action.target] >= 2
    )


def pulled_a_stone(before: VersusState, action: Any, after: VersusState) -> bool:
    """The ply attracted at least one of Brown's stones."""
    return bool(after.pulled)


def locked_a_stone(before: VersusState, action: Any, after: VersusState) -> bool:
    """Blue has one more stone locked on a target."""
    return _blue_locked(after) > _blue_locked(before)


def won_the_game(before: VersusState, action: Any, after: VersusState) -> bool:
    """The ply ended the game with Blue the winner."""
    outcome = after.outcome
    return outcome is not None and tuple(outcome.winners) == (BLUE,)


def kept_the_game_alive(before: VersusState, action: Any, after: VersusState) -> bool:
    """A stone was locked, so the game goes on (S13.4 counts again from zero)."""
    return not after.is_over and locked_a_stone(before, action, after)


def _quiet_plies() -> tuple[str, ...]:
    """Blue locks a stone, then both VERSUS shuttle 99 plies, out of every stone's sight."""
    plies = ["-1:-1>-1:0"]
    for i in range(99):
        there = (i // 2) % 2 == 0
        if i % 2 == 0:
            plies.append("-5:5>-4:5" if there else "-4:5>-5:5")
        else:
            plies.append("5:-5>4:-5" if there else "4:-5>5:-5")
    return tuple(plies)


LESSON = Lesson(
    "versus",
    N_("Learn VERSUS"),
    (
        Step(
            "stone-move",
            "S7",
            N_("A stone moves one cell"),
            N_(
                "On your turn you move exactly one piece you control. A stone moves one cell, "
                "in any of the six directions, onto an empty cell."
            ),
            N_("You play Blue. Move one of your stones one cell."),
            _record(),
            moved_a_stone,
            N_("That moved your VERSUS, not a stone. Pick one of the five blue stones."),
            N_("Well done: one stone, one cell. Stones never jump and never move further."),
            "0:-4>0:-3",
        ),
        Step(
            "versus-move",
            "S8",
            N_("The VERSUS glides"),
            N_(
                "Your VERSUS, the blue tetrahedron, moves any number of cells in a straight line "
                "over empty cells. It may cross an empty target cell but never stop on one."
            ),
            N_("Move your VERSUS at least two cells in a straight line."),
            _record(),
            versus_went_far,
            N_("Your VERSUS can go further than one cell: slide it two cells or more."),
            N_("That is the VERSUS's reach: as far as the line is free."),
            "2:-5>0:-5",
        ),
        Step(
            "attraction",
            "S10",
            N_("The VERSUS attracts and flips"),
            N_(
                "After your VERSUS moves, look along the six lines from its new cell. The first "
                "opposing stone on a line, if it is not locked and not already next to your "
                "VERSUS, is pulled next to it and flipped: it is yours now."
            ),
            N_("Move your VERSUS so that it pulls the brown stone over to your side."),
            _record(
                [
                    _stone("0:-4", 1, "blue"),
                    _stone("3:-3", 1, "brown"),
                    _stone("-3:4", 2, "brown"),
                ],
                versus=("-2:-3", "-2:5"),
            ),
            pulled_a_stone,
            N_(
                "No stone was pulled: after your move no brown stone was first in line from "
                "your VERSUS. Move the VERSUS onto a line where a brown stone is in sight."
            ),
            N_("Pulled and flipped: the stone now shows blue and you control it."),
            "-2:-3>0:-3",
        ),
        Step(
            "lock",
            "S9",
            N_("A stone on a target is locked"),
            N_(
                "The six target cells in the middle row are what the game is about. A stone "
                "that reaches a target is locked there for the rest of the game: it never "
                "moves again, and it can no longer be pulled or flipped."
            ),
            N_("Move your stone onto the target cell next to it."),
            _record(
                [
                    _stone("1:-1", 2, "blue"),
                    _stone("0:-4", 1, "blue"),
                    _stone("-1:2", 3, "brown"),
                    _stone("-3:4", 2, "brown"),
                ]
            ),
            locked_a_stone,
            N_("No stone reached a target. The targets are the marked cells of the middle row."),
            N_("Locked: that stone is yours for good and will score at the end."),
            "1:-1>1:0",
        ),
        Step(
            "end",
            "S14",
            N_("The end and the score"),
            N_(
                "The game ends when every target holds a stone (S13). Each stone on a target "
                "then scores, for the player who controls it, the segments of that player's "
                "colour. The higher total wins."
            ),
            N_(
                "One target is still free and Brown leads 9 to 7. Fill it with the right stone "
                "and win."
            ),
            _record(
                [
                    _stone("-3:0", 4, "blue"),
                    _stone("-2:0", 1, "brown"),
                    _stone("-1:0", 1, "brown"),
                    _stone("1:0", 3, "blue"),
                    _stone("2:0", 4, "brown"),
                    _stone("3:-1", 3, "blue"),
                    _stone("4:-1", 1, "blue"),
                    _stone("-3:4", 2, "brown"),
                ],
                versus=("0:-4", "-2:5"),
            ),
            won_the_game,
            N_(
                "That did not win. The stone you lock last decides: count its blue segments "
                "and compare the totals."
            ),
            N_("Three blue segments on the last target: 10 to 9, you win."),
            "3:-1>3:0",
        ),
        Step(
            "no-progress",
            "S13",
            N_("No endless games"),
            N_(
                "So that every game ends, it also ends after 100 plies in a row that lock no "
                "stone, scored as it stands. The counter starts again at each lock."
            ),
            N_(
                "99 plies without a lock have been played, and Brown leads 4 to 3. Keep the "
                "game going: lock a stone now."
            ),
            _record(
                [
                    _stone("-1:-1", 3, "blue"),
                    _stone("3:-1", 3, "blue"),
                    _stone("-2:0", 1, "brown"),
                    _stone("-3:4", 2, "brown"),
                ],
                versus=("5:-5", "-5:5"),
                plies=_quiet_plies(),
            ),
            kept_the_game_alive,
            N_(
                "That was the 100th ply without a lock: the game ended as it stood, and Brown "
                "won. Only a lock would have kept it going."
            ),
            N_("Locked in time: the counter is back to zero and you lead 6 to 4."),
            "3:-1>3:0",
        ),
    ),
    is_move=lambda action: isinstance(action, Ply),
)

__all__ = ["GAME", "LESSON"]
