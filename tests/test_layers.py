"""The import direction of ARCHITECTURE.md: core imports nothing of the package; games import
only core; bots never import cli or server; core and games never touch I/O modules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "otherside"

FORBIDDEN = {
    "core": (
        "otherside.games",
        "otherside.bots",
        "otherside.cli",
        "otherside.server",
        "otherside.rl",
    ),
    "games": ("otherside.bots", "otherside.cli", "otherside.server", "otherside.rl"),
    "bots": ("otherside.cli", "otherside.server"),
    # The players' rules texts: data read by the CLI and the server, depending on nothing.
    "guide": (
        "otherside.core",
        "otherside.games",
        "otherside.bots",
        "otherside.cli",
        "otherside.server",
        "otherside.rl",
    ),
}
IMPURE = ("asyncio", "socket", "fastapi", "sqlalchemy", "typer", "rich", "subprocess")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_import_direction(layer: str) -> None:
    files = sorted((SRC / layer).rglob("*.py"))
    assert files, f"no modules under {layer}"
    for path in files:
        for name in _imports(path):
            bad = [f for f in FORBIDDEN[layer] if name == f or name.startswith(f + ".")]
            assert not bad, f"{path.relative_to(SRC)} imports {name}"


@pytest.mark.parametrize("layer", ["core", "games"])
def test_rules_are_pure(layer: str) -> None:
    for path in sorted((SRC / layer).rglob("*.py")):
        for name in _imports(path):
            top = name.split(".")[0]
            assert top not in IMPURE, f"{path.relative_to(SRC)} imports {name}"
        text = path.read_text(encoding="utf-8")
        for call in ("random.random(", "random.choice(", "random.shuffle(", "random.randint("):
            assert call not in text, f"{path.relative_to(SRC)} uses module-level {call}"
