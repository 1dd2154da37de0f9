"""VERSUS written a second time, from the rules text alone (S1–S11 of ``rules/versus.md``) and
without any code of ``otherside.games.versus``: the plies legal in a position, and a ply played.
Tests use it to check the engine's work independently (the analysis's engine moves, say); it
knows the standard start (S6) only, and not the end of the game (it follows a record given)."""

from __future__ import annotations

from dataclasses import dataclass, field

Cell = tuple[int, int]
BLUE, BROWN = 0, 1
DIRECTIONS: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))  # S1
TARGETS = frozenset((q, 0) for q in (-3, -2, -1, 1, 2, 3))  # S2
TUG = 2  # S11: attracted this many plies in a row, only the majority colour may attract it


def on_board(cell: Cell) -> bool:
    """S1: the 91 cells."""
    q, r = cell
    return abs(q) <= 5 and abs(r) <= 5 and abs(q + r) <= 5


def cell_text(cell: Cell) -> str:
    """A cell in the notation, ``q:r``."""
    return f"{cell[0]}:{cell[1]}"


@dataclass
class Stone:
    """A stone: ``b`` blue segments (S4), controlled by ``owner``, attracted ``streak`` plies
    in a row (S11)."""

    b: int
    owner: int
    streak: int = 0


@dataclass
class Position:
    """Where the pieces stand and who moves (Blue first, S3)."""

    versus: dict[int, Cell] = field(default_factory=lambda: {BLUE: (2, -5), BROWN: (-2, 5)})
    stones: dict[Cell, Stone] = field(default_factory=dict)
    to_move: int = BLUE

    @classmethod
    def start(cls) -> Position:
        """S6, the start position."""
        blue = [(0, -4), (1, -4), (2, -4), (3, -4), (4, -4)]
        values = [1, 2, 4, 3, 3]
        stones = {cell: Stone(b, BLUE) for cell, b in zip(blue, values, strict=True)}
        for (q, r), b in zip(blue, values, strict=True):
            stones[(-q, -r)] = Stone(5 - b, BROWN)
        return cls(stones=stones)

    def empty(self, cell: Cell) -> bool:
        """No stone and no VERSUS on ``cell``."""
        return on_board(cell) and cell not in self.stones and cell not in self.versus.values()

    def legal(self) -> set[str]:
        """The plies of the player to move: a stone of theirs one cell (S7) unless it is locked
        on a target (S9), their VERSUS along a line of empty cells, not stopping on a target
        (S8)."""
        p, plies = self.to_move, set()
        for cell, stone in self.stones.items():
            if stone.owner != p or cell in TARGETS:
                continue
            for dq, dr in DIRECTIONS:
                to = (cell[0] + dq, cell[1] + dr)
                if self.empty(to):
                    plies.add(f"{cell_text(cell)}>{cell_text(to)}")
        here = self.versus[p]
        for dq, dr in DIRECTIONS:
            to = (here[0] + dq, here[1] + dr)
            while self.empty(to):
                if to not in TARGETS:
                    plies.add(f"{cell_text(here)}>{cell_text(to)}")
                to = (to[0] + dq, to[1] + dr)
        return plies

    def play(self, ply: str) -> None:
        """Play ``ply`` (``ValueError`` if it is not legal here)."""
        if ply not in self.legal():
            raise ValueError(f"{ply} is not legal here")
        p = self.to_move
        origin, target = (tuple(int(n) for n in c.split(":")) for c in ply.split(">"))
        attracted: set[Cell] = set()
        if origin == self.versus[p]:
            self.versus[p] = (target[0], target[1])
            attracted = self._attract(p)
        else:
            self.stones[(target[0], target[1])] = self.stones.pop((origin[0], origin[1]))
        for cell, stone in self.stones.items():
            stone.streak = stone.streak + 1 if cell in attracted else 0
        self.to_move = 1 - p

    def _attract(self, p: int) -> set[Cell]:
        """S10 and S11 after ``p``'s VERSUS moved: the cells the stones pulled now stand on."""
        here, pulled = self.versus[p], set()
        for dq, dr in DIRECTIONS:
            cell = (here[0] + dq, here[1] + dr)
            while on_board(cell) and self.empty(cell):
                cell = (cell[0] + dq, cell[1] + dr)
            stone = self.stones.get(cell)
            next_to = (here[0] + dq, here[1] + dr)
            if stone is None or stone.owner == p or cell in TARGETS or cell == next_to:
                continue
            majority = BLUE if stone.b >= 3 else BROWN
            if stone.streak >= TUG and majority != p:
                continue
            del self.stones[cell]
            stone.owner = p
            self.stones[next_to] = stone
            pulled.add(next_to)
        return pulled
