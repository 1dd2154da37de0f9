"""Players' pages: ratings per game with their history, personal bests where a game is not
rated against others (solo Verso, the cooperative Recto Verso), and the recent games.

``GET /api/players/{name}`` is the data; the page ``/player/{name}`` draws it (with a plot of
each rating's history).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends
from sqlalchemy import select
from sqlalchemy.orm import Session

from otherside.i18n import N_
from otherside.server.accounts.rates import counted
from otherside.server.http.deps import CoalescedDep, DatabaseDep
from otherside.server.http.errors import Told
from otherside.server.http.reader import LanguageDep
from otherside.server.http.schemas import PlayerOut
from otherside.server.live.wire import seat_names
from otherside.server.ratings.rated import current_ratings, rating_history
from otherside.server.store.models import User
from otherside.server.store.queries import find_user, finished_scores, list_user_tables
from otherside.server.store.records import TableInfo
from otherside.server.tables.adapters import available_adapters
from otherside.server.tables.outcome_words import words as outcome_words

router = APIRouter(prefix="/api")
RECENT = 20
# Games a player plays alone or with a partner rather than against others: their own bests.
PERSONAL = (("verso", 1, "Solo Verso", "VP"), ("rectoverso", 2, "Recto Verso for two", "levels"))


def _result(info: TableInfo, seat: int) -> str:
    outcome = info.outcome
    if info.status != "over" or not outcome:
        return "waiting" if info.status == "waiting" else "playing"
    if info.seats[seat].forfeit:
        return {"resigned": "resigned", "timeout": "lost on time", "left": "left"}.get(
            info.seats[seat].forfeit or "", "forfeited"
        )
    if info.players == 1:
        return f"{outcome['scores'][seat]} VP"
    winners = outcome.get("winners", [])
    if not winners:
        return "draw"
    return "won" if seat in winners else "lost"


# Six reads of the database each: counted per account and per address (429 beyond).
@router.get("/players/{name}", dependencies=[Depends(counted(lambda rates: rates.player_pages))])
async def player(
    name: str, db: DatabaseDep, shared: CoalescedDep, language: LanguageDep
) -> PlayerOut:
    """One player: ratings with history, personal bests, recent games (their players named
    in ``language`` as their tables name them)."""

    def load(session: Session) -> dict[str, Any] | None:
        found = find_user(session, name)
        if found is None:
            return None
        user_id, real_name, guest, joined = found
        bot = bool(session.scalar(select(User.is_bot).where(User.id == user_id)))
        history = rating_history(session, user_id)
        now = current_ratings(session, user_id)
        titles = {a.name: a.title for a in available_adapters()}
        ratings = [
            {
                "game": game,
                "title": titles.get(game, game),
                "rating": round(rating),
                "games": games,
                "history": history.get(game, []),
            }
            for game, (rating, games) in sorted(now.items())
            if games
        ]
        bests = []
        for game, players, title, unit in PERSONAL:
            scores = finished_scores(session, user_id, game, players)
            if scores:
                bests.append(
                    {
                        "game": game,
                        "title": title,
                        "unit": unit,
                        "games": len(scores),
                        "best": max(scores),
                        "average": round(sum(scores) / len(scores), 1),
                        "scores": scores[-50:],
                    }
                )
        changes = {h["table"]: h["change"] for moves in history.values() for h in moves}
        recent = []
        for info in list_user_tables(session, user_id)[:RECENT]:
            seat = info.seat_of(user_id)
            assert seat is not None
            recent.append(
                {
                    "id": info.id,
                    "game": info.game,
                    "title": titles.get(info.game, info.game),
                    "players": seat_names(info.seats, language),
                    "bots": [None if s.user_name else s.bot for s in info.seats],
                    "seat": seat,
                    "status": info.status,
                    "result": _result(info, seat),
                    "scores": info.outcome["scores"] if info.outcome else None,
                    "reason": info.outcome.get("reason") if info.outcome else None,
                    "words": outcome_words(info.outcome) if info.outcome else None,
                    "rated": info.rated,
                    "change": changes.get(info.id),
                    "at": (info.updated_at or info.created_at).isoformat(),
                }
            )
        return {
            "name": real_name,
            "guest": guest,
            "bot": bot,
            "joined": joined.isoformat(),
            "ratings": ratings,
            "bests": bests,
            "recent": recent,
        }

    # Six reads of the database: computed once for those who ask at once (a flood of one
    # page made another table's sync wait 120 ms instead of a few).
    data = await shared.answer(("player", name, language), lambda: db.run(load))
    if data is None:
        raise Told(404, "no_player", N_("no player called '{name}'"), name=name)
    return PlayerOut.model_validate(data)
