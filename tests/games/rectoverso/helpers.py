"""Shared helpers for the Recto Verso tests."""

from __future__ import annotations

from otherside.games.rectoverso.construction import Construction, Placement
from otherside.games.rectoverso.notation import parse_placement


def build_order(construction: Construction) -> list[Placement]:
    """The placements of ``construction`` in an order in which each one is supported."""
    built = Construction()
    order: list[Placement] = []
    pending = list(construction.placements)
    while pending:
        placement = next(p for p in pending if built.check_place(p) is None)
        built = built.place(placement)
        order.append(placement)
        pending.remove(placement)
    return order


def build(*placements: str) -> Construction:
    """A construction from placement notations, placed in the order given."""
    construction = Construction()
    for text in placements:
        construction = construction.place(parse_placement(text))
    return construction


class FakeClock:
    """A clock that tests move by hand: ``clock.now += 15``."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
