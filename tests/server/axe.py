"""axe-core, run in a page by Playwright: the accessibility checks of the browser tests.

The engine is ``axe.min.js`` as the PyPI package ``axe-playwright-python`` ships it (a dev
dependency, so ``scripts/setup dev`` brings the same file to every machine; nothing vendored
here). Only the script is used: it is injected into the page and run with the rule sets the
project promises (WCAG 2 A and AA, and axe's best practices).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


@cache
def axe_script() -> str:
    """The text of axe.min.js shipped by ``axe-playwright-python`` (read once)."""
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")


def violations(page: Any) -> list[dict[str, Any]]:
    """The axe violations of what ``page`` shows now, for the rule sets of ``TAGS``."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_script())
    options = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
    found: list[dict[str, Any]] = page.evaluate(
        f"axe.run(document, {json.dumps(options)}).then(r => r.violations)"
    )
    return found


def report(found: list[dict[str, Any]]) -> str:
    """The violations in a few lines a person can act on: rule, impact, the elements, why."""
    lines = []
    for violation in found:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"][:12]:
            why = node["failureSummary"].splitlines()[-1]
            lines.append(f"    {' '.join(node['target'])}: {why}")
    return "\n".join(lines)
