"""A signed-in player's settings over HTTP: ``GET /api/me/settings`` and ``PUT
/api/me/settings`` (``{"confirm_moves": true}``; ``null`` goes back to the default, which the
pages decide: on in turn-based games). A guest keeps them in the browser instead."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, StrictBool

from otherside.i18n import N_
from otherside.server.accounts.sessions import UserInfo, current_user
from otherside.server.accounts.settings import store_confirm_moves, stored_confirm_moves
from otherside.server.http.deps import DatabaseDep
from otherside.server.http.errors import Told

router = APIRouter(prefix="/api")


class SettingsBody(BaseModel):
    """Body of ``PUT /api/me/settings`` and its answer."""

    model_config = ConfigDict(extra="forbid")

    confirm_moves: StrictBool | None = None


def _signed_in(user: UserInfo | None) -> UserInfo:
    if user is None or user.is_guest:
        raise Told(401, "not_signed_in", N_("sign in to keep settings on your account"))
    return user


@router.get("/me/settings")
async def read_settings(
    db: DatabaseDep, user: Annotated[UserInfo | None, Depends(current_user)]
) -> SettingsBody:
    """The signed-in player's settings."""
    user_id = _signed_in(user).id
    return SettingsBody(confirm_moves=await db.run(lambda s: stored_confirm_moves(s, user_id)))


@router.put("/me/settings")
async def write_settings(
    body: SettingsBody, db: DatabaseDep, user: Annotated[UserInfo | None, Depends(current_user)]
) -> SettingsBody:
    """Keep the signed-in player's settings; the settings as kept."""
    user_id = _signed_in(user).id
    await db.run(lambda s: store_confirm_moves(s, user_id, body.confirm_moves))
    return body
