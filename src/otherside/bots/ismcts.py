"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS), game-agnostic.

Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012.
Each iteration draws one concrete position consistent with the searching player's view (a
*determinization*: only what the view allows), walks the one shared tree restricted to the
actions legal in that position, choosing by UCB1 where each child's exploration term counts the
iterations in which it was *available* rather than its parent's visits, expands one untried
action, finishes the game with a rollout policy and backs up every player's reward, each node
crediting the player who chose its action. The answer is the most visited root action.

The game supplies three functions: ``determinize(view, rng) -> state``, a rollout ``policy(state,
rng) -> action`` and ``reward(state) -> per-player rewards`` of a finished (or cut-off) state; and
optionally ``shortlist(state, searcher) -> actions``, the legal actions a tree node may try (a
heuristic pruning that focuses the iterations, or an opponent model when it keeps one action).
The search is deterministic for a given ``rng`` with an iteration budget; a time budget
(``seconds``) trades that for a bounded decision time.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from otherside.core.game import Action, State

V = TypeVar("V", bound=Mapping[str, Any])
S = TypeVar("S", bound=State[Any])
A = TypeVar("A", bound=Action)


class Node(Generic[A]):
    """A tree node: reached by ``action`` chosen by ``player``; statistics from their side."""

    __slots__ = ("action", "available", "children", "player", "total", "visits")

    def __init__(self, action: A | None, player: int) -> None:
        self.action = action
        self.player = player
        self.children: dict[A, Node[A]] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0

    def ucb(self, exploration: float) -> float:
        return self.total / self.visits + exploration * math.sqrt(
            math.log(self.available) / self.visits
        )


class ISMCTS(Generic[V, S, A]):
    """The search over views of type ``V``, states ``S`` and actions ``A``.

    One instance may serve many decisions (it keeps no state between them).

    Args:
        determinize: a concrete state drawn from a view.
        policy: the rollout policy.
        reward: per-player rewards of the state where a rollout stops.
        iterations: iteration budget (used when ``seconds`` is None).
        seconds: time budget per decision instead of iterations.
        exploration: the UCB1 constant (rewards are expected in [0, 1]).
        rollout_depth: stop rollouts after this many actions and score the state reached with
            ``reward`` (None: play to the end).
        shortlist: the actions a tree node tries, given the state and the searching player
            (None: every legal action). It must return a non-empty subset of the legal actions.
    """

    def __init__(
        self,
        determinize: Callable[[V, random.Random], S],
        policy: Callable[[S, random.Random], A],
        reward: Callable[[S], Sequence[float]],
        *,
        iterations: int = 200,
        seconds: float | None = None,
        exploration: float = 0.7,
        rollout_depth: int | None = None,
        shortlist: Callable[[S, int], Sequence[A]] | None = None,
    ) -> None:
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"seconds must be positive, not {seconds}")
        self.determinize = determinize
        self.policy = policy
        self.reward = reward
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.shortlist = shortlist

    def search(self, view: V, legal: Sequence[A], rng: random.Random) -> A:
        """The most visited root action after the budget (one of ``legal``)."""
        if len(legal) == 1:
            return legal[0]
        me = view["current_player"]
        root: Node[A] = Node(None, me)
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        done = 0
        while True:
            self._iterate(root, self.determinize(view, rng), me, rng)
            done += 1
            if deadline is None:
                if done >= self.iterations:
                    break
            elif time.perf_counter() >= deadline:
                break
        legal_set = set(legal)
        visited = [c for c in root.children.values() if c.action in legal_set]
        if not visited:
            return legal[0]
        best = max(visited, key=lambda c: (c.visits, c.total))
        assert best.action is not None
        return best.action

    def _iterate(self, root: Node[A], state: S, me: int, rng: random.Random) -> None:
        node = root
        path = [root]
        shortlist = self.shortlist
        while not state.is_over:
            legal = shortlist(state, me) if shortlist else state.legal_actions()
            mover = state.current_player
            assert mover is not None
            untried = [a for a in legal if a not in node.children]
            for a in legal:
                child = node.children.get(a)
                if child is not None:
                    child.available += 1
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = Node(action, mover)
                child.available = 1
                node.children[action] = child
                path.append(child)
                state = state.apply(action)
                break
            c = self.exploration
            node = max((node.children[a] for a in legal), key=lambda n: n.ucb(c))
            path.append(node)
            assert node.action is not None  # only the root has no action
            state = state.apply(node.action)
        depth = 0
        while not state.is_over and (self.rollout_depth is None or depth < self.rollout_depth):
            state = state.apply(self.policy(state, rng))
            depth += 1
        rewards = self.reward(state)
        for n in path[1:]:
            n.visits += 1
            n.total += rewards[n.player]
        root.visits += 1
