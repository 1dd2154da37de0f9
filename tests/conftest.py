"""The order of the whole suite: the tests marked ``slow`` first, the browser tests of each group
side by side. And the server processes the tests start are forked from one that has imported
the server already (:func:`otherside.testing.servers.fork_servers`).

``scripts/test`` runs the suite on both cores (pytest-xdist hands the tests out in the order
collected, and a core with nothing left takes tests queued for the other: ``--dist
worksteal``). A test of a minute handed out last keeps one core busy while the other has
nothing left, so the long ones start first and the short ones fill in around them. Browser
tests that run one after the other share one Chromium (``tests/server/conftest.py``), so they
are kept together.
"""

from __future__ import annotations

import pytest

from otherside.testing.servers import fork_servers

fork_servers()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the tests marked ``slow`` to the front (those among them with a browser first), the
    rest keeping their order."""

    def key(item: pytest.Item) -> tuple[bool, bool]:
        slow = item.get_closest_marker("slow") is not None
        browser = "browser" in getattr(item, "fixturenames", ())
        return (not slow, not (slow and browser))

    items.sort(key=key)
