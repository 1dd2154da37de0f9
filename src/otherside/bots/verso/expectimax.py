"""The solo ``expectimax`` bot: a two-ply expectimax over what the player may see, on the learned
value of :mod:`otherside.bots.verso.value`.

At each solo decision (V16) every distinct action is valued exactly over the chance events that
follow it, with probabilities from the cards not yet seen (V3 deck minus every card identified,
each visible face not yet identified spread over the cards that can show it):

1. a ``flip``: each face that can hide behind the top;
2. the solo opponent's card: the top itself after a series (its hidden face decides), else an
   unseen card; whether it turns the player's highest card of a colour, and what that card shows
   once turned (known if it was ever turned up, else each candidate face);
3. the next top face of the pile, and the player's best answer to it, judged one ply deep by the
   learned value (a flip on the average over its candidates).

Positions two plies away are valued by the net; the last cards (V17) score the final series
exactly. Nothing is sampled: the same view gives the same choice. The hidden faces of the pile
and of the tableau are never read; :func:`otherside.games.verso.determinize` only rebuilds the
public tableau for the bookkeeping. Outside solo games it defers to ``ismcts``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from otherside.bots.verso.expert import SoloWorldBot
from otherside.bots.verso.value import BadValueFile, ValueNet, default_net
from otherside.games.verso.cards import DOWN, FACE_CARDS, UP, parse_face
from otherside.games.verso.fast import (
    FLIPPED,
    SERIES_OPTIONS,
    Move,
    World,
    banked,
    final_points,
    full,
    gain,
    hidden_candidates,
)
from otherside.games.verso.schema import VersoView
from otherside.games.verso.state import HIGHEST, SOLO_TURNS
from otherside.games.verso.view import faces_of

Outcome = list[tuple[float, int]]
"""A distribution of faces: ``[(probability, face)]``."""
Keys = tuple[int, int, int]


class Chances:
    """The chance model of one decision: how likely each unseen card is.

    Every card never identified weighs 1, less the share of each visible face not identified yet
    (a tableau card drawn face up, a discarded one, the top) spread over the cards that can show it.
    """

    def __init__(self, view: VersoView, known: int) -> None:
        self.known = known
        weight = [0.0 if known >> card & 1 else 1.0 for card in range(90)]
        assert view["top"] is not None, "a decision in play has a top card"
        faces = [parse_face(view["top"])]
        for entry in [*view["tableaux"][0]["cards"], *view["discards"]]:
            up, down = faces_of(entry)
            if down is None:
                faces.append(up)
        for face in faces:
            cands = [c for c in FACE_CARDS[face] if weight[c] > 0]
            for c in cands:
                weight[c] = max(0.0, weight[c] - 1 / len(cands))
        self.weight = weight
        total = 2 * sum(weight) or 1.0
        trigger = [0.0] * 4  # the colour the opponent's card turns, or 3: none
        tops = [0.0] * 42
        for oc in range(180):
            w = weight[oc >> 1]
            if w:
                t = SOLO_TURNS[oc]
                trigger[t if t >= 0 else 3] += w / total
                tops[UP[oc]] += w / total
        self.trigger = trigger
        self.tops = [(p, face) for face, p in enumerate(tops) if p]
        self._flips: dict[int, Outcome] = {}

    def flips(self, face: int) -> Outcome:
        """What a card showing ``face`` shows once turned over, if it was never identified."""
        out = self._flips.get(face)
        if out is None:
            cands = hidden_candidates(face, self.known) or FLIPPED[face][:1]
            weights = [self.weight[oc >> 1] for oc in cands]
            total = sum(weights)
            if total <= 0:
                weights, total = [1.0] * len(cands), float(len(cands))
            out = [(w / total, UP[oc]) for w, oc in zip(weights, cands, strict=True) if w]
            self._flips[face] = out
        return out

    def top_trigger(self, face: int) -> list[float]:
        """The opponent's trigger distribution when it takes the top showing ``face``."""
        trigger = [0.0] * 4
        cands = [oc ^ 1 for oc in hidden_candidates(face, self.known)]
        weights = [self.weight[oc >> 1] or 1e-9 for oc in cands]
        total = sum(weights)
        for w, oc in zip(weights, cands, strict=True):
            t = SOLO_TURNS[oc]
            trigger[t if t >= 0 else 3] += w / total
        if not cands:
            trigger[3] = 1.0
        return trigger


