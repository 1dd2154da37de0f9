"""What the pages learn about each game's board from the server (``GET /api/games``'s
``board``): the module and styles to load, who shows Resign, how a replay is paced. Each named
board exists in ``web/js/games/<module>/`` with the one function of the board contract, so that
a new game touches its adapter and its folder, and no shared page code names a game."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi import FastAPI

from otherside.server.tables.adapters import RECTOVERSO, VERSO, VERSUS, available_adapters
from tests.server.conftest import people, sqlite_only

WEB = Path(__file__).resolve().parents[2] / "src/otherside/web"


def test_each_game_tells_the_pages_what_its_board_does_differently() -> None:
    assert VERSO.to_json()["board"] == {
        "module": "verso",
        "styles": True,
        "resign": "table",
        "replay": "steps",
        "analysis": "moves",
        "together": [],
    }
    assert VERSUS.to_json()["board"]["resign"] == "board"
    assert RECTOVERSO.to_json()["board"]["analysis"] == "cards"  # the solver, not move by move
    assert RECTOVERSO.to_json()["board"]["replay"] == "timed"  # it has a round timer
    assert RECTOVERSO.to_json()["board"]["together"] == [2]  # R16: two builders, one card


@sqlite_only("database_url")
async def test_the_games_answer_carries_every_board_trait(app: FastAPI) -> None:
    # The answer's schema once dropped analysis and together: a Recto Verso result said "the
    # partner won" and its replay offered the bots' move-by-move analysis instead of the cards.
    http = (await people(app, 1))[0].http
    games = {g["name"]: g for g in (await http.get("/api/games")).json()}
    for adapter in available_adapters():
        assert games[adapter.name]["board"] == adapter.board_traits(), adapter.name


def test_every_board_named_by_the_server_exists_with_the_contract() -> None:
    for adapter in available_adapters():
        board = adapter.board_traits()
        folder = WEB / "js/games" / board["module"]
        source = (folder / "board.js").read_text()
        assert "export function createBoard(root, context)" in source
        assert (folder / "board.css").exists() == board["styles"]


def test_no_shared_page_code_names_a_game() -> None:
    names = [a.name for a in available_adapters()]
    quoted = "|".join(map(re.escape, names))
    pattern = re.compile(r"""["'`/](""" + quoted + r""")["'`/.]""")
    for folder in ("core", "pages"):
        for path in (WEB / "js" / folder).rglob("*.js"):
            found = pattern.findall(path.read_text())
            assert not found, f"{path.relative_to(WEB)} names {found}"
