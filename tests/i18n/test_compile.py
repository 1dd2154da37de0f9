"""A fresh clone has the ``.po`` files only: the first use of a language compiles its catalog
(and writes the ``.mo`` beside it, or keeps it in memory where it cannot), once per process."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import otherside.i18n as i18n


@pytest.fixture
def fresh_locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the catalogs without any compiled file, in place of the package's."""
    copy = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, copy, ignore=shutil.ignore_patterns("*.mo", "*.tmp"))
    monkeypatch.setattr(i18n, "LOCALE_DIR", copy)
    for cached in (i18n.languages, i18n.translations, i18n.negotiate, i18n.catalog_json):
        cached.cache_clear()
    yield copy
    for cached in (i18n.languages, i18n.translations, i18n.negotiate, i18n.catalog_json):
        cached.cache_clear()


def test_the_first_use_compiles_the_catalog_and_writes_it(fresh_locale: Path) -> None:
    mo = fresh_locale / "de" / "LC_MESSAGES" / "otherside.mo"
    assert not mo.exists()
    assert i18n.say("de", "Create table") == "Tisch anlegen"
    assert mo.exists() and mo.stat().st_size > 1000
    # An edited .po is newer than its .mo: compiled again in the next process.
    po = mo.with_suffix(".po")
    os.utime(po, (mo.stat().st_mtime + 10, mo.stat().st_mtime + 10))
    i18n.translations.cache_clear()
    before = mo.stat().st_mtime
    assert i18n.say("de", "Create table") == "Tisch anlegen"
    assert mo.stat().st_mtime > before


def test_where_the_compiled_file_cannot_be_written_it_is_compiled_in_memory(
    fresh_locale: Path,
) -> None:
    folder = fresh_locale / "fr" / "LC_MESSAGES"
    # A directory where the .mo would go (older than the .po): writing it fails, as it would
    # in a read-only install, whoever runs the test.
    blocked = folder / "otherside.mo"
    blocked.mkdir()
    os.utime(blocked, (0, 0))
    assert i18n.say("fr", "Create table") == "Créer la table"
    assert blocked.is_dir() and sorted(p.name for p in folder.iterdir()) == [
        "otherside.mo",
        "otherside.po",
    ]  # no half-written file left behind


def test_a_new_language_folder_is_offered_at_once(fresh_locale: Path) -> None:
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    folder = fresh_locale / "it" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    catalog = Catalog(locale="it", domain="otherside")
    catalog.add("Create table", "Crea il tavolo")
    with (folder / "otherside.po").open("wb") as out:
        write_po(out, catalog)
    assert "it" in i18n.languages()
    assert i18n.negotiate("it-IT, en;q=0.5") == "it"
    assert i18n.say("it", "Create table") == "Crea il tavolo"
    assert ["it", "Italiano"] in json.loads(i18n.catalog_json("it")[0])["languages"]
