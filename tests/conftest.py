"""The order of the whole suite: the tests marked ``slow`` first.

``scripts/test`` runs the suite on both cores (pytest-xdist hands the tests out in the order
collected). A test of a minute handed out last keeps one core busy while the other has nothing
left, so the long ones start first and the short ones fill in around them.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the tests marked ``slow`` to the front, each group keeping its order."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
