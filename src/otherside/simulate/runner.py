"""The simulator: many seeded games of any game between named bot seats, and their summary.

Game ``i`` of a run with seed ``s`` is dealt with ``derive_seed(s, "game", i)`` and its bots draw
from ``random.Random(derive_seed(s, "bots", i))``, so a run gives the same games whether it uses
one process, many, or a Ray cluster. With ``rotate`` the seat labels turn round the table from one
game to the next (label ``j`` sits at seat ``(j + i) % players`` in game ``i``): the first-move
advantage, or the colours of a two-player game, are shared out, and every statistic is kept per
seat *label*, in the order the seats were given.

Games can add their own per-game figures through an *observer*, named ``"module:Class"`` so that
worker processes can build it: ``Class(**options)`` gets ``on_step(step)`` for every action and
``finish(result)`` at the end, which returns a dict of numbers (a list of ``players`` numbers is
per seat and is re-ordered by label). Their means land in the summary under the same keys.
"""

from __future__ import annotations

import importlib
import math
import random
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from otherside.bots.base import Bot, make_bot
from otherside.bots.match import MatchResult, Step, play_match
from otherside.bots.spec import BotSpec
from otherside.core.rng import derive_seed
from otherside.games import get_game

Z95 = 1.96
"""Normal quantile of the 95% confidence intervals."""


# A seat is a bot spec, ``name[:key=value…]`` (:mod:`otherside.bots.spec` reads it).
SeatSpec = BotSpec


def parse_seats(text: str | Sequence[str], players: int | None = None) -> list[SeatSpec]:
    """Parse ``"ismcts,greedy,greedy"``; a single seat is repeated to fill ``players`` seats.

    >>> [s.name for s in parse_seats("greedy", players=3)]
    ['greedy', 'greedy', 'greedy']
    """
    parts = text.split(",") if isinstance(text, str) else list(text)
    seats = [SeatSpec.parse(p) for p in parts if p.strip()]
    if not seats:
        raise ValueError("no seats given: e.g. --seats greedy,random")
    if players is not None:
        if len(seats) == 1:
            seats *= players
        elif len(seats) != players:
            raise ValueError(f"{len(seats)} seats given for {players} players")
    return seats


@dataclass(frozen=True)
class SimSpec:
    """Everything a worker needs to play game ``i`` of a run (picklable)."""

    game: str
    seats: tuple[SeatSpec, ...]
    seed: int
    rotate: bool = True
    game_options: tuple[tuple[str, Any], ...] = ()
    observer: str | None = None
    observer_options: tuple[tuple[str, Any], ...] = ()

    @property
    def players(self) -> int:
        return len(self.seats)

    def seating(self, index: int) -> list[int]:
        """``seating[p]`` is the label index sitting at seat ``p`` in game ``index``."""
        n = self.players
        shift = index % n if self.rotate else 0
        return [(p - shift) % n for p in range(n)]


@dataclass(frozen=True)
class GameResult:
    """One finished game, every per-seat figure in label order."""

    index: int
    seed: int
    scores: tuple[int, ...]
    wins: tuple[float, ...]
    length: int
    decisions: tuple[tuple[float, ...], ...]
    extras: Mapping[str, Any] = field(default_factory=dict)


def _load_observer(path: str, options: Mapping[str, Any]) -> Any:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)(**options)


def play_one(spec: SimSpec, index: int) -> GameResult:
    """Play game ``index`` of ``spec`` (the same on every machine and in every process)."""
    game = get_game(spec.game)
    game_seed = derive_seed(spec.seed, "game", index)
    state = game.new_state(spec.players, seed=game_seed, options=dict(spec.game_options))
    seating = spec.seating(index)
    bots: list[Bot] = [
        make_bot(spec.game, spec.seats[label].name, **dict(spec.seats[label].options))
        for label in seating
    ]
    observer = _load_observer(spec.observer, dict(spec.observer_options)) if spec.observer else None
    on_step: Callable[[Step], None] | None = observer.on_step if observer else None
    rng = random.Random(derive_seed(spec.seed, "bots", index))
    result: MatchResult = play_match(game, state, bots, rng, on_step, clock=time.perf_counter)
    by_label = [0] * spec.players
    for seat, label in enumerate(seating):
        by_label[label] = seat

    def relabel(values: Sequence[Any]) -> tuple[Any, ...]:
        return tuple(values[by_label[label]] for label in range(spec.players))

    winners = result.outcome.winners
    wins = [1.0 / len(winners) if p in winners else 0.0 for p in range(spec.players)]
    extras: dict[str, Any] = {}
    if observer is not None:
        for key, value in observer.finish(result).items():
            per_seat = isinstance(value, list | tuple) and len(value) == spec.players
            extras[key] = relabel(value) if per_seat else value
    return GameResult(
        index,
        game_seed,
        relabel(result.outcome.scores),
        relabel(wins),
        len(result.actions),
        relabel([tuple(t) for t in result.decision_seconds]),
        extras,
    )


def play_chunk(spec: SimSpec, indices: Sequence[int]) -> list[GameResult]:
    """Play the games ``indices`` of ``spec`` (one task of a pool or of Ray)."""
    return [play_one(spec, i) for i in indices]


