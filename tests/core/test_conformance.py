"""The conformance suite passes a correct game and catches the breaches it is meant to catch."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from otherside.core import IllegalAction
from otherside.core.conformance import ConformanceError, check_game

from .toy import Nim, NimState, Take


def test_a_correct_game_passes() -> None:
    report = check_game(Nim(), games_per_count=5)
    assert report.games == 5
    assert report.actions >= 5 * 3
    assert report.views > report.actions


def test_a_view_that_leaks_hidden_information_is_caught() -> None:
    leaky = Nim()
    leaky.leak = True
    with pytest.raises(ConformanceError, match="reveals something it must not"):
        check_game(leaky, games_per_count=1)


class _Sloppy(NimState):
    def apply(self, action: Take | str) -> NimState:
        if isinstance(action, str):
            action = self.parse_action(action)
        if action.count > self.heap or action.count < 1:
            raise IllegalAction(action, "bad count")
        return replace(
            self,
            heap=self.heap - action.count,
            turn=1 - self.turn,
            history=(*self.history, str(action)),
        )


class _SloppyNim(Nim):
    def new_state(self, players, *, seed=None, options=None):  # type: ignore[no-untyped-def]
        rng = random.Random(seed)
        return _Sloppy(heap=rng.randint(5, 9), secrets=(1, 2), turn=0, seed=seed or 0)

    def redeal(self, state, player, rng):  # type: ignore[no-untyped-def]
        return state


def test_accepting_an_action_outside_the_legal_list_is_caught() -> None:
    # "take 3" is outside legal_actions() once the heap is small but _Sloppy accepts... only
    # when heap >= 3; the suite tries stale actions and garbage and must notice acceptance.
    class _Garbage(_SloppyNim):
        def new_state(self, players, *, seed=None, options=None):  # type: ignore[no-untyped-def]
            state = super().new_state(players, seed=seed)

            class _AcceptsGarbage(type(state)):  # type: ignore[misc]
                def parse_action(self, text: str) -> Take:
                    return Take(1) if not text.startswith("take") else super().parse_action(text)

            return _AcceptsGarbage(**{f: getattr(state, f) for f in state.__dataclass_fields__})

    with pytest.raises(ConformanceError, match="was accepted but is not legal"):
        check_game(_Garbage(), games_per_count=1)


class _LeakyState(NimState):
    """Nim whose legal actions, refusals or spectator view give a secret away (by ``how``)."""

    how = ""

    def legal_actions(self) -> list[Take]:
        legal = super().legal_actions()
        if self.how == "legal" and self.secrets[1 - self.turn] % 2:
            return legal[:1]  # "take 2" only when the opponent's secret is even
        return legal

    def apply(self, action: Take | str) -> NimState:
        if isinstance(action, str):
            action = self.parse_action(action)
        if self.how == "refusal" and action not in self.legal_actions():
            raise IllegalAction(action, f"the other holds {self.secrets[1 - self.turn]}")
        return super().apply(action)


def _leaky(how: str) -> Nim:
    class _Leaky(Nim):
        def new_state(self, players, *, seed=None, options=None):  # type: ignore[no-untyped-def]
            state = super().new_state(players, seed=seed)
            leaky = type("_L", (_LeakyState,), {"how": how})
            return leaky(**{f: getattr(state, f) for f in state.__dataclass_fields__})

        def view(self, state, player):  # type: ignore[no-untyped-def]
            view = super().view(state, player)
            if how == "spectator" and player is None:
                view["secrets"] = list(state.secrets)
            return view

    return _Leaky()


@pytest.mark.parametrize(
    ("how", "caught"),
    [
        ("legal", "legal actions of player"),
        ("refusal", "the refusal of"),
        ("spectator", "spectator's view changed"),
    ],
)
def test_legal_actions_refusals_and_the_spectator_view_that_leak_are_caught(
    how: str, caught: str
) -> None:
    with pytest.raises(ConformanceError, match=caught):
        check_game(_leaky(how), games_per_count=3)
