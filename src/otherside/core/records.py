"""Game records: JSON documents that replay a game exactly (format per game in ``rules/*.md``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from otherside.core.errors import BadRecord


def load_record(text: str, game: str | None = None) -> dict[str, Any]:
    """Parse a record from JSON text, checking that it is an object for ``game``.

    >>> load_record('{"game": "verso", "players": 2}', "verso")["players"]
    2
    >>> load_record('{"game": "versus"}', "verso")
    Traceback (most recent call last):
    ...
    otherside.core.errors.BadRecord: bad game record: this is a record of 'versus', not 'verso'
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadRecord(f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from exc
    return check_record_header(data, game)


def check_record_header(data: object, game: str | None) -> dict[str, Any]:
    """Check that ``data`` is a JSON object naming ``game``; return it as a dict."""
    if not isinstance(data, Mapping):
        raise BadRecord("a record must be a JSON object")
    name = data.get("game")
    if not isinstance(name, str):
        raise BadRecord("the record has no 'game' name")
    if game is not None and name != game:
        raise BadRecord(f"this is a record of {name!r}, not {game!r}")
    return dict(data)


def dump_record(record: Mapping[str, Any]) -> str:
    """Canonical JSON text of a record (stable key order, one action per line is not needed)."""
    return json.dumps(record, ensure_ascii=False, indent=1) + "\n"
