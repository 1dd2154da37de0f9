"""The import direction of ARCHITECTURE.md, read from the modules' syntax trees (``ast``), not
their text: core imports nothing of the package; games only core; bots never cli, server,
simulate or research; research is imported by nothing but the CLI's research commands; core and
games touch no I/O module and no module-level randomness; no module imports another's private
``_name``."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "otherside"

FORBIDDEN = {
    "core": ("games", "bots", "simulate", "research", "cli", "server", "rl"),
    "games": ("bots", "simulate", "research", "cli", "server", "rl"),
    "bots": ("simulate", "research", "cli", "server"),
    "simulate": ("research", "cli", "server"),
    "research": ("cli", "server"),
    "server": ("research",),
    # The players' rules texts: data read by the CLI and the server, depending on nothing.
    # Lessons: positions and words checked by the engines; no server, no terminal.
    "lessons": ("simulate", "research", "cli", "server", "rl"),
    "guide": ("core", "games", "bots", "simulate", "research", "cli", "server", "rl"),
}
RESEARCH_COMMANDS = {"cli/verso_train.py", "cli/verso_simulate.py"}
"""The CLI modules of the research commands (``train-value``, ``simulate``'s observers): the only
ones of the CLI that may import :mod:`otherside.research`."""
IMPURE = (
    "asyncio",
    "socket",
    "subprocess",
    "os",
    "pathlib",
    "shutil",
    "tempfile",
    "fastapi",
    "sqlalchemy",
    "typer",
    "rich",
)
RANDOM_STATE = {"Random"}
"""What core and games may take from :mod:`random`: the class (an injected, seeded generator);
never the module-level functions, which draw from a hidden global state."""


def _modules() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def _name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _imports(path: Path) -> list[tuple[str, list[str]]]:
    package = _name(path) if path.name == "__init__.py" else _name(path).rpartition(".")[0]
    return list(_imports_in(path.read_text(encoding="utf-8"), package))


def _imports_in(source: str, package: str) -> Iterator[tuple[str, list[str]]]:
    """Each module imported anywhere in ``source`` (a module of ``package``) with the names
    taken from it, relative imports resolved."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, module] if module else base)
            yield module, [alias.name for alias in node.names]


def _layer(path: Path) -> str:
    return path.relative_to(SRC).parts[0]


def test_the_ast_reader_sees_every_form_of_import() -> None:
    """The checks below are only as good as the reader: aliased, relative, nested imports."""
    source = (
        "import random as r\nfrom random import choice\nfrom . import cards\n"
        "from ..versus import rules\ndef f():\n    from otherside.bots import base\n"
    )
    assert list(_imports_in(source, "otherside.games.verso")) == [
        ("random", []),
        ("random", ["choice"]),
        ("otherside.games.verso", ["cards"]),
        ("otherside.games.versus", ["rules"]),
        ("otherside.bots", ["base"]),
    ]


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_import_direction(layer: str) -> None:
    files = [p for p in _modules() if _layer(p) == layer]
    assert files, f"no modules under {layer}"
    for path in files:
        for module, names in _imports(path):
            targets = [module, *(f"{module}.{n}" for n in names)]
            for banned in FORBIDDEN[layer]:
                full = f"otherside.{banned}"
                bad = [t for t in targets if t == full or t.startswith(full + ".")]
                assert not bad, f"{path.relative_to(SRC)} imports {bad[0]}"


def test_only_the_research_commands_of_the_cli_import_research() -> None:
    for path in _modules():
        rel = path.relative_to(SRC).as_posix()
        if _layer(path) != "cli" or rel in RESEARCH_COMMANDS:
            continue
        for module, names in _imports(path):
            targets = [module, *(f"{module}.{n}" for n in names)]
            assert not any(t.startswith("otherside.research") for t in targets), (
                f"{rel} imports {module}: only {sorted(RESEARCH_COMMANDS)} may"
            )


@pytest.mark.parametrize("layer", ["core", "games"])
def test_rules_are_pure(layer: str) -> None:
    for path in (p for p in _modules() if _layer(p) == layer):
        rel = path.relative_to(SRC)
        for module, names in _imports(path):
            assert module.split(".")[0] not in IMPURE, f"{rel} imports {module}"
            if module == "random":
                assert set(names) <= RANDOM_STATE, f"{rel} takes {names} from random"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr not in RANDOM_STATE
            ):
                pytest.fail(f"{rel}:{node.lineno} uses module-level random.{node.attr}")


def test_no_module_imports_a_private_name_of_another() -> None:
    for path in _modules():
        for module, names in _imports(path):
            if not module.startswith("otherside"):
                continue
            private = [n for n in [*module.split("."), *names] if n.startswith("_")]
            private = [n for n in private if not (n.startswith("__") and n.endswith("__"))]
            assert not private, f"{path.relative_to(SRC)} imports {module} {private}"