class Lookahead:
    """The two-ply expectimax of one decision."""

    def __init__(self, net: ValueNet, chances: Chances) -> None:
        self.net = net
        self.chances = chances
        self._replies: dict[tuple[Keys, bool, int], float] = {}  # transpositions

    def turned(
        self, keys: Keys, square: bool, turns: dict[int, Outcome], trigger: list[float]
    ) -> list[tuple[float, Keys, bool, int]]:
        """``[(probability, keys, square, points)]`` after the opponent's card (V16)."""
        out: list[tuple[float, Keys, bool, int]] = []
        calm = trigger[3]
        for c in range(3):
            p = trigger[c]
            if not p:
                continue
            mask = keys[c] & 127
            if not mask:
                calm += p
                continue
            v = HIGHEST[mask]
            k = [keys[0], keys[1], keys[2]]
            k[c] &= ~(129 << v)
            slot = c * 7 + v
            faces = turns.get(slot)
            if faces is None:  # a card gained inside the look-ahead: its face is on the key
                faces = self.chances.flips(slot + 21 * (keys[c] >> (7 + v) & 1))
            for q, face in faces:
                k0, k1, k2, sq, points = gain(k, square, face)
                if sq and not full(k0, k1, k2):
                    sq = False
                out.append((p * q, (k0, k1, k2), sq, points))
        if calm:
            out.append((calm, keys, square, 0))
        return out

    def after(
        self, keys: Keys, square: bool, turns: dict[int, Outcome], left: int, trigger: list[float]
    ) -> float:
        """Expected points after the player's action, ``left`` cards in the pile."""
        if left <= 0:
            return float(final_points(keys))
        total = 0.0
        for p, k, sq, points in self.turned(keys, square, turns, trigger):
            rest = final_points(k) if left == 1 else self.reply(k, sq, left - 1)
            total += p * (points + rest)
        return total

    def reply(self, keys: Keys, square: bool, left: int) -> float:
        """Expected points of the player's best one-ply answer to the next top face."""
        memo = (keys, square, left)
        known = self._replies.get(memo)
        if known is not None:
            return known
        net = self.net
        bank = float("-inf")
        for c in range(3):
            for points, disc in SERIES_OPTIONS[keys[c]]:
                k0, k1, k2, sq = banked(keys, square, c, disc)
                bank = max(bank, points + net.value(k0, k1, k2, sq, left))
        gained: dict[int, float] = {}

        def take(face: int) -> float:
            value = gained.get(face)
            if value is None:
                k0, k1, k2, sq, points = gain(keys, square, face)
                value = gained[face] = points + net.value(k0, k1, k2, sq, left - 1)
            return value

        total = 0.0
        for p, face in self.chances.tops:
            slot = face % 21
            best = bank
            if not keys[slot // 7] >> (slot % 7) & 1:
                best = max(best, take(face))
            flip = sum(q * take(f) for q, f in self.chances.flips(face))
            total += p * max(best, flip)
        self._replies[memo] = total
        return total

    def top_chances(self, world: World) -> tuple[Outcome, list[float]]:
        """What a flip may show (the faces that can hide behind the top), and the opponent's
        trigger distribution after a series (which leaves the top to the opponent, V16)."""
        top = UP[world.pile[world.pos]]
        return self.chances.flips(top), self.chances.top_trigger(top)

    def values(self, world: World, moves: Sequence[Move]) -> list[float]:
        """The expected points still to come of each move."""
        chances = self.chances
        left = len(world.pile) - world.pos
        top = UP[world.pile[world.pos]]
        backs, after_series = self.top_chances(world)
        keys, square = world.colour_keys(0), bool(world.squares & 1)
        turns: dict[int, Outcome] = {}
        for slot, oc in enumerate(world.tab):
            if oc >= 0:
                shown = chances.known >> (oc >> 1) & 1
                turns[slot] = [(1.0, DOWN[oc])] if shown else chances.flips(UP[oc])
        out = []
        for kind, c, points, disc in moves:
            if kind == 2:
                k0, k1, k2, sq = banked(keys, square, c, disc)
                out.append(points + self.after((k0, k1, k2), sq, turns, left, after_series))
                continue
            faces = [(1.0, top)] if kind == 0 else backs
            total = 0.0
            for q, face in faces:
                k0, k1, k2, sq, gained = gain(keys, square, face)
                held = turns
                slot = face % 21
                if not keys[slot // 7] >> (slot % 7) & 1:  # not a discarded duplicate (V8)
                    held = dict(turns)
                    held[slot] = backs if kind == 0 else [(1.0, top)]
                rest = self.after((k0, k1, k2), sq, held, left - 1, chances.trigger)
                total += q * (gained + rest)
            out.append(total)
        return out


class ExpectimaxBot(SoloWorldBot):
    """Two-ply expectimax for solo Verso on the learned value; at a table, ``ismcts``.

    Args:
        net: the value tables (default: the ones shipped with the package).
        tables: or a file of tables written by ``otherside verso train-value`` (a seat
            ``expectimax:tables=mine.bin``).
        table_iterations: the ``ismcts`` iterations per decision at a table of 2+ players.

    Raises:
        ValueError: ``tables`` cannot be read or is not a value file.
    """

    name = "expectimax"

    def __init__(
        self,
        net: ValueNet | None = None,
        tables: str | None = None,
        table_iterations: int = 200,
    ) -> None:
        if net is None and tables is not None:
            try:
                net = ValueNet.load(Path(tables))
            except OSError as exc:
                raise ValueError(f"cannot read value tables {tables!r}: {exc.strerror}") from exc
            except BadValueFile as exc:
                raise ValueError(f"{tables!r}: {exc}") from exc
        self.net = net or default_net()
        super().__init__(table_iterations)

    def values(
        self, view: VersoView, world: World, moves: Sequence[Move], rng: random.Random
    ) -> Sequence[float]:
        """Expected points still to come of each move (nothing sampled: ``rng`` is unused)."""
        return Lookahead(self.net, Chances(view, world.known)).values(world, moves)
