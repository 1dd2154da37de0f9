"""Every lesson step is checked by the engine it teaches: its position is the learner's turn,
its solution is legal and meets the aim, some legal move misses it, a move against the rules is
refused, and the rule it cites exists in the game's guide."""

from __future__ import annotations

import pytest

from otherside.guide import rules_text
from otherside.lessons import GAMES, Step, lesson, start, try_move

STEPS = [(game, step) for game in GAMES for step in lesson(game)[1].steps]


def _id(case: tuple[str, Step]) -> str:
    return f"{case[0]}-{case[1].id}"


@pytest.mark.parametrize("case", STEPS, ids=[_id(c) for c in STEPS])
def test_the_solution_meets_the_aim_and_another_move_misses_it(case: tuple[str, Step]) -> None:
    game_name, step = case
    game, _ = lesson(game_name)
    before = start(game, step)
    assert before.current_player == step.seat and not before.is_over
    done = try_move(game, step, step.solution)
    assert done.outcome == "done" and done.message == step.done
    misses = [
        str(a) for a in before.legal_actions() if try_move(game, step, str(a)).outcome == "wrong"
    ]
    if step.refused:  # the lesson is what the rules refuse here
        assert try_move(game, step, step.refused).outcome == "refused"
    else:
        assert misses, "every legal move meets the aim: the step teaches nothing"
    if misses:
        assert try_move(game, step, misses[0]).message == step.wrong


@pytest.mark.parametrize("case", STEPS, ids=[_id(c) for c in STEPS])
def test_a_move_against_the_rules_is_refused_and_changes_nothing(case: tuple[str, Step]) -> None:
    game_name, step = case
    game, _ = lesson(game_name)
    before = start(game, step)
    for bad in ("nonsense", "99:99>0:0"):
        answer = try_move(game, step, bad)
        assert answer.outcome == "refused" and answer.reason and answer.after is None
    assert start(game, step).legal_actions() == before.legal_actions()


@pytest.mark.parametrize("game_name", GAMES)
def test_each_step_cites_a_rule_of_the_guide_and_ids_are_unique(game_name: str) -> None:
    _game, taught = lesson(game_name)
    ids = [step.id for step in taught.steps]
    assert len(ids) == len(set(ids))
    text = rules_text(game_name)
    for step in taught.steps:
        assert step.rule in text, f"{step.rule} is not in the {game_name} guide"


def test_a_game_without_lessons_is_not_found() -> None:
    with pytest.raises(KeyError):
        lesson("chess")
