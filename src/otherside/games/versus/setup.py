"""The decided numbers of VERSUS, as data in one place (S2, S6, S10, S11, S13.4).

:class:`VersusOptions` is a frozen dataclass; the default instance is the project's edition
(rules page, "Decisions"). Any field can be changed to describe another edition without
touching the rules code, and the options travel in every game record (``"options"``), so a
record replays under the numbers it was played with.

>>> options = VersusOptions()
>>> options.targets
('-3:0', '-2:0', '-1:0', '1:0', '2:0', '3:0')
>>> [s.b for s in options.stones if s.owner == "brown"]
[4, 3, 1, 2, 2]
>>> VersusOptions.from_json(options.to_json()) == options
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from otherside.core.errors import BadNotation, OthersideError
from otherside.games.versus.notation import parse_cell

SEGMENTS = 5
"""Segments of a stone (S4): a stone with ``b`` blue segments is worth ``SEGMENTS - b`` to Brown."""

COLOURS = ("blue", "brown")
"""Player names in seat order (S3): seat 0 is Blue and moves first."""


class BadOptions(OthersideError):
    """Options that do not describe a playable VERSUS edition; the message says which and why."""


@dataclass(frozen=True)
class StoneSetup:
    """A stone at the start: its cell, blue segments ``b`` (S4) and who controls it."""

    cell: str
    b: int
    owner: str

    def to_json(self) -> dict[str, Any]:
        """JSON form: ``{"cell": "0:-4", "b": 1, "owner": "blue"}``."""
        return {"cell": self.cell, "b": self.b, "owner": self.owner}


def mirrored(stones: tuple[StoneSetup, ...]) -> tuple[StoneSetup, ...]:
    """The opponent's stones by point symmetry (S6): ``(q, r) → (-q, -r)``, ``b → 5 - b``.

    >>> mirrored((StoneSetup("1:-4", 2, "blue"),))
    (StoneSetup(cell='-1:4', b=3, owner='brown'),)
    """
    result = []
    for stone in stones:
        q, r = (int(x) for x in stone.cell.split(":"))
        owner = COLOURS[1 - COLOURS.index(stone.owner)]
        result.append(StoneSetup(f"{-q}:{-r}", SEGMENTS - stone.b, owner))
    return tuple(result)


_BLUE_STONES = (
    StoneSetup("0:-4", 1, "blue"),
    StoneSetup("1:-4", 2, "blue"),
    StoneSetup("2:-4", 4, "blue"),
    StoneSetup("3:-4", 3, "blue"),
    StoneSetup("4:-4", 3, "blue"),
)


@dataclass(frozen=True)
class VersusOptions:
    """Every decided number of a VERSUS edition.

    Attributes:
        targets: the target cells (S2).
        versus: start cells of the Blue and Brown VERSUS (S6).
        stones: the stones at the start (S6); their order is their identity (stone ``k``).
        pull_distance: how far an attracted stone travels (S10); ``None`` (the decision):
            all the way to the cell next to the VERSUS.
        tug_limit: S11's count: after this many plies in a row attracting a stone, the player
            whose colour is not its majority colour cannot attract it; ``None`` turns S11 off.
        quiet_limit: S13.4: the game ends after this many plies in a row lock no stone.
    """

    targets: tuple[str, ...] = ("-3:0", "-2:0", "-1:0", "1:0", "2:0", "3:0")
    versus: tuple[str, str] = ("2:-5", "-2:5")
    stones: tuple[StoneSetup, ...] = field(default=(*_BLUE_STONES, *mirrored(_BLUE_STONES)))
    pull_distance: int | None = None
    tug_limit: int | None = 2
    quiet_limit: int = 100

    def __post_init__(self) -> None:
        try:
            cells = [parse_cell(c) for c in (*self.targets, *self.versus)]
            cells += [parse_cell(s.cell) for s in self.stones]
        except BadNotation as exc:
            raise BadOptions(f"bad cell in options: {exc}") from exc
        if len(self.versus) != 2:
            raise BadOptions("'versus' must name two cells: Blue's, then Brown's")
        if len(set(self.targets)) != len(self.targets) or not self.targets:
            raise BadOptions("'targets' must be one or more distinct cells")
        pieces = cells[len(self.targets) :]
        if len(set(pieces)) != len(pieces):
            raise BadOptions("two pieces share a cell in the start position")
        if set(cells[len(self.targets) : len(self.targets) + 2]) & set(cells[: len(self.targets)]):
            raise BadOptions("a VERSUS may not stand on a target cell (S8)")
        for stone in self.stones:
            if stone.owner not in COLOURS or not 0 <= stone.b <= SEGMENTS:
                raise BadOptions(f"bad stone {stone.to_json()}: owner blue|brown, b 0–{SEGMENTS}")
        if self.pull_distance is not None and self.pull_distance < 1:
            raise BadOptions("'pull_distance' must be at least 1, or null (all the way)")
        if self.tug_limit is not None and self.tug_limit < 1:
            raise BadOptions("'tug_limit' must be at least 1, or null (no S11)")
        if self.quiet_limit < 1:
            raise BadOptions("'quiet_limit' must be at least 1")

    def to_json(self) -> dict[str, Any]:
        """The options as JSON (what a game record stores under ``"options"``)."""
        return {
            "targets": list(self.targets),
            "versus": list(self.versus),
            "stones": [s.to_json() for s in self.stones],
            "pull_distance": self.pull_distance,
            "tug_limit": self.tug_limit,
            "quiet_limit": self.quiet_limit,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> VersusOptions:
        """Options from JSON; missing keys keep the default edition's value.

        Raises:
            BadOptions: for an unknown key or a value that does not describe an edition.
        """
        if not data:
            return cls()
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            names = ", ".join(sorted(known))
            raise BadOptions(f"unknown option(s) {', '.join(unknown)}; known: {names}")
        changes: dict[str, Any] = {}
        try:
            for key, value in data.items():
                if key == "stones":
                    changes[key] = tuple(
                        StoneSetup(str(s["cell"]), int(s["b"]), str(s["owner"])) for s in value
                    )
                elif key in ("targets", "versus"):
                    changes[key] = tuple(str(c) for c in value)
                elif key == "quiet_limit":
                    changes[key] = int(value)
                else:
                    changes[key] = None if value is None else int(value)
        except (TypeError, KeyError, ValueError) as exc:
            if isinstance(exc, BadOptions):
                raise
            raise BadOptions(f"malformed options: {exc!r}") from exc
        return replace(cls(), **changes)

    def cell_indices(self) -> tuple[tuple[int, ...], tuple[int, int], tuple[int, ...]]:
        """Targets, VERSUS cells and stone cells as board indices."""
        targets = tuple(parse_cell(c) for c in self.targets)
        versus = (parse_cell(self.versus[0]), parse_cell(self.versus[1]))
        return targets, versus, tuple(parse_cell(s.cell) for s in self.stones)
