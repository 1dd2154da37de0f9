"""The server's rooms, read from the modules' syntax trees (``ast``): every module of
``src/otherside/server`` at most :data:`MODULE_LINES` lines, every class at most
:data:`CLASS_LINES`, every module with a docstring and named in its package's concern index
(the package ``__init__``'s docstring, "concern → :mod:`.module`"), and every reference in a
docstring (``:mod:``, ``:class:``, ``:func:``, ``:meth:``, ``:data:``, ``:attr:``) naming
something that exists — so that a newcomer finds a concern's one home from the map in one hop,
and the map cannot drift from the tree."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
SERVER = SRC / "otherside" / "server"
MODULE_LINES = 400
CLASS_LINES = 250
UNINDEXED = {SERVER / "store" / "migrations" / "versions"}
"""Packages whose modules need no line each in the index: the Alembic revisions, one module per
schema change, named by their number (the package's docstring says so)."""
NOT_IMPORTED = {SERVER / "store" / "migrations" / "env.py"}
"""Modules that only run inside Alembic (importing one outside it fails): their references are
checked, but a bare name in them cannot be looked up in the module."""
REFERENCE = re.compile(r":(mod|class|func|meth|data|attr|exc|obj):`~?([^`]+)`")


def _modules() -> list[Path]:
    return sorted(SERVER.rglob("*.py"))


def _rel(path: Path) -> str:
    return path.relative_to(SRC.parent).as_posix()


def _name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _package_of(path: Path) -> str:
    """The package relative references in ``path``'s docstrings start from."""
    return _name(path) if path.name == "__init__.py" else _name(path).rpartition(".")[0]


def _absolute(target: str, package: str) -> str:
    """``target`` of a reference written in ``package``, its leading dots resolved as Python
    resolves a relative import (``.x``: a module of ``package``; ``..x``: of its parent)."""
    dots = len(target) - len(target.lstrip("."))
    if not dots:
        return target
    base = package.split(".")[: len(package.split(".")) - dots + 1]
    rest = target[dots:]
    return ".".join([*base, rest] if rest else base)


def _resolves(target: str, path: Path) -> bool:
    """Whether ``target``, referred to in a docstring of ``path``, names something that exists:
    a module or a name in one (dotted from ``otherside``), or a name (or a class's member) of
    ``path``'s own module."""
    target = _absolute(target.strip(), _package_of(path))
    parts = target.split(".")
    if parts[0] == "otherside":
        for end in range(len(parts), 0, -1):
            try:
                found: object = importlib.import_module(".".join(parts[:end]))
            except ImportError:
                continue
            return _has(found, parts[end:])
        return False
    if path in NOT_IMPORTED:
        return False
    module = importlib.import_module(_name(path))
    if _has(module, parts):
        return True
    # A bare method or attribute name, as a class's docstring refers to its own members.
    return len(parts) == 1 and any(
        cls.__module__ == module.__name__ and hasattr(cls, parts[0])
        for _, cls in inspect.getmembers(module, inspect.isclass)
    )


def _has(found: object, names: list[str]) -> bool:
    for name in names:
        if isinstance(found, ModuleType) and not hasattr(found, name):
            try:
                found = importlib.import_module(f"{found.__name__}.{name}")
                continue
            except ImportError:
                return False
        if not hasattr(found, name):
            return False
        found = getattr(found, name)
    return True


def _docstrings(path: Path) -> list[tuple[int, str, str]]:
    """Each docstring of ``path``: its line, whose it is, and its text."""
    found = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            text = ast.get_docstring(node)
            if text:
                line = 1 if isinstance(node, ast.Module) else node.lineno
                owner = "the module" if isinstance(node, ast.Module) else node.name
                found.append((line, owner, text))
    return found


def _index_names(package: Path) -> set[str]:
    """The modules and packages a package's ``__init__`` docstring names with ``:mod:``."""
    init = package / "__init__.py"
    names = set()
    for _, _, text in _docstrings(init):
        for role, target in REFERENCE.findall(text):
            if role == "mod":
                names.add(_absolute(target, _name(init)))
    return names


def test_the_reference_reader_resolves_relative_names() -> None:
    """The checks below are only as good as the resolver: relative to a package, to a module's
    package and to its parent."""
    assert _absolute(".play", "otherside.server.tables") == "otherside.server.tables.play"
    assert _absolute("..live.nudges", "otherside.server.http") == "otherside.server.live.nudges"
    assert _resolves(".hub.TableHub.ask", SERVER / "tables" / "__init__.py")
    assert not _resolves(".hub.TableHub.forfeit", SERVER / "tables" / "__init__.py")
    assert _resolves("attach", SERVER / "tables" / "hub.py")  # a member of TableHub
    assert not _resolves(".seated", SERVER / "live" / "nudges.py")  # live has no seated


@pytest.mark.parametrize("path", _modules(), ids=_rel)
def test_a_module_fits_its_room(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MODULE_LINES, (
        f"{_rel(path)} has {lines} lines (at most {MODULE_LINES}): split it by concern into "
        f"modules of its package, each one reason to change, and name each new module in the "
        f"package's __init__ concern index"
    )
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.ClassDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            span = (node.end_lineno or node.lineno) - first + 1
            assert span <= CLASS_LINES, (
                f"{_rel(path)}:{first}: class {node.name} spans {span} lines (at most "
                f"{CLASS_LINES}): move what is not its one concern into functions or classes "
                f"of their own (another module if the concern is another)"
            )


@pytest.mark.parametrize("path", _modules(), ids=_rel)
def test_a_module_says_what_it_is(path: Path) -> None:
    assert ast.get_docstring(_tree(path)), (
        f"{_rel(path)} has no docstring: say what it is and what it is for, in its first lines"
    )


@pytest.mark.parametrize("path", _modules(), ids=_rel)
def test_a_module_is_named_in_its_package_index(path: Path) -> None:
    """A new module cannot land without a home in the map: its package's ``__init__`` names it
    (a package is named in its parent's)."""
    if path.name == "__init__.py":
        if path.parent == SERVER:
            return
        package, name = path.parent.parent, _name(path)
    else:
        package, name = path.parent, _name(path)
    if package in UNINDEXED:
        return
    index = package / "__init__.py"
    assert name in _index_names(package), (
        f"{_rel(path)} is not named in the concern index of {_rel(index)}: add a line "
        f"'<the concern a newcomer looks for> → :mod:`.{name.rpartition('.')[2]}`' to that "
        f"docstring (or move the module to the package whose concern it is)"
    )


@pytest.mark.parametrize("path", _modules(), ids=_rel)
def test_docstring_references_name_what_exists(path: Path) -> None:
    """A docstring that names a module, class, function or attribute names one that exists
    (a reference left behind by a rename or a move is drift)."""
    missing = [
        f"{_rel(path)}:{line} ({owner}): :{role}:`{' '.join(target.split())}`"
        + (" (split across lines: keep a reference on one line)" if "\n" in target else "")
        for line, owner, text in _docstrings(path)
        for role, target in REFERENCE.findall(text)
        if "\n" in target or not _resolves(target, path)
    ]
    assert not missing, (
        "docstrings refer to names that do not exist (renamed, moved or never written); "
        "correct the reference or the text:\n" + "\n".join(missing)
    )