def chunks(games: int, workers: int) -> Iterator[list[int]]:
    """The game indices in chunks for ``workers`` processes: small, so that the progress bar
    stays lively and the workers evenly loaded."""
    size = max(1, min(25, games // max(1, workers * 8)))
    for start in range(0, games, size):
        yield list(range(start, min(games, start + size)))


def simulate(
    spec: SimSpec,
    games: int,
    *,
    workers: int = 1,
    ray_address: str | None = None,
    on_result: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play ``games`` games of ``spec``; results in game order whatever the workers.

    Args:
        spec: the game, seats, seed and options.
        games: how many games (game ``i`` is the same in every run with this seed).
        workers: local processes (1 plays in this process); with ``ray_address="local"``, the
            CPUs of the private Ray instance.
        ray_address: run on a Ray cluster instead: ``"HOST:PORT"`` or ``"auto"`` (started with
            ``ray start --head``), ``"ray://HOST:PORT"``, or ``"local"`` (a private instance for
            this run); needs the optional ``ray`` extra (see :mod:`otherside.simulate.on_ray`).
        on_result: called in this process as each game finishes (for progress bars).

    Raises:
        ValueError: bad counts or seats, Ray missing or no cluster at ``ray_address`` (all
            checked before any game is played).
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    for seat in spec.seats:  # fail fast, in this process, on an unknown bot or option
        make_bot(spec.game, seat.name, **dict(seat.options))
    results: list[GameResult] = []

    def collect(batch: list[GameResult]) -> None:
        for r in batch:
            results.append(r)
            if on_result:
                on_result(r)

    if ray_address is not None:
        from otherside.simulate.on_ray import simulate_on_ray  # Ray stays an optional extra

        simulate_on_ray(spec, games, ray_address, workers, collect)
    elif workers == 1:
        for i in range(games):
            collect([play_one(spec, i)])
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            pending = {pool.submit(play_chunk, spec, chunk) for chunk in chunks(games, workers)}
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    collect(future.result())
    results.sort(key=lambda r: r.index)
    return results


def _mean_sd(values: Sequence[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return mean, sd


def wilson(share: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win share observed over ``n`` games.

    Unlike the normal approximation it never collapses to a point when a seat wins every game or
    none (0 wins in 20 games gives 0–16%, not 0–0%) and it stays inside [0, 1]. A shared victory
    counts as a fraction of a win; its variance is below a whole win's, so the interval is, if
    anything, a little wide.
    """
    if n <= 0:
        raise ValueError("a win share needs at least one game")
    z2 = z * z / n
    centre = (share + z2 / 2) / (1 + z2)
    half = z / (1 + z2) * math.sqrt(share * (1 - share) / n + z2 / (4 * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def summarize(spec: SimSpec, results: Sequence[GameResult]) -> dict[str, Any]:
    """The summary of a run as JSON-ready data, every per-seat list in label order.

    Keys: ``game``, ``games``, ``players``, ``seed``, ``rotate``, ``seats`` (labels),
    ``mean_scores``, ``sd_scores``, ``win_share`` (a tie of k players gives each 1/k),
    ``win_ci95`` ([low, high] per seat, :func:`wilson`), ``mean_length`` and
    ``sd_length`` (actions per game), the mean of every observer figure under its own key, and
    ``median_decision_ms`` (the only figure that depends on the machine).
    """
    n = len(results)
    labels = [str(s) for s in spec.seats]
    summary: dict[str, Any] = {
        "game": spec.game,
        "games": n,
        "players": spec.players,
        "seed": spec.seed,
        "rotate": spec.rotate,
        "seats": labels,
    }
    means, sds, shares, cis = [], [], [], []
    for label in range(spec.players):
        mean, sd = _mean_sd([r.scores[label] for r in results])
        share = statistics.fmean(r.wins[label] for r in results)
        # Alone at the table a player always wins: there is nothing to estimate.
        low, high = (1.0, 1.0) if spec.players == 1 else wilson(share, n)
        means.append(round(mean, 3))
        sds.append(round(sd, 3))
        shares.append(round(share, 4))
        cis.append([round(low, 4), round(high, 4)])
    summary.update(mean_scores=means, sd_scores=sds, win_share=shares, win_ci95=cis)
    length, length_sd = _mean_sd([r.length for r in results])
    summary.update(mean_length=round(length, 3), sd_length=round(length_sd, 3))
    for key in sorted({k for r in results for k in r.extras}):
        values = [r.extras[key] for r in results if key in r.extras]
        if isinstance(values[0], tuple | list):
            summary[key] = [
                round(statistics.fmean(v[i] for v in values), 3) for i in range(len(values[0]))
            ]
        elif isinstance(values[0], int | float):
            summary[key] = round(statistics.fmean(values), 3)
    medians: list[float | None] = []
    for label in range(spec.players):
        times = [t for r in results for t in r.decisions[label]]
        medians.append(round(1000 * statistics.median(times), 3) if times else None)
    summary["median_decision_ms"] = medians
    return summary
