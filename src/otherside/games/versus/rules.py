"""The rules of VERSUS on a compact position (S7–S14).

:class:`Position` is the board alone: pieces, who controls each stone, the S11 counts, the
player to move and the S13.4 counter. It is immutable (``play`` returns a new position) and
built for speed, because random playouts and the search bot run millions of plies:

* the board is a tuple of 91 small ints (``EMPTY``, ``VERSUS_CODE[p]``, ``STONE0 + k``);
* plies are int codes ``origin << 7 | target`` (:func:`~otherside.games.versus.notation.ply_of_code`
  turns one into a :class:`~otherside.games.versus.notation.Ply`);
* the neighbour and ray tables of :mod:`~otherside.games.versus.hex` are read, never computed.

:class:`Edition` compiles :class:`~otherside.games.versus.setup.VersusOptions` into the index
tables the rules read. The game-level state (history, resignations, draw offers) lives in
:mod:`otherside.games.versus.state` and wraps a position.
"""

from __future__ import annotations

from functools import lru_cache

from otherside.games.versus.hex import (
    CELLS,
    DIRECTIONS,
    DISTANCE,
    NEIGHBOURS,
    RAYS,
    direction_between,
)
from otherside.games.versus.notation import format_cell
from otherside.games.versus.setup import COLOURS, SEGMENTS, VersusOptions

EMPTY = 0
VERSUS_CODE = (1, 2)
"""Board codes of Blue's and Brown's VERSUS."""
STONE0 = 3
"""Board code of stone ``k`` is ``STONE0 + k``."""

ALL_TARGETS_FILLED = "all targets filled (S13.1)"
NO_LEGAL_MOVE = "no legal move (S13.2)"
OUT_OF_REACH = "the leader is out of reach (S13.3)"


def quiet_reason(limit: int) -> str:
    """The S13.4 reason for an edition whose quiet limit is ``limit``."""
    return f"{limit} plies in a row without a lock (S13.4)"


class Edition:
    """An edition's numbers as index tables (built once per options value, then shared)."""

    __slots__ = (
        "is_target",
        "majority",
        "options",
        "pull_distance",
        "quiet_limit",
        "start_cells",
        "start_owners",
        "targets",
        "tug_limit",
        "values",
        "versus_start",
        "zero_streaks",
    )

    def __init__(self, options: VersusOptions) -> None:
        self.options = options
        self.targets, self.versus_start, self.start_cells = options.cell_indices()
        self.is_target = tuple(i in self.targets for i in range(len(CELLS)))
        self.values = tuple((s.b, SEGMENTS - s.b) for s in options.stones)
        """``values[k][p]``: what stone ``k`` scores for player ``p`` on a target (S14)."""
        self.majority = tuple(0 if 2 * s.b > SEGMENTS else 1 for s in options.stones)
        """``majority[k]``: the player of stone ``k``'s majority colour (S4)."""
        self.start_owners = tuple(COLOURS.index(s.owner) for s in options.stones)
        self.zero_streaks = (0,) * len(options.stones)
        self.pull_distance = options.pull_distance
        self.tug_limit = options.tug_limit
        self.quiet_limit = options.quiet_limit


@lru_cache(maxsize=64)
def edition(options: VersusOptions) -> Edition:
    """The compiled :class:`Edition` of ``options`` (cached: options are frozen)."""
    return Edition(options)


