"""The conformance suite every game must pass: ``check_game(game)``.

It plays seeded random games to the end for every player count and checks, at every step:
legal actions are non-empty until the end and listed in a stable order; each action's notation
parses back to the same action; ``apply`` of malformed or illegal input raises a ``ValueError``
and changes nothing; views are JSON; and at the end: an outcome exists, the same seed gives the
same game, and the record replays to the same state. Failures raise :class:`ConformanceError`
naming the step.

Hidden information, on every channel. For each seat, the state is re-dealt as that seat cannot
tell it apart (:meth:`Game.redeal`), and nothing that seat receives may change: its view, the
legal actions it is sent (:func:`~otherside.core.simultaneous.legal_actions_of`), and the
refusal of any action it might try (the message, hence the alternatives it lists; an action
refused in one deal may be accepted in the other, as a hand at the table feels a hidden piece,
but a refusal tells nothing more). Nor may the spectator's view (``view(state, None)``): a
person without a seat knows no more than any seated player.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from otherside.core.errors import BadNotation, IllegalAction
from otherside.core.game import Game, State
from otherside.core.simultaneous import apply_as, legal_actions_of

PROBES = 6  # earlier and listed actions tried on every seat at every step, of each kind


class ConformanceError(AssertionError):
    """A game broke the contract; the message says where and how."""


@dataclass(frozen=True)
class ConformanceReport:
    """What was checked: games played, actions applied, views compared."""

    games: int
    actions: int
    views: int


def _fingerprint(game: Game, state: State) -> str:
    views = [game.view(state, p) for p in range(state.players)]
    return json.dumps(
        {"record": state.to_record(), "views": views, "scores": list(state.scores)},
        sort_keys=True,
    )


def _refusal(state: State, player: int, text: str) -> str | None:
    """The message refusing ``player``'s ``text``, or ``None`` when it is accepted."""
    try:
        apply_as(state, player, text)
    except (BadNotation, IllegalAction) as exc:
        return str(exc)
    return None


def _probes(state: State, played: Sequence[str], rng: random.Random) -> list[str]:
    """Actions a player might try: the last ones played and a few earlier ones (often refused
    now, some because of what hides where they once stood), and a few that some seat is
    listed, whoever they belong to."""
    listed = sorted({str(a) for p in range(state.players) for a in legal_actions_of(state, p)})
    earlier = sorted(set(played[:-6]))
    return [
        *played[-6:],
        *rng.sample(earlier, min(PROBES, len(earlier))),
        *rng.sample(listed, min(PROBES, len(listed))),
    ]


def _check_views(
    game: Game,
    state: State,
    rng: random.Random,
    where: str,
    played: Sequence[str] = (),
    tries: Sequence[str] = (),
) -> int:
    checked = 0
    spectator = game.view(state, None)
    probes = [*_probes(state, played, rng), *tries]
    for player in [*range(state.players), None]:
        view = game.view(state, player)
        try:
            json.dumps(view)
        except (TypeError, ValueError) as exc:
            raise ConformanceError(f"{where}: view for {player} is not JSON: {exc}") from exc
        checked += 1
        if player is None:
            continue
        other = game.redeal(state, player, rng)
        if game.view(other, player) != view:
            raise ConformanceError(
                f"{where}: the view of player {player} changed when hidden information was "
                "re-drawn, so it reveals something it must not"
            )
        if game.view(other, None) != spectator:
            raise ConformanceError(
                f"{where}: the spectator's view changed when what player {player} cannot see "
                "was re-drawn, so it shows more than a seated player knows"
            )
        sent = [str(a) for a in legal_actions_of(state, player)]
        if [str(a) for a in legal_actions_of(other, player)] != sent:
            raise ConformanceError(
                f"{where}: the legal actions of player {player} changed when hidden information "
                "was re-drawn, so they reveal something they must not"
            )
        for text in probes:
            here, there = _refusal(state, player, text), _refusal(other, player, text)
            if here is not None and there is not None and here != there:
                raise ConformanceError(
                    f"{where}: the refusal of {text!r} to player {player} changed when hidden "
                    f"information was re-drawn ({here!r} / {there!r}), so it reveals something"
                )
    return checked


