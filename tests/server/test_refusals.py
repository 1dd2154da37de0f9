"""The engines' refusals and how games end, in the reader's language: every reason the engines
give while games are played (random games, probed with actions each seat might try) is known
to the catalogs' patterns (a new reason in an engine fails here), and is said in German with
its game words; the outcomes' words and the close frames too."""

from __future__ import annotations

import random

import pytest

from otherside.core.errors import BadNotation, IllegalAction
from otherside.core.game import State
from otherside.core.simultaneous import actors, apply_as, legal_actions_of
from otherside.games import rectoverso, versus
from otherside.games.verso import new_game as new_verso
from otherside.i18n import say
from otherside.server.live.close_words import MOST_BYTES, TOO_MANY, close_reason, fit
from otherside.server.tables.outcome_words import words
from otherside.server.tables.refusals import reason_template, refusal


def _probes(state: State, played: list[str], rng: random.Random) -> list[str]:
    """Actions a seat might try now: any seat's listed ones, earlier ones, and variations."""
    listed = sorted({str(a) for p in range(state.players) for a in legal_actions_of(state, p)})
    tries = [*rng.sample(listed, min(12, len(listed))), *played[-8:]]
    for text in list(tries):
        if text.startswith("place "):
            # The same piece a level up (it floats) or a cell along (it may stick out).
            name, *cells = text.split()[1:]
            up = [
                ",".join(str(int(v) + (i == 2)) for i, v in enumerate(c.split(","))) for c in cells
            ]
            along = [
                ",".join(str(int(v) + (i == 0) * 3) for i, v in enumerate(c.split(",")))
                for c in cells
            ]
            tries += [f"place {name} {' '.join(up)}", f"place {name} {' '.join(along)}"]
        if ">" in text:
            a, b = text.split(">")
            tries += [f"{b}>{a}", f"{a}>{a}", f"0:0>{b}", f"{a}>0:0"]
    return [*tries, "accept-draw", "decline-draw", "offer-draw", "done", "remove red", "reveal"]


def _reasons(state: State, rng: random.Random, steps: int) -> set[str]:
    seen: set[str] = set()
    played: list[str] = []
    for _ in range(steps):
        if state.is_over:
            break
        for seat in actors(state):  # the server refuses the others' turns itself
            for text in _probes(state, played, rng):
                try:
                    apply_as(state, seat, text)
                except IllegalAction as exc:
                    seen.add(exc.reason)
                except BadNotation:
                    pass
        movers = [p for p in range(state.players) if legal_actions_of(state, p)]
        if not movers:
            break
        seat = rng.choice(movers)
        action = str(rng.choice(legal_actions_of(state, seat)))
        try:
            state = apply_as(state, seat, action)
        except IllegalAction as exc:
            # Recto Verso lists every "remove" (a builder may not see what rests on a piece,
            # R17) and refuses it when the hand feels one.
            seen.add(exc.reason)
            continue
        played.append(action)
    seen_over = _over_reason(state) if actors(state) else None
    return seen | ({seen_over} if seen_over else set())


def _over_reason(state: State) -> str | None:
    if not state.is_over:
        return None
    try:
        apply_as(state, 0, "done")
    except (IllegalAction, BadNotation) as exc:
        return getattr(exc, "reason", None)
    return None


@pytest.mark.parametrize(
    "game",
    [
        lambda seed: versus.new_game(),
        lambda seed: rectoverso.new_game(2, seed=seed),
        lambda seed: rectoverso.new_game(3, seed=seed, difficulty="hard"),
        lambda seed: new_verso(2, seed=seed),
    ],
    ids=["versus", "rectoverso-2", "rectoverso-3-hard", "verso"],
)
def test_every_reason_the_engines_give_is_a_catalog_message(game: object) -> None:
    reasons: set[str] = set()
    for seed in range(2):
        reasons |= _reasons(game(seed), random.Random(seed), steps=40)  # type: ignore[operator]
    assert len(reasons) >= 3, reasons  # the probes do reach the rules
    unknown = {reason for reason in reasons if reason_template(reason) is None}
    assert not unknown, (
        f"engine reasons the catalogs do not know (server/tables/refusals.py): {unknown}"
    )


