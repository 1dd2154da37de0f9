"""Every refusal of a table's setup (game, players, options, pace) and of a bot spec is known:
it gets a stable ``problem`` with its fields and is said in each language from the catalogs,
never as the checks' English sentence."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from otherside.i18n import languages
from otherside.server.tables import seat_rules
from otherside.server.tables.adapters import get_adapter
from otherside.server.tables.errors import Refused, words
from otherside.server.tables.setup_refusals import OTHER, PROBLEMS, problem


def _table(game: str, players: int, options: Any = None, pace: Any = None) -> Callable[[], Any]:
    return lambda: seat_rules.new_table(game, players, options, pace)


def _bot(game: str, spec: str, cap: float | None = None) -> Callable[[], Any]:
    def check() -> Any:
        try:
            return get_adapter(game).check_bot(spec, cap)
        except ValueError as exc:
            raise Refused("bad_bot", **problem(exc)) from exc

    return check


# (what is asked, the problem it is refused for): one at least for every problem.
BAD: list[tuple[Callable[[], Any], str]] = [
    (_table("chess", 2), "no_game"),
    (_table("versus", 3), "player_count"),
    (_table("verso", 2, {"colour": "red"}), "unknown_option"),
    (_table("rectoverso", 2, {"difficulty": "brutal"}), "option_choice"),
    (_table("verso", 2, {"allow_duplicate_keep": "yes"}), "option_bool"),
    (_table("verso", 2, {"first_player": 5}), "option_seat"),
    (_table("versus", 2, None, ["live"]), "pace_shape"),
    (_table("rectoverso", 2, None, {"kind": "live"}), "pace_rounds_only"),
    (_table("versus", 2, None, {"kind": "rounds"}), "pace_not_rounds"),
    (_table("rectoverso", 2, None, {"kind": "rounds", "minutes": 3}), "pace_rounds_alone"),
    (_table("versus", 2, None, {"kind": "sprint"}), "pace_kind"),
    (_table("versus", 2, None, {"kind": "live", "days": 3}), "pace_setting"),
    (_table("versus", 2, None, {"kind": "live", "minutes": 0}), "pace_range"),
    (_table("versus", 2, None, {"kind": "turn", "days": 2, "remind_days": 3}), "pace_reminder"),
    (_bot("versus", "search:think"), "bot_syntax"),
    (_bot("versus", ":think=2"), "bot_unnamed"),
    (_bot("versus", "nobody"), "bot_unknown"),
    (_bot("versus", "greedy:depth=3"), "bot_option"),
    (_bot("versus", "search:think=fast"), "bot_number"),
    (_bot("versus", "search:think=50"), "bot_range"),
    (_bot("versus", "search:think=5", 1.0), "bot_range_capped"),
]


def test_every_problem_is_given_by_a_real_check() -> None:
    assert {name for _ask, name in BAD} == set(PROBLEMS)


@pytest.mark.parametrize(("ask", "expected"), BAD, ids=[name for _ask, name in BAD])
def test_a_setup_refusal_has_its_problem_and_words_in_every_language(
    ask: Callable[[], Any], expected: str
) -> None:
    with pytest.raises(Refused) as refused:
        ask()
    params = refused.value.params
    assert refused.value.status == 422
    assert params["problem"] == expected != OTHER and "reason" not in params
    said = {language: words(refused.value.code, params, language) for language in languages()}
    # English is the catalog's words, not the check's sentence; every other language its own.
    assert said["en"] == str(refused.value)
    assert len(set(said.values())) == len(said), said
    assert not [text for text in said.values() if re.search(r"\{\w+\}", text)]  # filled in


def test_an_unknown_reason_keeps_its_english_under_the_other_problem() -> None:
    params = problem(ValueError("something new"))
    assert params == {"problem": OTHER, "reason": "something new"}
    assert words("bad_request", params, "de") == "something new"
