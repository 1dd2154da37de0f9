"""The API's documentation page works on a server without the internet and under the pages'
content security policy: Swagger UI comes from the server itself (Chromium, a real server
process, every request outside it blocked)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from otherside.server.store.db import sqlite_url
from tests.server.processes import Server, free_port

pytestmark = pytest.mark.browser
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


@pytest.fixture
def api(tmp_path: Path) -> Iterator[Server]:
    process = Server(sqlite_url(tmp_path / "otherside.db"), free_port())
    try:
        yield process
    finally:
        process.kill()


def test_api_docs_render_offline_under_the_content_policy(api: Server, tmp_path: Path) -> None:
    page_answer = httpx.get(f"{api.url}/api/docs")
    assert page_answer.status_code == 200
    assert "script-src 'self'" in page_answer.headers["content-security-policy"]
    assert "cdn" not in page_answer.text.lower()
    if not shutil.which(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium; scripts/test does it)")
    from playwright.sync_api import sync_playwright

    outside: list[str] = []
    problems: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})

            def only_this_server(route: Any) -> None:
                if route.request.url.startswith(api.url):
                    route.continue_()
                else:
                    outside.append(route.request.url)
                    route.abort()

            page.route("**/*", only_this_server)
            page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda error: problems.append(str(error)))
            page.goto(f"{api.url}/api/docs")
            page.wait_for_selector(".opblock", timeout=20000)
            assert page.locator(".opblock").count() > 20
            assert page.get_by_text("/api/tables/{table_id}/replay").count() >= 1
            page.screenshot(path=str(tmp_path / "api-docs.png"))
        finally:
            browser.close()
    assert outside == []
    assert problems == [], problems