class Position:
    """A VERSUS position. Immutable by contract: no method changes it after construction.

    Attributes:
        edition: the compiled numbers in force.
        board: 91 board codes, by cell index.
        cells: the cell of each stone.
        owners: the player controlling each stone (0 Blue, 1 Brown).
        streaks: S11 count of each stone (plies in a row that attracted it).
        versus: the cells of Blue's and Brown's VERSUS.
        to_move: the player to move (0 Blue, 1 Brown).
        quiet: plies in a row that locked no stone (S13.4).
        end: why the game ended after the last ply (S13.1, S13.3, S13.4), else ``None``;
            S13.2 (no legal move) is seen by :attr:`end_reason`.
    """

    __slots__ = (
        "_moves",
        "board",
        "cells",
        "edition",
        "end",
        "owners",
        "quiet",
        "streaks",
        "to_move",
        "versus",
    )

    def __init__(
        self,
        edition: Edition,
        board: tuple[int, ...],
        cells: tuple[int, ...],
        owners: tuple[int, ...],
        streaks: tuple[int, ...],
        versus: tuple[int, int],
        to_move: int,
        quiet: int,
        end: str | None,
    ) -> None:
        self.edition = edition
        self.board = board
        self.cells = cells
        self.owners = owners
        self.streaks = streaks
        self.versus = versus
        self.to_move = to_move
        self.quiet = quiet
        self.end = end
        self._moves: list[int] | None = None

    @classmethod
    def start(cls, options: VersusOptions | None = None) -> Position:
        """The start position of an edition (S6), Blue to move (S3)."""
        ed = edition(options or VersusOptions())
        return cls.setup(ed, ed.start_cells, ed.start_owners, ed.zero_streaks, ed.versus_start)

    @classmethod
    def setup(
        cls,
        ed: Edition,
        cells: tuple[int, ...],
        owners: tuple[int, ...],
        streaks: tuple[int, ...],
        versus: tuple[int, int],
        to_move: int = 0,
        quiet: int = 0,
    ) -> Position:
        """A position from its pieces (used for the start and to rebuild one from a view)."""
        board = [EMPTY] * len(CELLS)
        board[versus[0]], board[versus[1]] = VERSUS_CODE
        for k, cell in enumerate(cells):
            board[cell] = STONE0 + k
        position = cls(ed, tuple(board), cells, owners, streaks, versus, to_move, quiet, None)
        position.end = position._end_after(locked=True)
        return position

    # ----------------------------------------------------------------- plies (S7, S8, S9)

    def moves(self) -> list[int]:
        """The legal ply codes of the player to move: stones first (stone order), then the
        VERSUS (direction order, nearest first). Empty once the game has ended."""
        moves = self._moves
        if moves is None:
            moves = self._moves = [] if self.end else self._generate()
        return moves

    def _generate(self) -> list[int]:
        board, is_target, p = self.board, self.edition.is_target, self.to_move
        moves = []
        owners = self.owners
        for k, cell in enumerate(self.cells):
            if owners[k] == p and not is_target[cell]:
                base = cell << 7
                moves += [base | n for n in NEIGHBOURS[cell] if not board[n]]
        origin = self.versus[p]
        base = origin << 7
        for ray in RAYS[origin]:
            for n in ray:
                if board[n]:
                    break
                if not is_target[n]:
                    moves.append(base | n)
        return moves

    @property
    def end_reason(self) -> str | None:
        """Why the game is over (S13), or ``None`` while it goes on."""
        if self.end:
            return self.end
        return None if self.moves() else NO_LEGAL_MOVE

    def locked(self, k: int) -> bool:
        """True when stone ``k`` stands on a target (S9)."""
        return self.edition.is_target[self.cells[k]]

    def illegal_reason(self, origin: int, target: int) -> str | None:
        """Why moving the piece on ``origin`` to ``target`` is illegal, or ``None`` if legal."""
        if self.end_reason:
            return f"the game is over: {self.end_reason}"
        piece, p = self.board[origin], self.to_move
        here, there = format_cell(origin), format_cell(target)
        if piece == EMPTY:
            return f"there is no piece on {here}"
        if piece >= STONE0:
            k = piece - STONE0
            if self.owners[k] != p:
                return f"the stone on {here} is controlled by {COLOURS[1 - p].title()}"
            if self.locked(k):
                return f"the stone on {here} is locked on a target (S9)"
            if DISTANCE[origin][target] != 1:
                return "a stone moves exactly one cell (S7)"
            if self.board[target]:
                return f"{there} is not empty (S7)"
            return None
        if piece != VERSUS_CODE[p]:
            return f"the VERSUS on {here} is {COLOURS[1 - p].title()}'s"
        step = direction_between(CELLS[origin], CELLS[target])
        if step is None:
            return "a VERSUS moves in a straight line along one of the six directions (S8)"
        for n in RAYS[origin][_DIRECTION_INDEX[step]]:
            if self.board[n]:
                return f"the way is blocked at {format_cell(n)} (S8: no jumping)"
            if n == target:
                break
        if self.edition.is_target[target]:
            return f"a VERSUS may cross the target {there} but not stop on it (S8)"
        return None

    # ----------------------------------------------------------------- applying (S10, S11)

    def play(self, code: int) -> Position:
        """The position after the legal ply ``code`` (not checked: see :meth:`moves`)."""
        origin, target = code >> 7, code & 127
        ed = self.edition
        is_target = ed.is_target
        board = list(self.board)
        piece = board[origin]
        board[origin] = EMPTY
        board[target] = piece
        p = self.to_move
        streaks = self.streaks
        if piece >= STONE0:
            k = piece - STONE0
            cells = (*self.cells[:k], target, *self.cells[k + 1 :])
            owners = self.owners
            versus = self.versus
            locked = is_target[target]
            if any(streaks):
                streaks = ed.zero_streaks
        else:
            versus = (target, self.versus[1]) if p == 0 else (self.versus[0], target)
            cells, owners, streaks, locked = self._attract(board, target, p)
        quiet = 0 if locked else self.quiet + 1
        position = Position(ed, tuple(board), cells, owners, streaks, versus, 1 - p, quiet, None)
        if locked or quiet >= ed.quiet_limit:
            position.end = position._end_after(locked)
        return position

    def _attract(
        self, board: list[int], origin: int, p: int
    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], bool]:
        """S10 and S11 after ``p``'s VERSUS arrived on ``origin``; ``board`` is updated."""
        ed = self.edition
        is_target, tug, pull = ed.is_target, ed.tug_limit, ed.pull_distance
        owners, streaks = self.owners, self.streaks
        new_cells: list[int] | None = None
        new_owners: list[int] = []
        attracted = 0
        locked = False
        for ray in RAYS[origin]:
            # `distance` is read after the loop: how far the first piece met stands.
            for distance, n in enumerate(ray):  # noqa: B007
                code = board[n]
                if code:
                    break
            else:
                continue
            # Only the first piece met is in sight; it must be an opposing stone, not locked
            # (S9) and not already adjacent (S10), and not held back by the tug-of-war rule.
            if code < STONE0 or distance == 0 or is_target[n]:
                continue
            k = code - STONE0
            if owners[k] == p:
                continue
            if tug is not None and streaks[k] >= tug and ed.majority[k] != p:
                continue
            dest = ray[0] if pull is None else ray[max(0, distance - pull)]
            board[n] = EMPTY
            board[dest] = code
            if new_cells is None:
                new_cells, new_owners = list(self.cells), list(owners)
            new_cells[k] = dest
            new_owners[k] = p
            attracted |= 1 << k
            locked = locked or is_target[dest]
        if new_cells is None:
            return self.cells, owners, (ed.zero_streaks if any(streaks) else streaks), False
        counts = tuple(s + 1 if attracted >> k & 1 else 0 for k, s in enumerate(streaks))
        return tuple(new_cells), tuple(new_owners), counts, locked

    # ----------------------------------------------------------------- end and score (S13, S14)

    def scores(self) -> tuple[int, int]:
        """S14 now: each stone on a target scores its controller's segments (Blue, Brown)."""
        blue = brown = 0
        is_target, values, owners = self.edition.is_target, self.edition.values, self.owners
        for k, cell in enumerate(self.cells):
            if is_target[cell]:
                if owners[k]:
                    brown += values[k][1]
                else:
                    blue += values[k][0]
        return blue, brown

    def best_gain(self, player: int) -> int:
        """S13.3: the most ``player`` could still add: for each free target, the best of the
        unlocked stones at their value to ``player``, each stone used once."""
        is_target, values = self.edition.is_target, self.edition.values
        free = sum(1 for t in self.edition.targets if not self.board[t])
        loose = sorted(
            (values[k][player] for k, cell in enumerate(self.cells) if not is_target[cell]),
            reverse=True,
        )
        return sum(loose[:free])

    def _end_after(self, locked: bool) -> str | None:
        if locked:
            if all(self.board[t] for t in self.edition.targets):
                return ALL_TARGETS_FILLED
            scores = self.scores()
            if scores[0] != scores[1]:
                trailing = 0 if scores[0] < scores[1] else 1
                if scores[trailing] + self.best_gain(trailing) < scores[1 - trailing]:
                    return OUT_OF_REACH
        if self.quiet >= self.edition.quiet_limit:
            return quiet_reason(self.edition.quiet_limit)
        return None

    def key(self) -> tuple[object, ...]:
        """A hashable summary for transposition tables (everything but the S13.4 counter)."""
        return (self.board, self.owners, self.streaks, self.to_move)


_DIRECTION_INDEX = {step: d for d, step in enumerate(DIRECTIONS)}
