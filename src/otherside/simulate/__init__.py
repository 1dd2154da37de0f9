"""The simulator: many seeded games of any game between named bot seats, locally or on Ray, and
their summary (:mod:`~otherside.simulate.runner`; Ray in :mod:`~otherside.simulate.on_ray`).

Seats are registry names (``"ismcts,greedy,greedy,greedy"``, options as
``ismcts:iterations=400``); the same seed gives the same games whatever the number of workers.
"""

from otherside.simulate.runner import (
    Z95,
    GameResult,
    SeatSpec,
    SimSpec,
    parse_seats,
    play_one,
    simulate,
    summarize,
    wilson,
)

__all__ = [
    "Z95",
    "GameResult",
    "SeatSpec",
    "SimSpec",
    "parse_seats",
    "play_one",
    "simulate",
    "summarize",
    "wilson",
]
