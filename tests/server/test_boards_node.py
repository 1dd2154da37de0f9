"""The pure parts of the boards and page helpers, run in Node without a browser: the board
modules import only ``/static/js/…`` paths, which a small resolve hook maps to ``web/``."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src/otherside/web"
NODE = shutil.which("node")
HOOK = """
export async function resolve(specifier, context, next) {
  if (specifier.startsWith('/static/')) {
    return next(new URL(specifier.slice('/static/'.length), WEB).href, context);
  }
  return next(specifier, context);
}
"""

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def _run(tmp_path: Path, script: str) -> object:
    hook = tmp_path / "hook.mjs"
    hook.write_text(f"const WEB = {json.dumps(WEB.as_uri() + '/')};\n{HOOK}")
    main = tmp_path / "main.mjs"
    main.write_text(script)
    done = subprocess.run(
        [str(NODE), "--no-warnings", "--experimental-loader", hook.as_uri(), str(main)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_versus_words_for_a_stone_move_and_a_pull(tmp_path: Path) -> None:
    said = _run(
        tmp_path,
        """
        import { summary } from '/static/js/games/versus/board.js';
        const names = ['ada (you)', 'Search bot (0.5 s a move)'];
        const stone = { cell: '1:-3', owner: 0, b: 3, locked: false, streak: 0 };
        const moved = summary({ stones: [stone], versus: ['0:-5', '0:5'], last: '0:-2>1:-3',
                                pulled: [], outcome: null }, names);
        const pulled = { cell: '0:-1', owner: 1, b: 2, locked: true, streak: 0 };
        const pull = summary({ stones: [pulled], versus: ['0:-5', '0:0'], last: '0:5>0:0',
                               pulled: [{ from: '0:-2', to: '0:-1' }], outcome: null }, names);
        console.log(JSON.stringify([moved, pull]));
        """,
    )
    assert said == [
        "Blue (ada, you) moved a stone 0:-2→1:-3.",
        "Brown (Search bot (0.5 s a move)) moved the VERSUS 0:5→0:0 and pulled 1 stone:"
        " 0:-2→0:-1, now Brown's (worth 3, locked on a target).",
    ]


def test_bots_and_seats_in_words(tmp_path: Path) -> None:
    said = _run(
        tmp_path,
        """
        import { botWords, seatLabel, withoutRuleIds } from '/static/js/core/words.js';
        const seats = [{ seat: 0, kind: 'human', name: 'ada' },
                       { seat: 1, kind: 'bot', bot: 'greedy', name: 'Greedy bot 1' },
                       { seat: 2, kind: 'empty', name: null }];
        console.log(JSON.stringify([botWords('search:think=0.5'), botWords('partner'),
          seats.map(seatLabel), withoutRuleIds('all targets filled (S13.1)')]));
        """,
    )
    assert said == [
        "Search bot · 0.5 s a move",
        "Bot partner",
        ["ada", "Greedy bot 1", "open seat"],  # the server's names (server/live/wire.py)
        "all targets filled",
    ]


def test_a_typed_move_is_completed_from_the_legal_moves_only(tmp_path: Path) -> None:
    legal = ["draw", "flip", "series blue 1 2", "series blue 1 2 3", "series green 4 5"]
    said = _run(
        tmp_path,
        f"""
        import {{ completeMove }} from '/static/js/pages/table/typed.js';
        const legal = {json.dumps(legal)};
        const typed = ['draw', '  Series   GREEN ', 'series blue 1 2', 'series blue', 'fl', 'x', '',
                       'series blue 1 2 ', 'draw '];
        console.log(JSON.stringify(typed.map((text) => completeMove(text, legal))));
        """,
    )
    assert said == [
        {"move": "draw", "matches": ["draw"]},
        # Spaces and case do not matter; the only move that begins with the words is meant.
        {"move": "series green 4 5", "matches": ["series green 4 5"]},
        # A whole move is played even when a longer one begins with it.
        {"move": "series blue 1 2", "matches": ["series blue 1 2"]},
        {"move": None, "matches": ["series blue 1 2", "series blue 1 2 3"]},
        {"move": "flip", "matches": ["flip"]},
        {"move": None, "matches": []},
        {"move": None, "matches": []},
        # A space at the end says more follows: the longer move is meant, not the shorter.
        {"move": "series blue 1 2 3", "matches": ["series blue 1 2 3"]},
        {"move": "draw", "matches": ["draw"]},
    ]


def test_the_completion_list_walks_many_moves_a_word_at_a_time(tmp_path: Path) -> None:
    legal = [f"place {p} {x},0,0" for p in ("black", "white", "grey") for x in range(4)]
    legal += ["remove blue", "done"]
    said = _run(
        tmp_path,
        f"""
        import {{ continuations }} from '/static/js/pages/table/typed.js';
        const legal = {json.dumps(legal)};
        const typed = ['', 'place ', 'place white ', 'd'];
        const shown = typed.map((text) => continuations(text, legal, 5));
        console.log(JSON.stringify(shown));
        """,
    )
    assert said == [
        ["place ", "remove ", "done"],
        ["place black ", "place white ", "place grey "],
        [f"place white {x},0,0" for x in range(4)],
        ["done"],
    ]


def test_a_tie_of_rivals_is_a_shared_win_and_a_team_result_names_no_winner(tmp_path: Path) -> None:
    said = _run(
        tmp_path,
        """
        import { outcomeWords } from '/static/js/pages/table/players.js';
        const seats = [{ seat: 0, kind: 'human', name: 'ada' },
                       { seat: 1, kind: 'human', name: 'bo' }];
        const state = (game, together, winners, scores) => ({
          you: null, traits: { together },
          table: { game, seats, outcome: { winners, scores, reason: 'pile empty' } } });
        const words = (s) => outcomeWords(s).join('');
        console.log(JSON.stringify([
          words(state('verso', [], [0, 1], [24, 24])),
          words(state('verso', [], [1], [20, 24])),
          words(state('versus', [], [], [0, 0])),
          words(state('rectoverso', [2], [0, 1], [7, 7])),
        ]));
        """,
    )
    assert said == [
        "ada and bo won — pile empty. Scores: 24 – 24.",  # V15: tied players share the victory
        "bo won — pile empty. Scores: 20 – 24.",
        "Draw — pile empty. Scores: 0 – 0.",
        "Game over — pile empty. Scores: 7 – 7.",  # R16: the two builders are one team
    ]


def test_recto_verso_describes_the_wait_for_the_next_round(tmp_path: Path) -> None:
    """Between rounds, "Describe the position" says when a bot waiting for a person's
    "ready" starts the next round (tables/ready.py): at 3 to 6 when a player is ready, or in
    the seconds left; in the game for two when the reader (or, to a spectator, the bot's
    partner) is ready. Levels are only the game for two's (R16)."""
    said = _run(
        tmp_path,
        """
        import { positionLines } from '/static/js/games/rectoverso/position.js';
        const between = (players, active) => ({ phase: 'start', players, active, level: 0,
            rounds: [], clock: { elapsed: 0, limit: 120 } });
        const three = ['ada (you)', 'Steady bot 1', 'Steady bot 2'];
        const two = ['Bot partner', 'ada'];
        console.log(JSON.stringify([
          positionLines(between(3, 1), { seat: 0, names: three, botWaits: true }, 0, 6.2),
          positionLines(between(3, 1), { seat: null, names: three, botWaits: false }, 0, 0),
          positionLines(between(3, 0), { seat: 0, names: three, botWaits: false }, 0, null),
          positionLines(between(2, 0), { seat: 1, names: two, botWaits: true }, 0, 9.5),
          positionLines(between(2, 0), { seat: null, names: two, botWaits: false }, 0, 2.1),
        ]));
        """,
    )
    assert said == [
        [
            "The next card is not revealed yet.",
            "The next round starts when a player is ready, or in 7 s.",
        ],
        ["The next card is not revealed yet.", "The next round starts now."],
        ["The next card is not revealed yet."],
        [
            "The next card is not revealed yet.",
            "Level 1.",
            "The next card comes when you are ready, or in 10 s.",
        ],
        [
            "The next card is not revealed yet.",
            "Level 1.",
            "The next card comes when ada is ready, or in 3 s.",
        ],
    ]
