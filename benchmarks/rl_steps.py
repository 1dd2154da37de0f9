"""Environment steps per second with random masked actions: otherside's environments against
PettingZoo's classic games, the same loop on the same machine.

    pip install -e '.[rl]' 'pettingzoo[classic]'    # the classic games' own dependencies
    python benchmarks/rl_steps.py [--seconds 5] [--repeats 3] [--seed 1] [--plot steps.png]

Every AEC environment runs the loop of PettingZoo's documentation: ``agent_iter``, ``last()``,
an action drawn uniformly from ``observation["action_mask"]`` (``None`` once the agent is done),
``step``; episodes follow one another (``reset()``) until ``--seconds`` of the process's CPU
time have passed. The solo Verso environment runs Gymnasium's loop (``step`` with the mask from
``info``). A *step* is one ``step`` call (PettingZoo's final ``None`` steps included), a *move*
one with an action. Rates are per second of CPU time, which other processes on shared cores
disturb much less than wall time (the wall time is shown too). Each environment is measured
``--repeats`` times, interleaved with the others, and the median run is reported, with the
machine's load average before and after.
Classic games whose dependencies are missing are listed as skipped.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from rich.console import Console
from rich.progress import Progress, TaskID
from rich.table import Table

from otherside.rl import verso_env, verso_solo_env, versus_env

CLASSIC = ("tictactoe_v3", "connect_four_v3", "leduc_holdem_v4", "chess_v6")


@dataclass
class Run:
    """One measurement: counts over ``seconds`` of this process's CPU time (and the wall time
    it took, longer when the cores are shared)."""

    steps: int
    moves: int
    episodes: int
    seconds: float
    wall: float

    @property
    def rate(self) -> float:
        return self.steps / self.seconds


def aec_run(make: Callable[[], Any], seconds: float, seed: int, tick: Callable[[], None]) -> Run:
    """PettingZoo's AEC loop with random masked actions for ``seconds``."""
    env = make()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = moves = episodes = 0
    start, wall = time.process_time(), time.perf_counter()
    while True:
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            action = None
            if not (terminated or truncated):
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[rng.integers(len(legal))])
                moves += 1
            env.step(action)
            steps += 1
        episodes += 1
        tick()
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            env.close()
            return Run(steps, moves, episodes, elapsed, time.perf_counter() - wall)
        env.reset()


def gym_run(make: Callable[[], Any], seconds: float, seed: int, tick: Callable[[], None]) -> Run:
    """Gymnasium's loop with random masked actions for ``seconds``."""
    env = make()
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    steps = episodes = 0
    start, wall = time.process_time(), time.perf_counter()
    while True:
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
        if terminated or truncated:
            episodes += 1
            tick()
            elapsed = time.process_time() - start
            if elapsed >= seconds:
                return Run(steps, steps, episodes, elapsed, time.perf_counter() - wall)
            _, info = env.reset()


def classic(name: str) -> Callable[[], Any] | str:
    """The classic game's ``env`` factory, or why it cannot be imported."""
    try:
        module = importlib.import_module(f"pettingzoo.classic.{name}")
    except ImportError as exc:
        return f"not installed ({exc.name}): pip install 'pettingzoo[classic]'"
    factory: Callable[[], Any] = module.env
    return factory


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--repeats", type=int, default=3, help="measurements per environment")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", help="write a bar chart of the medians to this file")
    args = parser.parse_args()
    console = Console(width=None if sys.stdout.isatty() else 130)

    envs: dict[str, tuple[str, Callable[..., Run], Callable[[], Any]]] = {
        "verso_env(players=2)": ("otherside", aec_run, lambda: verso_env(players=2)),
        "verso_env(players=4)": ("otherside", aec_run, lambda: verso_env(players=4)),
        "versus_env()": ("otherside", aec_run, versus_env),
        "verso_solo_env() (Gymnasium)": ("otherside", gym_run, verso_solo_env),
    }
    skipped: dict[str, str] = {}
    for name in CLASSIC:
        factory = classic(name)
        if isinstance(factory, str):
            skipped[name] = factory
        else:
            envs[name] = ("PettingZoo classic", aec_run, factory)

    load_before = os.getloadavg()
    runs: dict[str, list[Run]] = {name: [] for name in envs}
    with Progress(console=console, transient=True) as progress:
        tasks: dict[str, TaskID] = {
            name: progress.add_task(name, total=args.repeats) for name in envs
        }
        for repeat in range(args.repeats):
            for name, (_, loop, make) in envs.items():
                task = tasks[name]
                episodes = progress.add_task(f"  run {repeat + 1}: episodes", total=None)

                def tick(task_id: TaskID = episodes) -> None:
                    progress.advance(task_id)

                runs[name].append(loop(make, args.seconds, args.seed + repeat, tick))
                progress.remove_task(episodes)
                progress.advance(task)
    load_after = os.getloadavg()

    title = f"Random masked actions, {args.repeats} × {args.seconds:g} CPU s, median run"
    table = Table(title=title)
    columns = ("environment", "from", "steps/s", "× best classic", "moves/s", "episodes/s", "wall")
    for column in (*columns, "steps/episode"):
        table.add_column(column, justify="left" if column in columns[:2] else "right")
    median = {name: sorted(rs, key=lambda r: r.rate)[len(rs) // 2] for name, rs in runs.items()}
    medians = {name: run.rate for name, run in median.items()}
    classic_best = max(
        (rate for name, rate in medians.items() if envs[name][0] != "otherside"), default=None
    )
    for name, (origin, _, _) in envs.items():
        run = median[name]
        table.add_row(
            name,
            origin,
            f"{run.rate:,.0f}",
            f"{run.rate / classic_best:.2f}" if classic_best else "-",
            f"{run.moves / run.seconds:,.0f}",
            f"{run.episodes / run.seconds:,.1f}",
            f"{run.wall:.1f} s",
            f"{run.steps / run.episodes:,.1f}",
        )
    console.print(table)
    for name, reason in skipped.items():
        console.print(f"skipped {name}: {reason}")
    spread = {n: statistics.pstdev([r.rate for r in rs]) / medians[n] for n, rs in runs.items()}
    console.print(
        f"{os.cpu_count()} cores; load average (1, 5, 15 min) before "
        f"{', '.join(f'{x:.2f}' for x in load_before)}, after "
        f"{', '.join(f'{x:.2f}' for x in load_after)}; largest spread between runs "
        f"{max(spread.values()):.0%}"
    )
    if args.plot:
        plot(medians, {name: origin for name, (origin, _, _) in envs.items()}, args.plot)
        console.print(f"plot written to {args.plot}")


def plot(medians: dict[str, float], origins: dict[str, str], path: str) -> None:
    """A horizontal bar chart of steps per second, otherside's environments first."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(medians)[::-1]
    colours = ["tab:blue" if origins[n] == "otherside" else "tab:grey" for n in names]
    figure, axes = plt.subplots(figsize=(8, 0.5 * len(names) + 1.2))
    axes.barh(names, [medians[n] for n in names], color=colours)
    axes.set_xlabel("environment steps per CPU second (random masked actions)")
    for y, name in enumerate(names):
        axes.annotate(
            f"{medians[name]:,.0f}",
            (medians[name], y),
            xytext=(3, 0),
            textcoords="offset points",
            va="center",
        )
    figure.tight_layout()
    figure.savefig(path, dpi=120)


if __name__ == "__main__":
    main()
