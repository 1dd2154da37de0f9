"""The lessons over HTTP: the steps in the reader's language with the learner's position and
moves, each move judged by the engine (done, wrong, refused), a signed-in player's progress
kept (a guest's too: guests are accounts), and every bad request refused with nothing kept."""

from __future__ import annotations

from fastapi import FastAPI
from sqlalchemy import func, select

from otherside.lessons import lesson
from otherside.server.store.models import LessonStep
from tests.server.conftest import client, guest

GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}


async def _kept(app: FastAPI) -> int:
    return await app.state.db.run(lambda s: s.scalar(select(func.count()).select_from(LessonStep)))


async def test_a_lesson_is_read_in_the_readers_language_with_the_learners_position(
    app: FastAPI,
) -> None:
    http = client(app)
    assert (await http.get("/api/lessons")).json() == {"games": ["verso", "versus", "rectoverso"]}
    english = (await http.get("/api/lessons/versus")).json()
    german = (await http.get("/api/lessons/versus", headers=GERMAN)).json()
    _game, taught = lesson("versus")
    assert [s["id"] for s in english["steps"]] == [s.id for s in taught.steps]
    assert english["title"] == "Learn VERSUS" and german["title"] == "VERSUS lernen"
    first = german["steps"][0]
    assert first["rule"] == "S7" and first["title"] == "Ein Stein zieht ein Feld"
    assert first["view"]["to_move"] == 0 and "0:-4>0:-3" in first["legal"]
    assert english["done"] == []
    page = await http.get("/learn/versus", headers=GERMAN)
    assert page.status_code == 200 and '<html lang="de"' in page.text


async def test_moves_are_judged_and_a_players_progress_is_kept(app: FastAPI) -> None:
    http, _me = await guest(app)
    wrong = await http.post("/api/lessons/versus/stone-move", json={"action": "2:-5>0:-5"})
    assert wrong.status_code == 200
    answer = wrong.json()
    assert answer["outcome"] == "wrong" and "VERSUS" in answer["message"]
    assert answer["view"]["versus"][0] == "0:-5" and answer["solution"] == "0:-4>0:-3"
    refused = await http.post("/api/lessons/versus/stone-move", json={"action": "0:-4>0:-2"})
    assert refused.json()["outcome"] == "refused" and refused.json()["view"] is None
    assert await _kept(app) == 0
    done = await http.post(
        "/api/lessons/versus/stone-move", json={"action": "0:-4>0:-3"}, headers=GERMAN
    )
    assert done.json()["outcome"] == "done" and done.json()["solution"] is None
    assert done.json()["message"].startswith("Gut gemacht")
    again = await http.post("/api/lessons/versus/stone-move", json={"action": "1:-4>1:-3"})
    assert again.json()["outcome"] == "done"
    assert (await http.get("/api/lessons/versus")).json()["done"] == ["stone-move"]
    assert await _kept(app) == 1
    stranger = client(app)  # not signed in: judged, nothing kept for anyone
    assert (
        await stranger.post("/api/lessons/versus/versus-move", json={"action": "2:-5>0:-5"})
    ).json()["outcome"] == "done"
    assert await _kept(app) == 1


async def test_bad_requests_are_refused_and_change_nothing(app: FastAPI) -> None:
    http, _me = await guest(app)
    unknown = await http.get("/api/lessons/chess", headers=GERMAN)
    assert unknown.status_code == 404 and unknown.json()["code"] == "no_lesson"
    step = await http.post("/api/lessons/versus/nope", json={"action": "0:-4>0:-3"})
    assert step.status_code == 404 and step.json()["code"] == "no_step"
    for body in ({}, {"action": ""}, {"action": "x" * 201}, {"action": 3}, []):
        answer = await http.post("/api/lessons/versus/stone-move", json=body)
        assert answer.status_code == 422, body
    assert await _kept(app) == 0


async def test_a_move_tried_again_is_judged_once_from_a_position_replayed_once(
    app: FastAPI,
) -> None:
    # A flood of one lesson move replayed the step and judged the move on the event loop each
    # time (10 ms for a Recto Verso step): now the process judges each move once.
    from otherside.server.http import lessons as lessons_route

    for kept in (lessons_route._start, lessons_route._position, lessons_route._judged):
        kept.cache_clear()
    http = client(app)
    step = (await http.get("/api/lessons/rectoverso")).json()["steps"][0]
    path = f"/api/lessons/rectoverso/{step['id']}"
    replayed = lessons_route._start.cache_info().misses  # each step's, to show the lesson
    answers = [(await http.post(path, json={"action": step["legal"][0]})).json() for _ in range(5)]
    assert all(a == answers[0] for a in answers) and answers[0]["outcome"] in ("done", "wrong")
    judged = lessons_route._judged.cache_info()
    assert (judged.misses, judged.hits) == (1, 4)
    assert lessons_route._start.cache_info().misses == replayed  # the step's, not replayed
    # Another move of the same step is judged from the same kept position.
    other = step["legal"][-1]
    assert (await http.post(path, json={"action": other})).json()["outcome"] in ("done", "wrong")
    assert lessons_route._start.cache_info().misses == replayed
