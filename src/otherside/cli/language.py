"""The terminal's language: ``otherside --lang de …``, else the locale the terminal runs in
(``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``, as POSIX orders them), else English.

The player-facing words of the CLI are messages of the catalogs (:mod:`otherside.i18n`), marked
where they are written with :func:`t` and :func:`tn` (the catalogs' extraction finds both) and
said in the language chosen once per run by the ``otherside`` command. :func:`fill` puts Rich
renderables (a coloured card face) into a translated sentence, wherever the language puts them.

>>> locale_language("de_DE.UTF-8"), locale_language("fr_BE@euro"), locale_language("C")
('de', 'fr', 'en')
>>> language_from({"LANG": "nl_NL.UTF-8", "LC_MESSAGES": "fr_FR"})
'fr'
>>> language_from({"LC_ALL": "ja_JP.UTF-8", "LANG": "de_DE"})
'en'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rich.text import Text

from otherside.i18n import DEFAULT, N_, languages, say, say_n, spoken

ENVIRONMENT = ("LC_ALL", "LC_MESSAGES", "LANG")
"""The variables that name the terminal's language, the first set one deciding."""

_FIELD = re.compile(r"\{(\w+)\}")
_chosen = DEFAULT


def locale_language(value: str) -> str:
    """The language of a locale name (``de_DE.UTF-8``, ``de-AT``, ``nl``): its primary tag,
    lower case; English for ``C`` and ``POSIX``."""
    tag = re.split(r"[_.@-]", value.strip(), maxsplit=1)[0].lower()
    return DEFAULT if tag in ("", "c", "posix") else tag


def language_from(environ: Mapping[str, str]) -> str:
    """The terminal's language as its environment names it: one of the catalogs' languages,
    English when the first variable set names none of them."""
    for name in ENVIRONMENT:
        if environ.get(name):
            wanted = locale_language(environ[name])
            return spoken(wanted)
    return DEFAULT


def choose(option: str | None, environ: Mapping[str, str]) -> str:
    """The language of this run: ``--lang`` when given, else the environment's.

    Raises:
        ValueError: ``--lang`` names a language without a catalog.
    """
    if option is None:
        return language_from(environ)
    wanted = locale_language(option)
    if wanted not in languages():
        raise ValueError(
            say(
                language_from(environ),
                N_("no language {given!r}; choose one of {known}"),
                given=option,
                known=", ".join(languages()),
            )
        )
    return wanted


def use(language: str) -> None:
    """Say every later message of this run in ``language``."""
    global _chosen
    _chosen = spoken(language)


def current() -> str:
    """The language messages are said in now."""
    return _chosen


def t(message: str, /, **params: Any) -> str:
    """``message`` (an English template) in the terminal's language, its fields filled from
    ``params``; without ``params`` the translated template, fields left for :func:`fill`."""
    return say(_chosen, message, **params)


def tn(singular: str, plural: str, count: int, /, **params: Any) -> str:
    """A message with a plural form, for ``count`` (also the field ``{count}``)."""
    return say_n(_chosen, singular, plural, count, **params)


def fill(template: str, style: str = "", /, **fields: str | Text) -> Text:
    """A translated ``template`` as Rich text, each ``{field}`` replaced by its text or styled
    renderable, in the order the language puts them.

    >>> fill("{who} drew {face}", "bold", who="You", face=Text("B3", "blue")).plain
    'You drew B3'
    """
    out = Text(style=style)
    last = 0
    for match in _FIELD.finditer(template):
        out.append(template[last : match.start()])
        value = fields.get(match[1], match[0])
        if isinstance(value, Text):
            out.append_text(value)
        else:
            out.append(str(value))
        last = match.end()
    out.append(template[last:])
    return out
