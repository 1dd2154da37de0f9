"""Solo Verso: how many points the expert loses per decision to sampling noise, by budget.

The expert estimates each action's worth by rollouts in sampled worlds; with few worlds it
sometimes picks an action that only looked best. This benchmark draws mid-game positions (from
games played by a quick expert), values every distinct action there with a large flat
reference (``--reference`` worlds per action), then lets the expert decide at each budget of
``--budgets`` several times. The loss of a decision is the
reference value of the best action minus that of the action chosen; the table gives the mean
loss per decision. A solo game has about 20 decisions, so 0.05 points per decision is about a
point per game.

The loss is measured against the expert's own rollout estimate, so it says how much a larger
budget can still bring, not how far the expert is from perfect play.

    PYTHONPATH=src python benchmarks/verso_expert_noise.py --positions 60 --budgets 100,250,500
"""

from __future__ import annotations

import argparse
import random
import statistics
from concurrent.futures import ProcessPoolExecutor

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from otherside.bots.verso.expert import ExpertBot, distinct_actions
from otherside.core.rng import derive_seed
from otherside.games import verso


def _position(seed: int, index: int) -> verso.VersoState | None:
    """A solo position after a random number (0-15) of quick-expert decisions, or None when
    that game has no decision with two or more distinct actions left."""
    rng = random.Random(derive_seed(seed, "position", index))
    state = verso.new_game(1, seed=derive_seed(seed, "game", index))
    quick = ExpertBot(worlds=30)
    for _ in range(rng.randrange(16)):
        if state.phase_name != "play":
            return None
        state = state.apply(quick.choose(verso.view(state, 0), state.legal_actions(), rng))
    if state.phase_name != "play":
        return None
    world = ExpertBot._world(verso.view(state, 0), rng)
    actions, _ = distinct_actions(world, state.legal_actions())
    return state if len(actions) >= 2 else None


def _reference(state: verso.VersoState, worlds: int, rng: random.Random) -> dict[str, float]:
    """Flat Monte Carlo: each distinct action's mean rollout score over the same ``worlds``."""
    view = verso.view(state, 0)
    first = ExpertBot._world(view, rng)
    actions, moves = distinct_actions(first, state.legal_actions())
    totals = ExpertBot(worlds=worlds).values(view, first, moves, rng)
    return {str(a): t / worlds for a, t in zip(actions, totals, strict=True)}


def _losses(
    args: tuple[int, int, int, tuple[int, ...], int],
) -> dict[int, list[float]] | None:
    seed, index, reference, budgets, repeats = args
    state = _position(seed, index)
    if state is None:
        return None
    ref = _reference(state, reference, random.Random(derive_seed(seed, "reference", index)))
    best = max(ref.values())
    view, legal = verso.view(state, 0), state.legal_actions()
    out: dict[int, list[float]] = {}
    for budget in budgets:
        bot = ExpertBot(worlds=budget)
        losses = out[budget] = []
        for r in range(repeats):
            rng = random.Random(derive_seed(seed, f"decide-{budget}-{r}", index))
            losses.append(best - ref[str(bot.choose(view, legal, rng))])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--reference", type=int, default=4000, help="worlds per action")
    parser.add_argument("--budgets", default="100,250,500", help="expert worlds to compare")
    parser.add_argument("--repeats", type=int, default=4, help="decisions per budget")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    budgets = tuple(int(b) for b in args.budgets.split(","))
    console = Console()
    jobs = [(args.seed, i, args.reference, budgets, args.repeats) for i in range(args.positions)]
    results = []
    with (
        Progress(console=console, transient=True) as progress,
        ProcessPoolExecutor(args.workers) as pool,
    ):
        task = progress.add_task("positions", total=len(jobs))
        for result in pool.map(_losses, jobs):
            progress.advance(task)
            if result is not None:
                results.append(result)
    table = Table(
        title=f"expert: points lost per decision against a {args.reference}-world reference, "
        f"{len(results)} positions (seed {args.seed})"
    )
    for column in ("expert worlds", "mean loss per decision", "decisions not the best"):
        table.add_column(column, justify="right")
    for budget in budgets:
        losses = [x for r in results for x in r[budget]]
        wrong = sum(x > 0 for x in losses) / len(losses)
        table.add_row(str(budget), f"{statistics.fmean(losses):.3f}", f"{wrong:.0%}")
    console.print(table)


if __name__ == "__main__":
    main()
