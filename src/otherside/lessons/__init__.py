"""Lessons: short steps on real positions, each teaching one rule (by its id), asking the
player for a move and checking it with the game's own engine.

A :class:`Step` is a position (a game record, replayed by the game), the seat the learner
plays, the words that teach and ask (English templates marked with ``N_``, said in the reader's
language by the adapters), and a *goal*: a pure test of the move against the position before
and after it. :func:`try_move` answers a move: refused by the rules (the engine's refusal), legal
but not what was asked (the step's explanation of why), or done (the step's words on what just
happened). Nothing here reads files or keeps state: the server and the pages adapt it.

The lessons of each game are in their module (:mod:`.versus`, …); :func:`lesson` finds them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from otherside.core.errors import OthersideError
from otherside.core.simultaneous import actors, apply_as, legal_actions_of
from otherside.i18n import N_

Goal = Callable[[Any, Any, Any], bool]
"""Whether a move meets the step's aim: ``goal(before, action, after)`` on the game's states."""


@dataclass(frozen=True)
class Step:
    """One thing to learn and do.

    Attributes:
        id: its name in addresses and progress (``stone-move``), unique in its lesson.
        rule: the rule id it teaches (``S7``), as in the rules page.
        title: a few words (English template, marked ``N_``).
        teach: what the rule says, in the project's words.
        task: what the learner is asked to do here.
        record: the position, as the game's record (replayed by the game).
        goal: the test of the learner's move (see :data:`Goal`).
        wrong: why a legal move that misses the aim misses it.
        done: what the right move did.
        solution: one move that meets the aim (shown to a learner who asks; tested).
        seat: the learner's seat.
        refused: a move the rules refuse here, when that is the lesson (tested).
    """

    id: str
    rule: str
    title: str
    teach: str
    task: str
    record: Mapping[str, Any]
    goal: Goal
    wrong: str
    done: str
    solution: str
    seat: int = 0
    refused: str = ""


@dataclass(frozen=True)
class Lesson:
    """A game's lesson: an id for its address and progress, a title, its steps in order, and
    which legal actions are the game's moves (a lesson offers no resignation or draw)."""

    id: str
    title: str
    steps: tuple[Step, ...]
    is_move: Callable[[Any], bool] = lambda action: True
    other: str = N_("Opponent")  # what the learner's table calls the other seat

    def moves(self, state: Any, seat: int) -> list[str]:
        """The learner's moves in ``state``, in the rules' notation."""
        return [str(a) for a in legal_actions_of(state, seat) if self.is_move(a)]


@dataclass(frozen=True)
class Answer:
    """The answer to a move in a step.

    Attributes:
        outcome: ``"done"``, ``"wrong"`` (legal, but not what was asked) or ``"refused"``
            (against the rules).
        message: the explanation (an English template marked ``N_``), to be said.
        reason: the engine's own refusal (``"refused"`` only), for the curious.
        after: the state after a legal move, else ``None``.
    """

    outcome: str
    message: str
    reason: str = ""
    after: Any = None


REFUSED = N_("The rules do not allow that move here. Look again at what the rule says.")


def start(game: Any, step: Step) -> Any:
    """The position of ``step`` (its record replayed by ``game``)."""
    return game.replay(step.record)


def try_move(game: Any, step: Step, action: str, before: Any = None) -> Answer:
    """Play ``action`` (the rules' notation) in ``step``'s position (``before``, when the
    caller kept it: states are never changed) and judge it."""
    if before is None:
        before = start(game, step)
    if step.seat not in actors(before):
        raise ValueError(f"step {step.id} does not give the learner the move")
    try:
        move = before.parse_action(action)
        after = apply_as(before, step.seat, move)
    except OthersideError as refused:
        return Answer("refused", REFUSED, reason=str(refused))
    if step.goal(before, move, after):
        return Answer("done", step.done, after=after)
    return Answer("wrong", step.wrong, after=after)


GAMES = ("verso", "versus", "rectoverso")
"""The games that have a lesson, by the name of their module here."""


def lesson(game: str) -> tuple[Any, Lesson]:
    """The game (its contract object) and lesson of ``game``; ``KeyError`` if it has none."""
    if game not in GAMES:
        raise KeyError(game)
    import importlib

    module = importlib.import_module(f"otherside.lessons.{game}")
    return module.GAME, module.LESSON
