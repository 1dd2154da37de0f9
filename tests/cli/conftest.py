"""The CLI's tests read English whatever the machine's locale, and a test that chose another
language leaves none behind for the next one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from otherside.cli import language
from otherside.i18n import DEFAULT


@pytest.fixture(autouse=True)
def english_terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in language.ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    language.use(DEFAULT)
    yield
    language.use(DEFAULT)
