"""The engines' refusals in the reader's language, at the adapter boundary.

The engines (:mod:`otherside.games`) stay free of the server: they refuse an action with an
English reason (``IllegalAction``, ``BadNotation``). Here each reason the engines give is
matched to a catalog message with fields (:data:`REASONS`), so that the player reads it in their
language, and the client gets the stable code ``illegal`` with the fields as ``params``. A
reason no pattern knows (a new one in an engine) is still said in the player's language, as
``'{action}' is not legal now``; ``tests/server/test_refusals.py`` checks that every reason the
engines can give is known.

Game words inside a reason (a colour, a piece, a difficulty) are catalog messages too: a
parameter named in :data:`TERMS` is said in the reader's language before it is filled in.
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

from otherside.core.errors import BadNotation, IllegalAction
from otherside.i18n import N_, say
from otherside.server.tables.errors import Refused

T = TypeVar("T")
# How a parameter's raw value becomes a catalog message (then said in the reader's language).
TERMS = {
    "piece": lambda name: f"the {name} piece",  # "the yellow piece" (games/rectoverso/pieces.js)
    "difficulty": lambda name: name,  # "easy", "hard" (the table options)
    "colour": lambda name: name,  # "blue", "green", "orange" (Verso's colours)
}
CELL = r"-?\d+:-?\d+"

# (pattern of the engine's English reason, the catalog's template with the pattern's groups).
REASONS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(pattern), template)
    for pattern, template in [
        # Every game.
        (r"the game is over(: .*)?", N_("the game is over")),
        # VERSUS (games/versus/state.py, rules.py).
        (
            r"Blue offered a draw: answer accept-draw or decline-draw",
            N_("Blue offered a draw: accept it or decline it first"),
        ),
        (
            r"Brown offered a draw: answer accept-draw or decline-draw",
            N_("Brown offered a draw: accept it or decline it first"),
        ),
        (
            r"your draw offer was declined this turn; play a ply first",
            N_("your draw offer was declined this turn; move first"),
        ),
        (r"no draw offer is pending", N_("no draw offer is open")),
        (r"not a legal ply", N_("that move is not allowed")),
        (r"not a VERSUS action", N_("that is not a VERSUS move")),
        (rf"there is no piece on (?P<cell>{CELL})", N_("there is no piece on {cell}")),
        (
            rf"the stone on (?P<cell>{CELL}) is controlled by Blue",
            N_("the stone on {cell} is controlled by Blue"),
        ),
        (
            rf"the stone on (?P<cell>{CELL}) is controlled by Brown",
            N_("the stone on {cell} is controlled by Brown"),
        ),
        (
            rf"the stone on (?P<cell>{CELL}) is locked on a target \(S9\)",
            N_("the stone on {cell} is locked on a target (S9)"),
        ),
        (r"a stone moves exactly one cell \(S7\)", N_("a stone moves exactly one cell (S7)")),
        (rf"(?P<cell>{CELL}) is not empty \(S7\)", N_("{cell} is not empty (S7)")),
        (rf"the VERSUS on (?P<cell>{CELL}) is Blue's", N_("the VERSUS on {cell} is Blue's")),
        (rf"the VERSUS on (?P<cell>{CELL}) is Brown's", N_("the VERSUS on {cell} is Brown's")),
        (
            r"a VERSUS moves in a straight line along one of the six directions \(S8\)",
            N_("a VERSUS moves in a straight line along one of the six directions (S8)"),
        ),
        (
            rf"the way is blocked at (?P<cell>{CELL}) \(S8: no jumping\)",
            N_("the way is blocked at {cell} (S8: no jumping)"),
        ),
        (
            rf"a VERSUS may cross the target (?P<cell>{CELL}) but not stop on it \(S8\)",
            N_("a VERSUS may cross the target {cell} but not stop on it (S8)"),
        ),
        # Recto Verso (games/rectoverso/flow.py, construction.py).
        (
            r"player (?P<player>\d+) is to reveal \(R16\) first",
            N_("the next card must be revealed first (R16)"),
        ),
        (
            r"player (?P<player>\d+) is to turn \(R13\) first",
            N_("a token must be turned first (R13)"),
        ),
        (r"player \d+ is not building this round", N_("you are not building this round")),
        (
            r"player \d+ has said done this round",
            N_("you have said you are done this round"),
        ),
        (
            r"the time is up \((?P<seconds>[\d.]+) s\): the round ends \(R14\)",
            N_("the time is up ({seconds} s): the round ends (R14)"),
        ),
        (
            r"(?P<piece>[a-z]+) is not used at (?P<difficulty>[a-z]+) \(R2\)",
            N_("{piece} is not used at {difficulty} (R2)"),
        ),
        (
            r"(?P<piece>[a-z]+) is already placed; remove it first",
            N_("{piece} is already placed; take it off first"),
        ),
        (
            r"cell [\d, ]+ is outside the 4 x 4 build site \(R4\)",
            N_("a cube would be outside the 4 × 4 build site (R4)"),
        ),
        (r"those cells are occupied \(R4\)", N_("those cells are taken (R4)")),
        (
            r"cube [\d, ]+ would stand above an empty cell \(R5\)",
            N_("a cube would stand above an empty cell (R5)"),
        ),
        (r"(?P<piece>[a-z]+) is not placed", N_("{piece} is not on the site")),
        (
            r"something rests on (?P<piece>[a-z]+): it would be left above an empty cell \(R5\)",
            N_("another piece rests on {piece}: take that one off first (R5)"),
        ),
        (r"not a legal placement", N_("the piece cannot go there")),
        (r"cannot remove it", N_("that piece cannot be taken off now")),
        (r".* is not an action of this phase", N_("that is not a move of this moment")),
        # Verso (games/verso/state.py).
        (
            r"pass is only allowed for the final series \(V14\)",
            N_("you may pass only on the final series (V14)"),
        ),
        (
            r"the pile is empty: only a final series or pass \(V14\)",
            N_("the pile is empty: only a final series or pass (V14)"),
        ),
        (
            r"the top face (?P<card>\S+) duplicates a card of your tableau: flip it \(V8\)",
            N_("the top face {card} duplicates a card of your tableau: flip it (V8)"),
        ),
        (r"you hold no (?P<colour>[a-z]+) star \(V10\)", N_("you hold no {colour} star (V10)")),
        (
            r"you hold no (?P<colour>[a-z]+) (?P<values>[\d, ]+) \(V10\)",
            N_("you hold no {colour} {values} (V10)"),
        ),
    ]
]
# The notation's refusals (BadNotation) that say more than "not a move".
NOTATION: list[tuple[re.Pattern[str], str]] = [
    (re.compile(pattern), template)
    for pattern, template in [
        (
            r"'(?P<cell>[^']*)': not a cell of the board \(S1: .*\)",
            N_("{cell} is not a cell of the board (S1)"),
        ),
        (
            r"'(?P<cell>[^']*)': a cell is written q:r, for example -3:0",
            N_("{cell}: a cell is written q:r, for example -3:0"),
        ),
        (
            r"a ply is written <from>><to>, for example 0:-4>0:-3; other actions: .*",
            N_("a move is written <from>><to>, for example 0:-4>0:-3"),
        ),
    ]
]
UNKNOWN = N_("'{action}' is not legal now")
BAD_NOTATION = N_("'{text}' is not a move of this game")
WITH_LEGAL = N_("{reason}; legal: {legal}")


class EngineRefusal(Refused):
    """An engine's refusal: code ``illegal``, the template of its reason and its fields (the
    game words among them said in the reader's language), and the legal actions (notation,
    the same in every language) when the engine listed them."""

    def __init__(self, template: str, legal: list[str] | None = None, **params: Any) -> None:
        self.legal = legal
        super().__init__("illegal", template, **params)

    def words(self, language: str) -> str:
        """The refusal in ``language``."""
        said = {
            name: say(language, TERMS[name](value)) if name in TERMS else value
            for name, value in self.params.items()
        }
        reason = say(language, self.template or "", **said)
        if not self.legal:
            return reason
        return say(language, WITH_LEGAL, reason=reason, legal=", ".join(self.legal[:40]))


def first_match(
    patterns: list[tuple[re.Pattern[str], T]], reason: str
) -> tuple[T, re.Match[str]] | None:
    """What the first of ``patterns`` that matches the whole English ``reason`` stands for,
    with its match, or ``None``: the one way an English sentence of a check is read back
    (refusals here, outcomes in :mod:`.outcome_words`, setups in :mod:`.setup_refusals`)."""
    for pattern, meaning in patterns:
        match = pattern.fullmatch(reason)
        if match:
            return meaning, match
    return None


def match_template(
    patterns: list[tuple[re.Pattern[str], str]], reason: str
) -> tuple[str, dict[str, str]] | None:
    """The template of the first of ``patterns`` that matches the whole English ``reason``,
    with the fields it names, or ``None``."""
    found = first_match(patterns, reason)
    if found is None:
        return None
    template, match = found
    return template, {k: v for k, v in match.groupdict().items() if k in template}


def reason_template(reason: str) -> tuple[str, dict[str, str]] | None:
    """The catalog template and fields of an engine's English ``reason``, or ``None``.

    >>> reason_template("the stone on 0:1 is locked on a target (S9)")
    ('the stone on {cell} is locked on a target (S9)', {'cell': '0:1'})
    >>> reason_template("the moon is made of cheese") is None
    True
    """
    return match_template(REASONS, reason)


def refusal(exc: ValueError, text: str) -> Refused:
    """The refusal to send for the engine's ``exc`` about the action ``text`` (code
    ``illegal``; its fields are the refusal's ``params``)."""
    if isinstance(exc, IllegalAction):
        known = reason_template(exc.reason)
        if known is not None:
            return EngineRefusal(known[0], exc.legal, **known[1])
        return EngineRefusal(UNKNOWN, exc.legal, action=text)
    if isinstance(exc, BadNotation):
        known = match_template(NOTATION, exc.reason)
        if known is not None:
            return EngineRefusal(known[0], exc.legal, **known[1])
        return EngineRefusal(BAD_NOTATION, exc.legal, text=text)
    return EngineRefusal(UNKNOWN, None, action=text)
