"""The Verso lessons: drawing or flipping (V7), no duplicates (V8), banking a series (V10, V11),
the star (V10), the square (V12) and the final round (V13, V14), each on a small pile made for
it. Two players; the learner is seat 0 and the cards before the step are drawn in turn."""

from __future__ import annotations

from typing import Any

from otherside.games.verso import DECK, GAME, card_name
from otherside.games.verso.state import VersoState
from otherside.i18n import N_
from otherside.lessons import Lesson, Step

LEARNER = 0
FILLER = 4  # cards under the step's own, so that the game does not end with the step


def _same_card(a: str, b: str) -> bool:
    return set(a.split("/")) == set(b.split("/"))


def _record(
    mine: tuple[str, ...] = (),
    theirs: tuple[str, ...] = (),
    top: tuple[str, ...] = (),
    filler: int = FILLER,
) -> dict[str, Any]:
    """A pile where the learner draws ``mine`` and the opponent ``theirs`` in turn, then
    ``top`` for the step, then ``filler`` other cards of the deck; the draws are played."""
    pile = [card for pair in zip(mine, theirs, strict=True) for card in pair] + list(top)
    given = list(pile)
    for index in range(len(DECK)):
        if len(pile) >= len(given) + filler:
            break
        card = card_name(index * 2)
        if not any(_same_card(card, other) for other in given):
            pile.append(card)
    return {
        "game": "verso",
        "players": 2,
        "options": {},
        "pile": pile,
        "actions": ["draw"] * (2 * len(mine)),
    }


def _gain(before: VersoState, after: VersoState) -> int:
    return after.scores[LEARNER] - before.scores[LEARNER]


def flipped(before: VersoState, action: Any, after: VersoState) -> bool:
    """The top card was turned before it was taken."""
    return str(action) == "flip"


def banked(before: VersoState, action: Any, after: VersoState) -> bool:
    """A series was banked."""
    return str(action).startswith("series ")


def banked_seven(before: VersoState, action: Any, after: VersoState) -> bool:
    """A series worth all three cards (7 VP) was banked."""
    return banked(before, action, after) and _gain(before, after) == 7


def squared(before: VersoState, action: Any, after: VersoState) -> bool:
    """The move scored a square (7 VP at once)."""
    return _gain(before, after) >= 7 and not banked(before, action, after)


HAND = ("B2/g1", "b3/G2", "B4/g3")
OTHERS = ("O1/g6", "O5/g4", "G6/o5")

LESSON = Lesson(
    "verso",
    N_("Learn Verso"),
    (
        Step(
            "draw-or-flip",
            "V7",
            N_("Draw or flip"),
            N_(
                "Every card has two faces: a colour, a number and 1 or 3 points on each. On "
                "your turn you take the top card of the pile as it shows (draw), or turn it "
                "over first and take the other face (flip)."
            ),
            N_("The top card shows green 6 for 1 point. Take it with its 3-point face up."),
            _record(top=("g6/B1",)),
            flipped,
            N_("You kept the face that shows: 1 point. Flipping would have given the other."),
            N_("Flipped: blue 1 for 3 points. What is under a card stays a surprise."),
            "flip",
        ),
        Step(
            "no-duplicates",
            "V8",
            N_("No duplicates"),
            N_(
                "Your tableau never holds two cards of the same colour and number. When the top "
                "face would duplicate one of yours, you may not draw it as it shows."
            ),
            N_("The top card shows blue 3, and you already have blue 3. Take the card."),
            _record(("B3/g2",), ("o4/G3",), top=("B3/o4",)),
            flipped,
            N_("Only flipping takes this card."),
            N_("Right: flipped, it is an orange 4 that your tableau did not have."),
            "flip",
            refused="draw",
        ),
        Step(
            "series",
            "V10",
            N_("Bank a series"),
            N_(
                "Instead of taking a card you may bank a series: 2 to 6 cards of one colour "
                "with numbers in a row. You score their points; your neighbours turn their "
                "highest card of that colour; your two highest cards of the series are "
                "discarded."
            ),
            N_("You hold blue 2, 3 and 4. Bank them as one series."),
            _record(HAND, OTHERS),
            banked,
            N_("You took a card. Your blue 2, 3 and 4 are a series: bank it."),
            N_("Banked: 3 + 1 + 3 points. Blue 3 and 4 are discarded, blue 2 stays."),
            "series blue 2 3 4",
        ),
        Step(
            "star",
            "V10",
            N_("The star"),
            N_(
                "A star is worth 1 point and takes the number you name for it in a series, one "
                "that no other card of the series has."
            ),
            N_("You hold blue 2, a blue star and blue 4. Bank all three, the star as 3."),
            _record((HAND[0], "b*/G2", HAND[2]), OTHERS),
            banked_seven,
            N_("Not all three: name the star 3 and it joins blue 2 and blue 4 in one series."),
            N_("2, star as 3, 4: a series of three for 7 points."),
            "series blue 2 *3 4",
        ),
        Step(
            "square",
            "V12",
            N_("The square"),
            N_(
                "As soon as your tableau holds at least 3 cards of each colour, you score 7 "
                "points at once: a square. The next one scores only after it was broken."
            ),
            N_("You have 3 blue, 3 green and 2 orange cards. Complete the square."),
            _record(
                ("B1/g6", "G2/b1", "B3/g2", "G4/b3", "B5/g4", "G6/b5", "O2/b1", "o3/B2"),
                ("O1/g6", "O5/g4", "o2/G1", "O6/g5", "B6/o5", "G5/o6", "G3/o2", "g2/B1"),
                top=("O4/b3",),
            ),
            squared,
            N_("No square yet: you need a third orange card, and the top one shows orange 4."),
            N_("Three of each colour: 7 points at once."),
            "draw",
        ),
        Step(
            "final-series",
            "V14",
            N_("The last round"),
            N_(
                "The game ends when the pile is empty. Then each player, starting after the one "
                "who took the last card, may bank one last series, or pass. Nobody turns a card "
                "then. The highest score wins."
            ),
            N_("The pile is empty. Bank your best last series."),
            _record(HAND, OTHERS, filler=0),
            banked_seven,
            N_("There was more: blue 2, 3 and 4 together score 7 points."),
            N_("7 points in the last round: that is how games are won."),
            "series blue 2 3 4",
        ),
    ),
)

__all__ = ["GAME", "LESSON"]