def check_secrets(game: Game, state: State, rng: random.Random, tries: Sequence[str] = ()) -> int:
    """Check, in ``state`` alone, that no seat's view, legal actions or refusals (of ``tries``
    among others) and no spectator's view change when what that seat cannot see is re-drawn;
    for positions that random playouts rarely reach. Returns the number of views checked.

    Raises:
        ConformanceError: naming the channel that gives something away.
    """
    return _check_views(game, state, rng, f"{game.name} position", tries=tries)


def _check_step(
    game: Game, state: State, stale: Sequence[str], rng: random.Random, where: str
) -> None:
    legal = list(state.legal_actions())
    if not legal:
        raise ConformanceError(f"{where}: no legal action but the game is not over")
    if [str(a) for a in legal] != [str(a) for a in state.legal_actions()]:
        raise ConformanceError(f"{where}: legal_actions() is not deterministic")
    if len({str(a) for a in legal}) != len(legal):
        raise ConformanceError(f"{where}: two legal actions share a notation")
    for action in legal:
        parsed = state.parse_action(str(action))
        if parsed != action or str(parsed) != str(action):
            raise ConformanceError(f"{where}: {str(action)!r} does not parse back to itself")
    before = _fingerprint(game, state)
    legal_text = {str(a) for a in legal}
    bad_inputs = ["", "no such move", *(s for s in stale if s not in legal_text)]
    for text in bad_inputs[:4]:
        try:
            state.apply(text)
        except (BadNotation, IllegalAction) as exc:
            if not str(exc):
                raise ConformanceError(f"{where}: empty error message for {text!r}") from exc
        else:
            raise ConformanceError(f"{where}: apply({text!r}) was accepted but is not legal")
        if _fingerprint(game, state) != before:
            raise ConformanceError(f"{where}: a rejected apply({text!r}) changed the state")


def _playout(
    game: Game, players: int, seed: int, check: bool, max_steps: int
) -> tuple[State, list[str], int, int]:
    rng = random.Random(seed)
    check_rng = random.Random(seed + 1)
    state = game.new_state(players, seed=seed)
    history: list[str] = []
    views = 0
    steps = 0
    while not state.is_over:
        if steps >= max_steps:
            raise ConformanceError(
                f"{game.name} {players}p seed {seed}: no end after {max_steps} actions"
            )
        where = f"{game.name} {players}p seed {seed} step {steps}"
        if check:
            _check_step(game, state, history[-6:], check_rng, where)
            views += _check_views(game, state, check_rng, where, history)
        action = rng.choice(list(state.legal_actions()))
        history.append(str(action))
        state = state.apply(action)
        steps += 1
    return state, history, steps, views


def check_game(
    game: Game,
    player_counts: Iterable[int] | None = None,
    games_per_count: int = 3,
    seed: int = 0,
    max_steps: int = 20_000,
) -> ConformanceReport:
    """Run the conformance suite on ``game``; raise :class:`ConformanceError` on any breach."""
    counts = list(player_counts) if player_counts is not None else list(game.player_counts)
    played = actions = views = 0
    for players in counts:
        for index in range(games_per_count):
            game_seed = seed * 1000 + players * 100 + index
            where = f"{game.name} {players}p seed {game_seed}"
            final, history, steps, seen = _playout(game, players, game_seed, True, max_steps)
            again, history_again, _, _ = _playout(game, players, game_seed, False, max_steps)
            if history != history_again or _fingerprint(game, final) != _fingerprint(game, again):
                raise ConformanceError(f"{where}: the same seed gave a different game")
            outcome = final.outcome
            if outcome is None or final.current_player is not None:
                raise ConformanceError(f"{where}: finished without an outcome, or someone to move")
            if list(outcome.scores) != list(final.scores):
                raise ConformanceError(f"{where}: outcome scores differ from state scores")
            if final.legal_actions():
                raise ConformanceError(f"{where}: legal actions remain after the end")
            record = json.loads(json.dumps(final.to_record()))
            replayed = game.replay(record)
            if _fingerprint(game, replayed) != _fingerprint(game, final):
                raise ConformanceError(f"{where}: the record does not replay to the same state")
            views += seen + _check_views(game, final, random.Random(game_seed), f"{where} end")
            played += 1
            actions += steps
    return ConformanceReport(played, actions, views)
