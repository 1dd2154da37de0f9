"""The pages' words for bots and paces (js/core/words.js), run in Node without a browser: one
place turns a bot spec or the server's bot description into words people read."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.test_boards_node import NODE, _run

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def test_bots_in_words_from_a_spec_or_from_what_the_server_says(tmp_path: Path) -> None:
    said = _run(
        tmp_path,
        """
        import { botWords, seatLabel } from '/static/js/core/words.js';
        const seats = [{ seat: 0, kind: 'human', name: 'ada' },
                       { seat: 1, kind: 'bot', bot: 'greedy', name: 'Greedy bot 1' },
                       { seat: 2, kind: 'bot', bot: 'greedy', name: 'Greedy bot 2' }];
        console.log(JSON.stringify([
          botWords('search:think=0.5'), botWords('search:think=2'), botWords('partner'),
          botWords('ismcts'), botWords(null),
          botWords({ spec: 'search:think=5', label: 'Search bot (5 s a move)' }),
          botWords({ kind: 'bot', bot: 'search:think=1', bot_label: 'Search bot, quick' }),
          seatLabel(seats[2]), seatLabel(seats[0]),
        ]));
        """,
    )
    assert said == [
        "Search bot · 0.5 s a move",
        "Search bot · 2 s a move",
        "Bot partner",
        "Tree-search bot",
        "a bot",
        "Search bot · 5 s a move",
        "Search bot · 1 s a move",  # the spec in the reader's words, not the server's English label
        "Greedy bot 2",
        "ada",
    ]


def test_paces_in_words(tmp_path: Path) -> None:
    said = _run(
        tmp_path,
        """
        import { paceWords } from '/static/js/core/words.js';
        console.log(JSON.stringify([
          paceWords({ kind: 'live', minutes: 10, increment: 5 }),
          paceWords({ kind: 'live', minutes: 3, increment: 0 }),
          paceWords({ kind: 'turn', days: 1, remind_days: 1 }),
          paceWords({ kind: 'turn', days: 7, remind_days: 4 }),
          paceWords({ kind: 'rounds' }),
        ]));
        """,
    )
    assert said == [
        "Live · 10 min + 5 s a move",
        "Live · 3 min for the game",
        "Turn-based · 1 day a move",
        "Turn-based · 7 days a move",
        "Timed rounds — no player clock",
    ]
