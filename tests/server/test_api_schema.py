"""The API's documentation (``/openapi.json``, drawn by ``/api/docs``) names the schema of every
JSON answer, so that a client can be written from it; the free-form parts are a game's own."""

from __future__ import annotations

from typing import Any

from otherside.server.app import create_app
from otherside.server.store.db import sqlite_url

FILES = {("get", "/api/tables/{table_id}/record")}  # a game's record, in the game's own format


def _named(schema: dict[str, Any]) -> bool:
    if "$ref" in schema:
        return True
    return schema.get("type") == "array" and "$ref" in schema.get("items", {})


def test_every_json_answer_of_the_api_has_a_named_schema(tmp_path: Any) -> None:
    document = create_app(sqlite_url(tmp_path / "docs.db")).openapi()
    unnamed = set()
    answers = 0
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            ok = [r for code, r in operation["responses"].items() if code.startswith("2")]
            assert ok, f"{method} {path} documents no successful answer"
            for response in ok:
                json_answer = response.get("content", {}).get("application/json")
                if json_answer is None:
                    assert response.get("content"), f"{method} {path} documents no content"
                    continue
                answers += 1
                if not _named(json_answer["schema"]):
                    unnamed.add((method, path))
    assert unnamed == FILES
    assert answers >= 24  # every JSON route of accounts, lobby, tables, replays, players


def test_a_table_answer_documents_its_seats_and_the_free_form_parts(tmp_path: Any) -> None:
    schemas = create_app(sqlite_url(tmp_path / "docs.db")).openapi()["components"]["schemas"]
    table = schemas["TableOut"]["properties"]
    assert table["seats"]["items"] == {"$ref": "#/components/schemas/SeatOut"}
    assert table["options"]["type"] == "object"  # the game's options: its own
    mine = schemas["MyTableOut"]["properties"]
    assert {"you", "your_turn"} <= set(mine) and set(table) <= set(mine)
    step = schemas["ReplayStep"]["properties"]
    assert step["view"]["type"] == "object" and "seat" in step and "at" in step