def test_a_versus_and_a_recto_verso_refusal_in_german_with_their_fields() -> None:
    state = versus.new_game()
    with pytest.raises(IllegalAction) as caught:
        state.apply("0:-4>0:-1")
    said = refusal(caught.value, "0:-4>0:-1")
    assert said.code == "illegal" and said.params == {}
    assert said.words("de").startswith("ein Stein zieht genau ein Feld weit (S7); erlaubt: ")
    assert said.words("en").startswith("a stone moves exactly one cell (S7); legal: ")

    build = rectoverso.new_game(2, seed=1)
    build = apply_as(build, build.current_player, "reveal")
    builder = build.recto
    apply_as(build, builder, "place yellow 0,0,0 1,0,0 2,0,0")  # legal on the ground
    placed = apply_as(build, builder, "place yellow 0,0,0 1,0,0 2,0,0")
    with pytest.raises(IllegalAction) as again:
        apply_as(placed, builder, "place yellow 0,1,0 1,1,0 2,1,0")
    said = refusal(again.value, "place yellow 0,1,0 1,1,0 2,1,0")
    assert said.params == {"piece": "yellow"}
    assert said.words("de").startswith(
        "das gelbe Bauteil ist schon gesetzt; nimm es zuerst herunter"
    )
    assert said.words("fr").startswith("la pièce jaune est déjà posée ; retirez-la d’abord")
    assert said.words("nl").startswith("het gele speelstuk staat al; haal het eerst weg")


def test_a_reason_no_pattern_knows_is_still_said_in_the_readers_language() -> None:
    said = refusal(IllegalAction("fly", "the moon is in the way"), "fly")
    assert said.words("de") == "„fly“ ist jetzt nicht erlaubt" and said.params == {"action": "fly"}
    bad = refusal(BadNotation("9:9>0:0", "'9:9': not a cell of the board (S1: |q| ≤ 5)"), "9:9>0:0")
    assert bad.words("nl") == "9:9 is geen veld van het speelbord (S1)"


def test_how_a_game_ended_is_said_in_german() -> None:
    cases = [
        ({"reason": "all targets filled (S13.1)"}, "auf jedem Zielfeld liegt ein Stein (S13.1)"),
        ({"reason": "Brown resigned"}, "Braun hat aufgegeben"),
        ({"reason": "no card left (3 levels cleared)"}, "keine Karte mehr (3 Level geschafft)"),
        (
            {"reason": "Ada ran out of time", "forfeit": {"seat": 0, "reason": "timeout"}},
            "Ada hat keine Zeit mehr",
        ),
        ({"reason": "stopped by its host", "aborted": "stopped"}, "vom Gastgeber angehalten"),
    ]
    for outcome, german in cases:
        said = words(outcome)
        assert said is not None, outcome
        assert say("de", said["template"], **said["params"]) == german
    assert words({"reason": "a reason of the future"}) is None
    # Every way a VERSUS game can end is known.
    game = versus.new_game()
    for seat in (0, 1):
        resigned = versus.new_game()
        if seat == 1:
            resigned = resigned.apply(str(resigned.legal_actions()[0]))
        over = resigned.apply("resign")
        assert over.outcome is not None and words(over.outcome.to_json()) is not None
    assert game.outcome is None


def test_a_close_frame_is_in_the_readers_language_and_fits_its_123_bytes() -> None:
    german = close_reason("de", TOO_MANY, most=8)
    assert german.startswith("zu viele Verbindungen von deiner Adresse (höchstens 8)")
    assert len(german.encode()) <= MOST_BYTES
    long = fit("Größenüberschreitung " * 10)  # cut at a character, not inside one
    assert len(long.encode()) <= MOST_BYTES and long.endswith("…")
    assert long.startswith("Größenüberschreitung Größen")
