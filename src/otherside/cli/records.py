"""Game record files for the command line: reading and writing the JSON records of
:mod:`otherside.core.records` (the core stays free of file I/O)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from otherside.core.errors import BadRecord
from otherside.core.records import dump_record, load_record


def read_record_file(path: str | Path, game: str | None = None) -> dict[str, Any]:
    """Read a record file; ``BadRecord`` names the file on any problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BadRecord(f"cannot read {path}: {exc.strerror}") from exc
    return load_record(text, game)


def write_record_file(path: str | Path, record: Mapping[str, Any]) -> None:
    """Write a record file atomically enough for a CLI (write then rename)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(dump_record(record), encoding="utf-8")
    tmp.replace(path)
