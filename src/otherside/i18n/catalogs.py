"""Keeping the catalogs: extract the messages from the sources, bring every language's ``.po``
up to date, start a new language, compile. ``python -m otherside.i18n extract|init|compile``
runs these (the README says how a contributor adds a language).

What is a message: ``N_("…")`` and ``Nn_("…", "…")`` in Python, ``t("…")`` and ``tn("…", "…")``
in the pages' modules, and the text of the pages' HTML (:mod:`otherside.i18n.html`).
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from otherside.i18n import DEFAULT, DOMAIN, LOCALE_DIR, languages, write_compiled

PACKAGE = LOCALE_DIR.parent
KEYWORDS = {"N_": None, "Nn_": (1, 2), "t": None, "tn": (1, 2)}
METHODS = [
    ("i18n/**.py", "ignore"),  # the catalogs' own machinery and its doctests
    ("**.py", "python"),
    ("web/js/**.js", "javascript"),
    ("web/*.html", "otherside.i18n.html:extract_html"),
]
HEADER = "Messages of otherside, the players' languages: see README.md (Languages)."


def extract() -> Catalog:
    """A fresh catalog of every message in the sources (the template of every language)."""
    catalog = Catalog(project="otherside", domain=DOMAIN, header_comment=f"# {HEADER}")
    found = extract_from_dir(
        str(PACKAGE),
        method_map=METHODS,
        keywords=KEYWORDS,
        options_map={"web/js/**.js": {"template_string": "true"}},
        strip_comment_tags=True,
    )
    for filename, line, message, comments, context in found:
        catalog.add(
            message,
            None,
            [(f"otherside/{filename}", line)],
            auto_comments=comments,
            context=context,
        )
    return catalog


def po_path(language: str) -> Path:
    """Where ``language``'s catalog lives."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(language: str) -> Catalog:
    """``language``'s catalog as it is on disk."""
    with po_path(language).open("rb") as source:
        return read_po(source, locale=language, domain=DOMAIN)


def write(catalog: Catalog, language: str) -> None:
    """Save ``catalog`` as ``language``'s ``.po`` (sorted, no line numbers: small diffs)."""
    path = po_path(language)
    path.parent.mkdir(parents=True, exist_ok=True)
    # The header is checked by people, not marked fuzzy: a fuzzy header would leave the plural
    # rule out of the compiled catalog.
    catalog.fuzzy = False
    catalog.header_comment = f"# {HEADER}"
    catalog.project, catalog.version = "otherside", "0.1"
    catalog.last_translator = catalog.language_team = "otherside contributors"
    catalog.msgid_bugs_address = ""
    with path.open("wb") as out:
        write_po(out, catalog, width=100, sort_output=True, omit_header=False, include_lineno=False)


def update() -> list[str]:
    """Bring every language's catalog up to a fresh extraction: new messages untranslated,
    gone ones dropped, changed ones fuzzy (to be checked). Returns the languages written."""
    template = extract()
    written = []
    for language in languages():
        catalog = read(language) if po_path(language).exists() else Catalog(locale=language)
        catalog.update(template, no_fuzzy_matching=False)
        catalog.obsolete.clear()
        write(catalog, language)
        written.append(language)
    return written


def init(language: str) -> Path:
    """Start ``language``'s catalog from a fresh extraction (every message untranslated)."""
    path = po_path(language)
    if path.exists():
        raise FileExistsError(f"{path} exists; 'extract' brings it up to date")
    catalog = Catalog(locale=language, domain=DOMAIN, project="otherside")
    catalog.update(extract())
    write(catalog, language)
    languages.cache_clear()
    return path


def compile_all() -> list[Path]:
    """Compile every language's ``.po`` into its ``.mo`` (what ``scripts/setup`` runs)."""
    return [write_compiled(po_path(lang)) for lang in languages() if lang != DEFAULT]
