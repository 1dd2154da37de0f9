"""The players' languages: gettext catalogs managed with Babel, one per language.

A message is written once, in English, as a ``str.format`` template with named fields
(``"seat {seat} is taken by {name}"``), and marked where it is written: ``N_`` (Python) or
``t``/``tn`` (the pages' modules, ``web/js/core/i18n.js``). The catalogs
(``otherside/locale/<language>/LC_MESSAGES/otherside.po``) translate it; the compiled ``.mo``
files are built by ``scripts/setup`` (``python -m otherside.i18n compile``) or, when missing or
older than their ``.po``, compiled in memory the first time a language is used. Each
language's translations and its JSON for the pages are built once per process.

The languages are the folders of ``otherside/locale``: adding one is adding its ``.po``.

>>> say("de", "the table is full")
'der Tisch ist voll'
>>> say("fr", "seat {seat} is taken by {name}", seat=2, name="Ada")
'la place 2 est prise par Ada'
>>> say_n("nl", "{count} game", "{count} games", 3)
'3 partijen'
>>> negotiate("fr-CH, fr;q=0.9, de;q=0.8")
'fr'
>>> negotiate("ja, zh;q=0.5")
'en'
"""

from __future__ import annotations

import functools
import gettext
import hashlib
import io
import json
import os
import tempfile
from pathlib import Path
from typing import Any

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "otherside"
DEFAULT = "en"
COOKIE = "lang"


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs where it is written; it is translated when said."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message with a plural form for the catalogs; :func:`say_n` says it."""
    return singular, plural


def _po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def languages() -> tuple[str, ...]:
    """The languages that have a catalog, English first."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return (DEFAULT, *(lang for lang in found if lang != DEFAULT))


def spoken(language: str | None) -> str:
    """``language`` if the site speaks it, else English.

    >>> spoken("de"), spoken("xx"), spoken(None)
    ('de', 'en', 'en')
    """
    return language if language is not None and language in languages() else DEFAULT


def language_name(language: str) -> str:
    """A language's name in itself (``"Deutsch"``), as the switcher shows it."""
    from babel import Locale

    name = Locale.parse(language).get_display_name(language) or language
    return name[:1].upper() + name[1:]


def compile_mo(po: Path) -> bytes:
    """The compiled (``.mo``) form of the catalog ``po``; fuzzy entries are left out."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as source:
        catalog = read_po(source, locale=po.parent.parent.name, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def write_compiled(po: Path) -> Path:
    """Compile ``po`` into the ``.mo`` beside it (atomically: several server processes may
    compile at once) and return its path."""
    mo = po.with_suffix(".mo")
    data = compile_mo(po)
    fd, tmp = tempfile.mkstemp(dir=po.parent, suffix=".mo.tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, mo)
    except OSError:
        Path(tmp).unlink(missing_ok=True)
        raise
    return mo


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """The translations of ``language`` (English and unknown languages: the messages as
    written). The compiled catalog is used when it is current, else the ``.po`` is compiled
    (and the ``.mo`` written when the folder is writable), once per process."""
    if language == DEFAULT or language not in languages():
        return gettext.NullTranslations()
    po = _po_path(language)
    mo = po.with_suffix(".mo")
    if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
        try:
            write_compiled(po)
        except OSError:
            # A read-only install: compile in memory instead.
            return gettext.GNUTranslations(io.BytesIO(compile_mo(po)))
    with mo.open("rb") as source:
        return gettext.GNUTranslations(source)


def say(language: str, message: str, /, **params: Any) -> str:
    """``message`` (an English template marked with :func:`N_`) in ``language``, its fields
    filled from ``params``."""
    text = translations(language).gettext(message)
    return text.format(**params) if params else text


def say_n(language: str, singular: str, plural: str, count: int, /, **params: Any) -> str:
    """A message with a plural form, for ``count`` (also the field ``{count}``)."""
    return translations(language).ngettext(singular, plural, count).format(count=count, **params)


@functools.lru_cache(maxsize=512)
def negotiate(accept_language: str | None) -> str:
    """The best of :func:`languages` for an ``Accept-Language`` header (English if none fits);
    the primary subtag decides (``de-AT`` reads ``de``)."""
    if not accept_language:
        return DEFAULT
    wanted: list[tuple[float, int, str]] = []
    for index, part in enumerate(accept_language.split(",")[:32]):
        tag, _, quality = part.strip().partition(";q=")
        try:
            weight = float(quality) if quality else 1.0
        except ValueError:
            continue
        if weight > 0:
            wanted.append((-weight, index, tag.strip().split("-")[0].lower()))
    known = languages()
    for _weight, _index, language in sorted(wanted):
        if language in known:
            return language
    return DEFAULT


def choose(cookie: str | None, accept_language: str | None) -> str:
    """The reader's language: the one chosen on the switcher (its cookie, which signing in
    sets from the account), else the browser's ``Accept-Language``."""
    if cookie in languages():
        return str(cookie)
    return negotiate(accept_language)


@functools.cache
def catalog_json(language: str) -> tuple[bytes, str]:
    """Every message of ``language`` for the pages, as JSON, and its digest (an ETag):
    ``{"language", "languages": [[code, name]…], "messages": {id: text or [forms]}}``.
    English messages are the ids themselves, so English sends none."""
    from babel.messages.pofile import read_po

    messages: dict[str, Any] = {}
    if language != DEFAULT and language in languages():
        with _po_path(language).open("rb") as source:
            catalog = read_po(source, locale=language, domain=DOMAIN)
        for message in catalog:
            if not message.id or message.fuzzy:
                continue
            if isinstance(message.id, tuple | list):
                forms = [str(form) for form in message.string or ()]
                if all(forms):
                    messages[message.id[0]] = forms
            elif message.string:
                messages[message.id] = message.string
    body = json.dumps(
        {
            "language": language,
            "languages": [[code, language_name(code)] for code in languages()],
            "messages": messages,
        },
        ensure_ascii=False,
        sort_keys=True,
    ).encode()
    return body, hashlib.sha256(body).hexdigest()[:16]
