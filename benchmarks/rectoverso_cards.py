"""Recto Verso card generator speed: cards generated per second (with the R11 rejections).

Usage: PYTHONPATH=src python benchmarks/rectoverso_cards.py [--cards 500]
"""

from __future__ import annotations

import argparse
import random
import time

from rich.progress import track

from otherside.games.rectoverso.cards import MAX_HEIGHT, card_of, random_construction, rejection


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=500, help="cards per difficulty")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for difficulty in ("easy", "hard"):
        rng = random.Random(args.seed)
        built = kept = 0
        heights = [0] * (MAX_HEIGHT + 1)
        start = time.perf_counter()
        for _ in track(range(args.cards), description=f"generating {difficulty} cards"):
            while True:
                card = card_of(random_construction(rng, difficulty), difficulty)
                built += 1
                if rejection(card) is None:
                    kept += 1
                    heights[card.height] += 1
                    break
        seconds = time.perf_counter() - start
        print(
            f"{difficulty}: {kept / seconds:.0f} cards/s ({kept} cards in {seconds:.2f} s), "
            f"rejected {built - kept} of {built} constructions by R11, "
            f"heights {dict((h, n) for h, n in enumerate(heights) if n)}"
        )


if __name__ == "__main__":
    main()
