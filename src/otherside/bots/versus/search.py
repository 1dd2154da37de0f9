"""Alpha-beta search for VERSUS: negamax with iterative deepening under a time budget.

* **Iterative deepening**: depth 1, 2, 3 … until the budget runs out; the move of the last
  completed depth is played (a depth cut short is discarded, except that its best move so far
  is kept when it was searched first, i.e. it is the previous best).
* **Transposition table** keyed by :meth:`Position.key` (board, owners, S11 counts, side to
  move): exact values and bounds with the best move, reused across depths and plies.
* **Move ordering**: the table's move first, then killer moves (two per depth), then — where
  at least two plies remain — the other moves sorted by the static evaluation of the child,
  which puts attractions and locks first.
* **Contempt**: a drawn end counts as a loss of ``CONTEMPT`` points for the searching side,
  so it avoids steering into equal fills when the position offers anything better.
* **Quiescence** at the horizon: plies that lock a stone or change a stone's owner are
  followed until the position is quiet (bounded), so the horizon does not hide a steal.

Positions are immutable (:meth:`Position.play` returns a new one), which costs a few tuples per
node and spares make/unmake bookkeeping.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from otherside.bots.versus.eval import WIN, evaluate, terminal_value
from otherside.games.versus.hex import RAYS
from otherside.games.versus.rules import Position

EXACT, LOWER, UPPER = 0, 1, 2
MAX_DEPTH = 64
QUIESCENCE_PLIES = 2
TABLE_LIMIT = 400_000
CONTEMPT = 4.0
"""Points a draw costs the searching side: against weaker bots, keep playing for the win."""


class OutOfTime(Exception):
    """Raised inside the search when the budget is spent; the iteration is abandoned."""


class AlphaBeta:
    """A reusable searcher (keeps its transposition table between calls)."""

    def __init__(
        self,
        clock: Callable[[], float] = time.perf_counter,
        contempt: float = CONTEMPT,
        quiescence: int = QUIESCENCE_PLIES,
    ) -> None:
        self.clock = clock
        self.quiescence = quiescence
        self.contempt = contempt
        self.root_player = 0
        self.table: dict[tuple[object, ...], tuple[int, float, int, int]] = {}
        self.killers: list[list[int]] = [[] for _ in range(MAX_DEPTH + QUIESCENCE_PLIES + 2)]
        self.nodes = 0
        self.deadline = 0.0
        self.depth_reached = 0
        self.value = 0.0

    def best_move(self, position: Position, seconds: float, max_depth: int = MAX_DEPTH) -> int:
        """The best ply code found within ``seconds`` (at least depth 1 is always finished)."""
        moves = position.moves()
        if len(moves) == 1:
            return moves[0]
        if len(self.table) > TABLE_LIMIT or position.to_move != self.root_player:
            self.table.clear()  # contempt makes the values depend on the searching side
        self.root_player = position.to_move
        self.killers = [[] for _ in self.killers]
        self.nodes = 0
        start = self.clock()
        self.deadline = start + seconds
        player = position.to_move
        order = sorted(moves, key=lambda m: -evaluate(position.play(m), player))
        best = order[0]
        for depth in range(1, max_depth + 1):
            try:
                value, best_this = self._root(position, order, depth, deadline_check=depth > 1)
            except OutOfTime:
                break
            best = best_this
            self.depth_reached = depth
            self.value = value
            order.remove(best)
            order.insert(0, best)
            if abs(value) >= WIN:
                break
        return best

    def value_of(self, position: Position, code: int, depth: int) -> float:
        """The value, for the player to move in ``position``, of playing ``code``: the child
        searched ``depth - 1`` plies without a time limit, as :meth:`best_move`'s root would
        search it (its transposition table reused). For analysis, right after a search of the
        same position."""
        self.root_player = position.to_move
        self.deadline = float("inf")
        return -self._search(position.play(code), depth - 1, -float("inf"), float("inf"), 1)

    def _root(
        self, position: Position, order: list[int], depth: int, deadline_check: bool
    ) -> tuple[float, int]:
        alpha, beta = -float("inf"), float("inf")
        best = order[0]
        for move in order:
            value = -self._search(position.play(move), depth - 1, -beta, -alpha, 1)
            if value > alpha:
                alpha, best = value, move
            if deadline_check and self.clock() > self.deadline:
                raise OutOfTime
        self.table[position.key()] = (depth, alpha, EXACT, best)
        return alpha, best

    def _search(self, position: Position, depth: int, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        if self.nodes & 255 == 0 and self.clock() > self.deadline:
            raise OutOfTime
        if position.end_reason is not None:
            # Prefer faster wins and slower losses.
            value = self._terminal(position, position.to_move)
            return value - ply if value > 0 else value + ply if value < 0 else 0.0
        if depth <= 0:
            return self._quiesce(position, alpha, beta, ply, self.quiescence)
        key = position.key()
        entry = self.table.get(key)
        tt_move = -1
        if entry is not None:
            e_depth, e_value, e_flag, tt_move = entry
            if e_depth >= depth:
                if e_flag == EXACT:
                    return e_value
                if e_flag == LOWER and e_value >= beta:
                    return e_value
                if e_flag == UPPER and e_value <= alpha:
                    return e_value
        original_alpha = alpha
        best_value, best_move = -float("inf"), -1
        for move in self._ordered(position, depth, ply, tt_move):
            value = -self._search(position.play(move), depth - 1, -beta, -alpha, ply + 1)
            if value > best_value:
                best_value, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        killers = self.killers[ply]
                        if move not in killers:
                            killers.insert(0, move)
                            del killers[2:]
                        break
        flag = UPPER if best_value <= original_alpha else LOWER if best_value >= beta else EXACT
        self.table[key] = (depth, best_value, flag, best_move)
        return best_value

    def _terminal(self, position: Position, player: int) -> float:
        """The end's value for ``player``; a drawn end costs the searching side the contempt."""
        value = terminal_value(position, player)
        if value == 0.0:
            return -self.contempt if player == self.root_player else self.contempt
        return value

    def _ordered(self, position: Position, depth: int, ply: int, tt_move: int) -> list[int]:
        moves = position.moves()
        if depth >= 2:
            player = position.to_move
            scored = sorted(moves, key=lambda m: -evaluate(position.play(m), player))
        else:
            scored = list(moves)
        front = [m for m in (tt_move, *self.killers[ply]) if m in moves]
        if not front:
            return scored
        rest = [m for m in scored if m not in front]
        return list(dict.fromkeys(front)) + rest

    def _quiesce(self, position: Position, alpha: float, beta: float, ply: int, left: int) -> float:
        player = position.to_move
        stand = evaluate(position, player)
        if left == 0 or stand >= beta:
            return stand
        alpha = max(alpha, stand)
        for move in noisy_moves(position):
            child = position.play(move)
            self.nodes += 1
            if child.end_reason is not None:
                value = self._terminal(child, player)
            else:
                value = -self._quiesce(child, -beta, -alpha, ply + 1, left - 1)
            if value >= beta:
                return value
            alpha = max(alpha, value)
        return alpha


def noisy_moves(position: Position) -> list[int]:
    """The plies that may change the material: a stone stepping onto a target, or the VERSUS
    stopping where it sees an opposing loose stone two or more cells away (an attraction).

    Found without playing the plies: from every opposing loose stone, the empty cells along
    its six lines (the mover's VERSUS counted as empty, since it is the piece that moves)
    at distance two or more are the cells from which the VERSUS would pull it.
    """
    p = position.to_move
    board, owners, is_target = position.board, position.owners, position.edition.is_target
    origin = position.versus[p]
    spots = set()
    for k, cell in enumerate(position.cells):
        if owners[k] != p and not is_target[cell]:
            for ray in RAYS[cell]:
                for distance, n in enumerate(ray):
                    if board[n] and n != origin:
                        break
                    if distance:
                        spots.add(n)
    noisy = []
    for move in position.moves():
        if move >> 7 == origin:
            if move & 127 in spots:
                noisy.append(move)
        elif is_target[move & 127]:
            noisy.append(move)
    return noisy
