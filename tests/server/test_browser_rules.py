"""The rules pages in German, French and Dutch in real Chromium, on a phone (390×844) and a
desktop (1280×800): the guide of the page's language, headings and rule links that work, and
nothing wider than the screen (German words are long). Screenshots go to ``SHOTS``."""

from __future__ import annotations

from typing import Any

import pytest

from otherside.guide import GAMES, rule_titles, rules_text
from tests.server.browsing import shoot

pytestmark = pytest.mark.browser
SCREENS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
LOCALES = {"de": "de-DE", "fr": "fr-FR", "nl": "nl-NL"}
# A wide element on a narrow screen: what sticks out past the right edge of the page.
WIDER_THAN_THE_SCREEN = """() => [...document.querySelectorAll('main *')]
  .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .map((e) => `${e.tagName}.${e.className}: ${e.textContent.slice(0, 40)}`)"""


def _headings(text: str) -> list[str]:
    return [line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")]


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("language", LOCALES)
def test_the_rules_pages_read_in_the_browsers_language_and_fit_the_screen(
    server: str, browser: Any, language: str, screen: str
) -> None:
    context = browser.new_context(
        viewport=SCREENS[screen], device_scale_factor=2, locale=LOCALES[language]
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        for game in GAMES:
            page.goto(f"{server}/rules/{game}")
            page.wait_for_selector("#rules h1")
            assert page.get_attribute("html", "lang") == language
            shown = [h.strip() for h in page.locator("#rules h1, #rules h2").all_inner_texts()]
            assert shown == _headings(rules_text(game, language))
            # Every rule id of the references is an anchor (the rule links of the boards): the
            # rows' ids read in one call, not one call per rule.
            rows = page.eval_on_selector_all("tr[id]", "rows => rows.map((row) => row.id)")
            for rule in rule_titles(game, language):
                assert rows.count(rule) == 1, rule
            shoot(page, f"rules-{language}-{game}-{screen}", full_page=True)
            assert page.evaluate(WIDER_THAN_THE_SCREEN) == [], (language, game, screen)
            width, inner = page.evaluate(
                "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
            )
            assert width <= inner, f"{language}/{game} on a {screen}: {width} px > {inner} px"
        # A rule link from a game's messages opens the rules at that rule.
        page.goto(f"{server}/rules/versus#S10")
        page.wait_for_selector("#rules tr#S10")
        assert "Anziehung" in page.inner_text("tr#S10") or language != "de"
        assert errors == []
    finally:
        context.close()
